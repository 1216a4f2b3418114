import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// The filters that say where each output pixel comes from (SPEC I4; Core Image's
/// GeometryAdjustment perspective filters, TileEffect and DistortionEffect): each mapping is
/// implemented again in numpy from its doc comment's definition (OpenCV's
/// getPerspectiveTransform for the projective ones) and sampled with OpenCV's bilinear
/// cv2.remap; all cases in one judge run. Colour management is off and the working format is
/// 32-bit float, so both sides interpolate the same numbers. OpenCV quantizes bilinear weights to
/// 1/32 of a pixel, so single pixels on hard edges may differ by a few /255; the mean may not.
@Suite("Warp filters against numpy mappings and OpenCV remap")
struct WarpFilterTests {
    struct Case {
        var name: String
        var parameters: [String: FilterValue]
        var label: String
        var window = Rect(x: -32, y: -32, width: 224, height: 192)
        var edge = "transparent"
        /// The key that gets `auxCrop` of Kodak `auxKodim` (a displacement map, a texture), if any.
        var aux: String? = nil
        /// A transform applied after the filter (how SampleNearest shows), judged as its inverse
        /// mapping sampled by cv2.remap's nearest neighbour, and then exactly.
        var then: AffineTransform2D? = nil
    }

    static let auxKodim = 3
    static let auxCrop = Rect(x: 200, y: 100, width: 160, height: 128)

    /// The tolerance on the mean over the judged pixels, and on the largest single difference,
    /// in 1/255.
    static let meanTolerance = 0.5
    static let maxTolerance = 8.0

    static let crop = Rect(x: 300, y: 200, width: 160, height: 128)

    static let tile: [String: FilterValue] = ["inputCenter": [60, 50], "inputAngle": 0.3, "inputWidth": 40]
    /// A guide whose verticals converge upwards and whose horizontals converge to the right,
    /// leaning a little: a façade from below and to the side.
    static let keystoneGuide: [String: FilterValue] = [
        "inputTopLeft": [38, 22], "inputTopRight": [118, 30], "inputBottomRight": [136, 112], "inputBottomLeft": [22, 104],
    ]
    static let skewTile: [String: FilterValue] = tile.merging(["inputAcuteAngle": 1.2]) { $1 }

    static let cases: [Case] = [
        Case(
            name: "PerspectiveTransform",
            parameters: [
                "inputTopLeft": [10, 5], "inputTopRight": [150, 20], "inputBottomRight": [140, 120], "inputBottomLeft": [5, 100],
            ],
            label: "gentle"),
        Case(
            name: "PerspectiveTransform",
            parameters: [
                "inputTopLeft": [40, 20], "inputTopRight": [120, 20], "inputBottomRight": [170.4, 125.3],
                "inputBottomLeft": [-10.3, 125.3],
            ],
            label: "strong"),
        Case(name: "PerspectiveTransform", parameters: [:], label: "defaults", window: Rect(x: 110, y: 130, width: 224, height: 192)),
        Case(name: "PerspectiveRotate", parameters: ["inputPitch": 0.25], label: "pitch"),
        Case(
            name: "PerspectiveRotate", parameters: ["inputFocalLength": 50, "inputPitch": -0.1, "inputYaw": 0.3, "inputRoll": 0.2],
            label: "all three"),
        Case(name: "KeystoneCorrectionVertical", parameters: keystoneGuide, label: "converging verticals"),
        Case(name: "KeystoneCorrectionHorizontal", parameters: keystoneGuide, label: "converging horizontals"),
        Case(name: "KeystoneCorrectionCombined", parameters: keystoneGuide, label: "both, and a tilt"),
        Case(
            name: "KeystoneCorrectionCombined", parameters: keystoneGuide.merging(["inputFocalLength": 20]) { $1 }, label: "20 mm"),
        Case(name: "KeystoneCorrectionVertical", parameters: [:], label: "no guide"),
        Case(
            name: "SampleNearest", parameters: [:], label: "then turned",
            then: AffineTransform2D(a: 0.913, b: 0.347, c: -0.347, d: 0.913, tx: 30.3, ty: -20.1)),
        Case(
            name: "SampleNearest", parameters: [:], label: "then enlarged 3.3×", window: Rect(x: 0, y: 0, width: 224, height: 192),
            then: AffineTransform2D(a: 3.3, b: 0, c: 0, d: 3.3, tx: -200, ty: -150)),
        Case(
            name: "SampleNearest", parameters: [:], label: "then shrunk to 0.4", window: Rect(x: 0, y: 0, width: 64, height: 52),
            then: AffineTransform2D(a: 0.4, b: 0, c: 0, d: 0.4, tx: 0, ty: 0)),
        Case(
            name: "PerspectiveTransformWithExtent",
            parameters: [
                "inputExtent": .rect(Rect(x: 20, y: 10, width: 100, height: 80)), "inputTopLeft": [0, 0], "inputTopRight": [130, 15],
                "inputBottomRight": [120, 110], "inputBottomLeft": [10, 95],
            ], label: "sub-rectangle"),
        Case(
            name: "PerspectiveCorrection",
            parameters: [
                "inputTopLeft": [20, 10], "inputTopRight": [140, 20], "inputBottomRight": [150, 110], "inputBottomLeft": [20, 110],
            ],
            label: "uncropped"),
        Case(
            name: "PerspectiveCorrection",
            parameters: [
                "inputTopLeft": [20, 10], "inputTopRight": [140, 20], "inputBottomRight": [150, 110], "inputBottomLeft": [20, 110],
                "inputCrop": true,
            ], label: "cropped"),
        Case(name: "StraightenFilter", parameters: ["inputAngle": 0.2], label: "0.2", window: Rect(x: 0, y: 0, width: 160, height: 128)),
        Case(name: "StraightenFilter", parameters: ["inputAngle": -0.5], label: "-0.5", window: Rect(x: 0, y: 0, width: 160, height: 128)),
        Case(name: "FourfoldTranslatedTile", parameters: skewTile, label: "skewed"),
        Case(name: "ParallelogramTile", parameters: skewTile, label: "skewed"),
        Case(name: "FourfoldReflectedTile", parameters: tile, label: "square"),
        Case(name: "FourfoldRotatedTile", parameters: tile, label: "turned"),
        Case(name: "FourfoldRotatedTile", parameters: tile.merging(["inputAngle": 0]) { $1 }, label: "upright"),
        Case(name: "EightfoldReflectedTile", parameters: tile, label: "turned"),
        Case(name: "GlideReflectedTile", parameters: tile, label: "turned"),
        Case(name: "TriangleTile", parameters: tile, label: "turned"),
        Case(name: "TwelvefoldReflectedTile", parameters: tile, label: "turned"),
        Case(name: "SixfoldRotatedTile", parameters: tile.merging(["inputWidth": 90]) { $1 }, label: "turned, wide"),
        Case(
            name: "AffineTile",
            parameters: ["inputTransform": .transform(AffineTransform2D(a: 0.4, b: 0.1, c: -0.15, d: 0.35, tx: 7.3, ty: -4.1))],
            label: "sheared", edge: "wrap"),
        Case(name: "AffineTile", parameters: [:], label: "defaults", edge: "wrap"),
        Case(
            name: "AffineClamp",
            parameters: ["inputTransform": .transform(AffineTransform2D(a: 0.8, b: 0.3, c: -0.3, d: 0.8, tx: 20, ty: 5))],
            label: "turned", edge: "clamp"),
        Case(name: "Clamp", parameters: ["inputExtent": .rect(Rect(x: 30, y: 20, width: 60, height: 50))], label: "inner rectangle"),
        Case(name: "Kaleidoscope", parameters: ["inputCenter": [80, 60], "inputAngle": 0.4], label: "6 wedges"),
        Case(name: "Kaleidoscope", parameters: ["inputCenter": [70, 70], "inputCount": 3.4], label: "3 wedges"),
        Case(
            name: "PerspectiveTile",
            parameters: [
                "inputTopLeft": [40, 10], "inputTopRight": [90, 12], "inputBottomRight": [110, 60], "inputBottomLeft": [20, 55],
            ],
            label: "receding", edge: "wrap"),
        Case(name: "TwirlDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 55], label: "π"),
        Case(
            name: "TwirlDistortion", parameters: ["inputCenter": [140, 20], "inputRadius": 70, "inputAngle": -2], label: "past the edge"),
        Case(name: "VortexDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 55], label: "defaults"),
        Case(name: "PinchDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 55], label: "0.5"),
        Case(name: "PinchDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 55, "inputScale": 1.5], label: "1.5"),
        Case(name: "BumpDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 55], label: "convex"),
        Case(name: "BumpDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 55, "inputScale": -0.7], label: "concave"),
        Case(name: "HoleDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 25], label: "r 25"),
        Case(name: "CircleSplashDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 35], label: "r 35"),
        Case(
            name: "BumpDistortionLinear", parameters: ["inputCenter": [80, 60], "inputRadius": 40, "inputAngle": 0.3],
            label: "convex, turned"),
        Case(
            name: "BumpDistortionLinear",
            parameters: ["inputCenter": [70, 70], "inputRadius": 50, "inputAngle": -1, "inputScale": -0.8], label: "concave, steep"),
        Case(name: "CircularWrap", parameters: ["inputCenter": [80, 110], "inputRadius": 30], label: "r 30"),
        Case(
            name: "CircularWrap", parameters: ["inputCenter": [70, 120], "inputRadius": 20, "inputAngle": 0.7], label: "r 20, turned"),
        Case(
            name: "StretchCrop", parameters: ["inputSize": [200, 100], "inputCropAmount": 0.5, "inputCenterStretchAmount": 0.25],
            label: "wider", window: Rect(x: -8, y: -8, width: 216, height: 116), edge: "clamp"),
        Case(
            name: "StretchCrop", parameters: ["inputSize": [100, 170], "inputCropAmount": 0.2, "inputCenterStretchAmount": 0.8],
            label: "taller", window: Rect(x: -8, y: -8, width: 116, height: 186), edge: "clamp"),
        Case(name: "LightTunnel", parameters: ["inputCenter": [80, 60], "inputRadius": 40, "inputRotation": 0.4], label: "spiral"),
        Case(name: "LightTunnel", parameters: ["inputCenter": [60, 70], "inputRadius": 25], label: "straight rays"),
        Case(
            name: "TorusLensDistortion", parameters: ["inputCenter": [80, 60], "inputRadius": 40, "inputWidth": 30],
            label: "glass 1.7"),
        Case(
            name: "TorusLensDistortion",
            parameters: ["inputCenter": [80, 60], "inputRadius": 30, "inputWidth": 50, "inputRefraction": 0.7], label: "index 0.7"),
        Case(name: "DisplacementDistortion", parameters: ["inputScale": 20], label: "scale 20", aux: "inputDisplacementImage"),
        Case(name: "DisplacementDistortion", parameters: [:], label: "defaults", aux: "inputDisplacementImage"),
        Case(
            name: "GlassLozenge", parameters: ["inputPoint0": [40, 50], "inputPoint1": [120, 80], "inputRadius": 30],
            label: "glass 1.7"),
        Case(
            name: "GlassLozenge",
            parameters: ["inputPoint0": [80, 60], "inputPoint1": [80, 60], "inputRadius": 40, "inputRefraction": 0.6],
            label: "a disc, index 0.6"),
        Case(name: "GlassDistortion", parameters: ["inputCenter": [70, 50], "inputScale": 30], label: "scale 30", aux: "inputTexture"),
        Case(name: "GlassDistortion", parameters: [:], label: "defaults", aux: "inputTexture"),
        Case(
            name: "Droste", parameters: ["inputInsetPoint0": [50, 40], "inputInsetPoint1": [110, 88]], label: "one strand",
            window: Rect(x: 0, y: 0, width: 160, height: 128)),
        Case(
            name: "Droste",
            parameters: [
                "inputInsetPoint0": [60, 44], "inputInsetPoint1": [100, 76], "inputStrands": 2, "inputPeriodicity": 2, "inputRotation": 0.3,
                "inputZoom": 1.4,
            ], label: "two strands, twice, turned, zoomed"),
        Case(
            name: "Droste", parameters: ["inputInsetPoint0": [40, 32], "inputInsetPoint1": [120, 96], "inputStrands": 0],
            label: "no spiral", window: Rect(x: 0, y: 0, width: 160, height: 128)),
    ]

    @Test("Every case within its tolerance of the independent mapping, in one judge run")
    func matchesIndependentMappings() throws {
        let dir = try TemporaryDirectory()
        let kodim = 23
        let input = try Kodak.image(kodim).cropped(to: Self.crop).transformed(
            by: AffineTransform2D(translationX: -Self.crop.minX, y: -Self.crop.minY))
        let context = try Context(options: .init(workingFormat: .rgbaf, workingColorSpace: nil))
        let aux = try Kodak.image(Self.auxKodim).cropped(to: Self.auxCrop).transformed(
            by: AffineTransform2D(translationX: -Self.auxCrop.minX, y: -Self.auxCrop.minY))
        var manifest: [[String: Any]] = []
        for (i, c) in Self.cases.enumerated() {
            var parameters = c.parameters
            if let key = c.aux { parameters[key] = .image(aux) }
            var out = try input.applyingFilter(c.name, parameters: parameters)
            if let t = c.then { out = out.transformed(by: t) }
            let buffer = try context.createBuffer(out, bounds: c.window, format: .rgbaf, colorSpace: nil)
            let file = dir.path("case\(i).raw")
            try writeTight(buffer, to: file)
            var entry: [String: Any] = [
                "name": c.name, "label": c.label, "ours": file, "edge": c.edge,
                "window": [c.window.minX, c.window.minY, c.window.width, c.window.height],
                "params": try JudgeParameters.all(c.name, c.parameters).mapValues(JudgeParameters.json),
            ]
            if let t = c.then { entry["then"] = [t.a, t.b, t.c, t.d, t.tx, t.ty] }
            if c.aux != nil {
                entry["aux"] = [
                    "input": Kodak.url(Self.auxKodim).path,
                    "crop": [Self.auxCrop.minX, Self.auxCrop.minY, Self.auxCrop.width, Self.auxCrop.height],
                ]
            }
            manifest.append(entry)
        }
        let m: [String: Any] = [
            "input": Kodak.url(kodim).path, "crop": [Self.crop.minX, Self.crop.minY, Self.crop.width, Self.crop.height], "cases": manifest,
        ]
        try JSONSerialization.data(withJSONObject: m).write(to: dir.url.appendingPathComponent("manifest.json"))
        let r = try Judge.python("warp_judge.py", ["--manifest", dir.path("manifest.json")])
        let results = try #require(r["results"] as? [[String: Any]])
        #expect(results.count == Self.cases.count)
        for (c, res) in zip(Self.cases, results) {
            let maxDiff = res["max_abs_diff"] as? Double ?? 999
            let mean = res["mean_abs_diff"] as? Double ?? 999
            let masked = res["masked"] as? Int ?? -1
            let covered = res["nonzero_fraction"] as? Double ?? 0
            print(
                "measured: \(c.name) \(c.label) vs numpy mapping + cv2.remap: max |Δ| \(String(format: "%.3f", maxDiff))/255, mean \(String(format: "%.4f", mean))/255, \(masked) px in the discontinuity band masked, \(String(format: "%.0f", covered * 100))% of the window covered, worst at \(res["worst"] ?? "?") (source \(res["worst_source"] ?? "?"), ours vs judge there \(res["worst_values"] ?? "?"))"
            )
            #expect(mean <= Self.meanTolerance, "\(c.name) \(c.label): mean \(mean) /255")
            if c.then == nil {
                #expect(maxDiff <= Self.maxTolerance, "\(c.name) \(c.label): max \(maxDiff) /255")
            } else {
                // Nearest sampling picks whole pixels: the same ones, but for a neighbour where the
                // point falls within float rounding of a pixel's edge.
                let exact = res["exact_fraction"] as? Double ?? 0
                print("measured: \(c.name) \(c.label): \(String(format: "%.4f", exact * 100))% of pixels exactly the judge's")
                #expect(exact >= 0.999, "\(c.name) \(c.label): \(res)")
            }
            // A judge that sees nothing proves nothing.
            #expect(covered > 0.2, "\(c.name) \(c.label): only \(covered) of the window is covered")
        }
    }

    @Test("A keystone guide given in part, or one that is no quadrilateral, is a typed error naming a corner")
    func keystoneGuidesRefused() throws {
        let input = try Kodak.image(23).cropped(to: Self.crop)
        var partial = KeystoneCorrectionCombined(inputImage: input, topLeft: [10, 10], topRight: [100, 12], bottomRight: [110, 90])
        #expect {
            _ = try partial.outputImage()
        } throws: { error in
            guard case .invalidParameter(_, let key, let problem)? = error as? DaguerreError else { return false }
            return key == "inputBottomLeft" && problem.contains("all four corners")
        }
        partial.bottomLeft = [10, 10]  // the same as the top-left: the left edge has no direction
        #expect {
            _ = try partial.outputImage()
        } throws: { error in
            guard case .invalidParameter(_, let key, _)? = error as? DaguerreError else { return false }
            return key == "inputTopLeft"
        }
        // The turn itself: verticals leaning in symmetrically about the centre need a pitch alone.
        let e = input.extent
        let (cx, top, bottom) = (e.midX, e.minY + 10, e.maxY - 10)
        let turn = try KeystoneCorrectionVertical(
            inputImage: input, topLeft: [cx - 40, top], topRight: [cx + 40, top], bottomRight: [cx + 60, bottom],
            bottomLeft: [cx - 60, bottom]
        ).rotationFilter()
        #expect(turn.pitch > 0.05 && turn.yaw == 0 && turn.roll == 0, "\(turn.pitch)")
    }
}
