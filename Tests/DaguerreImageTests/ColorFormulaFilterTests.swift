import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Core Image's colour adjustments and colour effects that are formulas on linear light
/// (SPEC I4), each against its published or documented formula computed independently by numpy
/// with colour-science's sRGB curves (color_judge.py), within 1/255 on 8-bit output through the
/// default colour-managed context. Every case of a test is judged in one Python run.
@Suite("Colour formulas against numpy and colour-science")
struct ColorFormulaFilterTests {
    typealias Case = (filter: String, parameters: [String: FilterValue], op: String, judge: [String: Any])

    static var adjustments: [Case] {
        [
            (
                "ColorPolynomial",
                [
                    "inputRedCoefficients": .vector([0.05, 0.8, 0.5, -0.4]), "inputGreenCoefficients": .vector([0, 1.2, -0.3, 0.1]),
                    "inputBlueCoefficients": .vector([0.1, 0.5, 0.5, -0.2]),
                ],
                "polynomial", ["red": [0.05, 0.8, 0.5, -0.4], "green": [0, 1.2, -0.3, 0.1], "blue": [0.1, 0.5, 0.5, -0.2]]
            ),
            ("HueAdjust", ["inputAngle": 1], "hue", ["angle": 1]),
            ("HueAdjust", ["inputAngle": -2.5], "hue", ["angle": -2.5]),
            ("LinearToSRGBToneCurve", [:], "linearToSRGB", [:]),
            ("SRGBToneCurveToLinear", [:], "sRGBToLinear", [:]),
            ("WhitePointAdjust", ["inputColor": .color(Color(red: 1, green: 0.85, blue: 0.6))], "whitePoint", ["color": [1, 0.85, 0.6]]),
        ]
    }

    /// A five-entry S curve, each channel a little different.
    static let curve: [Double] = [0, 0.02, 0, 0.2, 0.22, 0.18, 0.55, 0.5, 0.45, 0.85, 0.8, 0.82, 1, 0.98, 1]

    static var effects: [Case] {
        [
            (
                "ColorCrossPolynomial",
                [
                    "inputRedCoefficients": .vector([0.9, 0.1, 0, 0.2, 0, 0, -0.1, 0, 0, 0.02]),
                    "inputGreenCoefficients": .vector([0, 0.7, 0.2, 0, 0.1, 0, 0, 0.1, 0, 0]),
                    "inputBlueCoefficients": .vector([0.1, 0, 0.8, 0, 0, -0.2, 0, 0, 0.3, 0.05]),
                ],
                "crossPolynomial",
                [
                    "red": [0.9, 0.1, 0, 0.2, 0, 0, -0.1, 0, 0, 0.02], "green": [0, 0.7, 0.2, 0, 0.1, 0, 0, 0.1, 0, 0],
                    "blue": [0.1, 0, 0.8, 0, 0, -0.2, 0, 0, 0.3, 0.05],
                ]
            ),
            ("FalseColor", [:], "falseColor", ["color0": [0.3, 0, 0], "color1": [1, 0.9, 0.8]]),
            (
                "FalseColor",
                ["inputColor0": .color(Color(red: 0, green: 0.1, blue: 0.4)), "inputColor1": .color(Color(red: 1, green: 0.8, blue: 0.2))],
                "falseColor", ["color0": [0, 0.1, 0.4], "color1": [1, 0.8, 0.2]]
            ),
            ("MaskToAlpha", [:], "maskToAlpha", ["format": "rgbaf"]),
            ("Thermal", [:], "thermal", [:]),
            (
                "ColorCurves", ["inputCurvesData": .vector(curve)], "curves",
                ["table": curve, "domain": [0, 1]]
            ),
            (
                "ColorCurves", ["inputCurvesData": .vector(curve), "inputCurvesDomain": .vector([0.1, 0.8])], "curves",
                ["table": curve, "domain": [0.1, 0.8]]
            ),
            ("XRay", [:], "xRay", [:]),
            ("Vignette", ["inputIntensity": 0.8, "inputRadius": 1], "vignette", ["intensity": 0.8, "radius": 1]),
            ("Vignette", ["inputIntensity": -0.5, "inputRadius": 1.5], "vignette", ["intensity": -0.5, "radius": 1.5]),
            (
                "VignetteEffect", ["inputCenter": .vector([250, 200]), "inputRadius": 60, "inputIntensity": 0.9, "inputFalloff": 0.5],
                "vignetteEffect", ["center": [250, 200], "radius": 60, "intensity": 0.9, "falloff": 0.5]
            ),
        ]
    }

    /// The PhotoEffect looks, with the numbers their doc comments document.
    static var looks: [Case] {
        [
            (
                "PhotoEffectChrome", [:], "look",
                ["mono": false, "saturation": 1.25, "contrast": 0.35, "gain": [1, 1, 1], "lift": [0, 0, 0]]
            ),
            (
                "PhotoEffectFade", [:], "look",
                ["mono": false, "saturation": 0.7, "contrast": -0.2, "gain": [0.85, 0.85, 0.85], "lift": [0.1, 0.1, 0.1]]
            ),
            (
                "PhotoEffectInstant", [:], "look",
                ["mono": false, "saturation": 0.85, "contrast": 0.1, "gain": [1, 0.95, 0.82], "lift": [0.06, 0.05, 0.04]]
            ),
            ("PhotoEffectMono", [:], "look", ["mono": true, "saturation": 1, "contrast": 0, "gain": [1, 1, 1], "lift": [0, 0, 0]]),
            ("PhotoEffectNoir", [:], "look", ["mono": true, "saturation": 1, "contrast": 0.8, "gain": [1, 1, 1], "lift": [0, 0, 0]]),
            (
                "PhotoEffectProcess", [:], "look",
                ["mono": false, "saturation": 1.1, "contrast": 0.25, "gain": [0.92, 0.98, 1], "lift": [0, 0.02, 0.06]]
            ),
            (
                "PhotoEffectTonal", [:], "look",
                ["mono": true, "saturation": 1, "contrast": -0.3, "gain": [0.9, 0.9, 0.9], "lift": [0.05, 0.05, 0.05]]
            ),
            (
                "PhotoEffectTransfer", [:], "look",
                ["mono": false, "saturation": 1.1, "contrast": 0.2, "gain": [1, 0.95, 0.85], "lift": [0.04, 0.02, 0]]
            ),
        ]
    }

    @Test("The PhotoEffect looks match the formula they document within 1/255")
    func looksMatch() throws { try Self.judgeAll(Self.looks) }

    /// A 17³ grading cube (smooth, with cross-talk between channels), RGBA, red fastest.
    static let cube: [Float] = {
        let d = 17
        var out: [Float] = []
        for b in 0..<d {
            for g in 0..<d {
                for r in 0..<d {
                    let (x, y, z) = (Float(r) / 16, Float(g) / 16, Float(b) / 16)
                    out += [0.9 * x.squareRoot() + 0.1 * y, 0.7 * y * y + 0.3 * z, 0.5 * z + 0.5 * x * y, 1]
                }
            }
        }
        return out
    }()

    @Test("ColorCube, ColorCubeWithColorSpace and ColorCubesMixedWithMask match colour-science's LUT3D, ColorMap its formula, within 1/255")
    func tablesMatch() throws {
        let dir = try TemporaryDirectory()
        try Self.cube.withUnsafeBytes { try Data($0).write(to: dir.url.appendingPathComponent("cube.f32")) }
        // A 64×3 gradient whose middle row is a colour ramp and whose other rows are black.
        var gradient = try PixelBuffer(width: 64, height: 3, format: .rgbaf, colorSpace: .extendedLinearSRGB)
        let bpr = gradient.bytesPerRow
        gradient.withUnsafeMutableBytes { raw in
            for y in 0..<3 {
                let row = (raw.baseAddress! + y * bpr).assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<64 {
                    let t = Float(x) / 63
                    row[x] = y == 1 ? SIMD4(0.1 + 0.8 * t, t * t, 1 - t, 1) : SIMD4(0, 0, 0, 1)
                }
            }
        }
        try writeTight(gradient, to: dir.path("gradient.f32"))
        let gradientImage = Image(buffer: gradient, colorSpace: .extendedLinearSRGB)
        let values = Self.cube.map(Double.init)
        // A second cube: each entry's colour inverted (alpha kept).
        let inverse = values.enumerated().map { $0.offset % 4 == 3 ? $0.element : 1 - $0.element }
        try inverse.map(Float.init).withUnsafeBytes { try Data($0).write(to: dir.url.appendingPathComponent("inverse.f32")) }
        try Self.judgeAll([
            (
                "ColorCube", ["inputCubeDimension": 17, "inputCubeData": .vector(values)], "cube",
                ["dimension": 17, "file": dir.path("cube.f32")]
            ),
            (
                "ColorCubeWithColorSpace",
                ["inputCubeDimension": 17, "inputCubeData": .vector(values), "inputColorSpace": .colorSpace(.sRGB)],
                "cube", ["dimension": 17, "file": dir.path("cube.f32"), "space": "sRGB"]
            ),
            (
                "ColorMap", ["inputGradientImage": .image(gradientImage)], "colorMap",
                ["file": dir.path("gradient.f32"), "width": 64, "height": 3]
            ),
            // The fourth case runs on kodim23 (judgeAll's order), masked by its own luminance.
            (
                "ColorCubesMixedWithMask",
                [
                    "inputCubeDimension": 17, "inputCube0Data": .vector(values), "inputCube1Data": .vector(inverse),
                    "inputMaskImage": .image(try Kodak.image(23).cropped(to: Self.crop)),
                ],
                "cubesMixed", ["dimension": 17, "file": dir.path("cube.f32"), "file1": dir.path("inverse.f32")]
            ),
        ])
    }

    static let crop = Rect(x: 200, y: 150, width: 128, height: 128)

    /// Renders every case on a 128×128 Kodak crop, judges all in one run, checks ≤ 1/255.
    static func judgeAll(_ cases: [Case]) throws {
        let dir = try TemporaryDirectory()
        let crop = Self.crop
        var manifest: [[String: Any]] = []
        for (k, c) in cases.enumerated() {
            let kodim = [3, 13, 19, 23][k % 4]
            let out = try Kodak.image(kodim).cropped(to: crop).applyingFilter(c.filter, parameters: c.parameters)
            #expect(out.extent == crop, "\(c.filter): extent \(out.extent)")
            let rgbaf = c.judge["format"] as? String == "rgbaf"
            let buffer =
                rgbaf
                ? try Context().createBuffer(out, format: .rgbaf, colorSpace: .extendedLinearSRGB)
                : try Context().createBuffer(out, format: .rgb8, colorSpace: .sRGB)
            try writeTight(buffer, to: dir.path("\(k).raw"))
            manifest.append([
                "id": k, "op": c.op, "params": c.judge, "input": Kodak.url(kodim).path, "crop": [200, 150, 128, 128],
                "ours": dir.path("\(k).raw"), "format": rgbaf ? "rgbaf" : "rgb8",
            ])
        }
        try JSONSerialization.data(withJSONObject: ["cases": manifest]).write(to: dir.url.appendingPathComponent("manifest.json"))
        let r = try Judge.python("color_judge.py", ["--manifest", dir.path("manifest.json")])
        let results = r["results"] as? [[String: Any]] ?? []
        #expect(results.count == cases.count)
        for result in results {
            let k = result["id"] as? Int ?? 0
            let c = cases[k]
            let maxDiff = result["max_abs_diff"] as? Int ?? 99
            print(
                "measured: \(c.filter) \(c.op) \(c.judge.filter { $0.key != "file" }) vs numpy: max |Δ| \(maxDiff)/255, mean \(result["mean_abs_diff"] ?? "?")"
            )
            #expect(maxDiff <= 1, "\(c.filter) \(c.judge): max |ours − formula| = \(maxDiff)/255")
        }
    }

    @Test("Colour adjustments match their formulas within 1/255")
    func adjustmentsMatch() throws { try Self.judgeAll(Self.adjustments) }

    @Test("Colour effects match their formulas within 1/255")
    func effectsMatch() throws { try Self.judgeAll(Self.effects) }
}
