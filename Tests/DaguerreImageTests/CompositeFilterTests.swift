import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Core Image's CompositeOperation filters (SPEC I4) against W3C Compositing and Blending
/// Level 1's formulas computed independently in numpy (composite_judge.py), and the
/// BlendWith…Mask filters against their mix: Kodak crops with partly transparent alpha that
/// overlap in part, every filter judged in one Python run, within
/// 1/255 on 8-bit sRGB (the result over black, its alpha, and its straight colour where it is at
/// least half opaque).
@Suite("Compositing against W3C's formulas")
struct CompositeFilterTests {
    static let names = [
        "AdditionCompositing", "ColorBlendMode", "ColorBurnBlendMode", "ColorDodgeBlendMode", "DarkenBlendMode",
        "DifferenceBlendMode", "DivideBlendMode", "ExclusionBlendMode", "HardLightBlendMode", "HueBlendMode",
        "LightenBlendMode", "LinearBurnBlendMode", "LinearDodgeBlendMode", "LuminosityBlendMode", "MaximumCompositing",
        "MinimumCompositing", "MultiplyBlendMode", "MultiplyCompositing", "OverlayBlendMode", "PinLightBlendMode",
        "SaturationBlendMode", "ScreenBlendMode", "SoftLightBlendMode", "SourceAtopCompositing", "SourceInCompositing",
        "SourceOutCompositing", "SourceOverCompositing", "SubtractBlendMode", "LinearLightBlendMode", "VividLightBlendMode",
        "BlendWithMask", "BlendWithAlphaMask",
    ]

    /// A Kodak crop in extended linear sRGB, given an alpha pattern (premultiplied), placed at
    /// `origin`; the buffer is what the judge reads.
    static func layer(_ kodim: Int, crop: Rect, at origin: (Int, Int), alpha: (Int, Int) -> Float) throws -> (Image, PixelBuffer) {
        var buffer = try Context().createBuffer(Kodak.image(kodim), bounds: crop, format: .rgbaf, colorSpace: .extendedLinearSRGB)
        let (w, h, bpr) = (buffer.width, buffer.height, buffer.bytesPerRow)
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<h {
                let row = (raw.baseAddress! + y * bpr).assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<w {
                    let a = alpha(x, y)
                    let p = row[x]
                    row[x] = SIMD4(p.x * a, p.y * a, p.z * a, a)
                }
            }
        }
        let image = Image(buffer: buffer, colorSpace: .extendedLinearSRGB)
            .transformed(by: AffineTransform2D(translationX: Double(origin.0), y: Double(origin.1)))
        return (image, buffer)
    }

    @Test("Every blend mode and compositing operator matches W3C's formula within 1/255")
    func matchW3C() throws {
        let dir = try TemporaryDirectory()
        // Source: kodim19, alpha 0 in its first 8 columns, then a ramp to 1 at column 88, with a
        // fully transparent stripe; background: kodim23, alpha falling from 1 to 0 down the rows.
        let (source, sourceBuffer) = try Self.layer(19, crop: Rect(x: 300, y: 200, width: 112, height: 112), at: (40, 24)) { x, y in
            if (y / 16) % 4 == 3 { return 0 }
            return min(1, max(0, Float(x - 8) / 80))
        }
        let (background, backgroundBuffer) = try Self.layer(23, crop: Rect(x: 250, y: 150, width: 128, height: 128), at: (0, 0)) { _, y in
            min(1, max(0, 1.2 - Float(y) / 100))
        }
        // Mask (for BlendWith…Mask): kodim3, its alpha rising across the columns.
        let (mask, maskBuffer) = try Self.layer(3, crop: Rect(x: 100, y: 100, width: 120, height: 120), at: (16, 8)) { x, _ in
            min(1, Float(x) / 60)
        }
        try writeTight(maskBuffer, to: dir.path("mask.f32"))
        try writeTight(sourceBuffer, to: dir.path("source.f32"))
        try writeTight(backgroundBuffer, to: dir.path("background.f32"))
        let union = Rect(x: 0, y: 0, width: 152, height: 136)
        let expectedExtent: [String: Rect] = [
            "SourceInCompositing": Rect(x: 40, y: 24, width: 88, height: 104),
            "MultiplyCompositing": Rect(x: 40, y: 24, width: 88, height: 104),
            "SourceOutCompositing": source.extent, "SourceAtopCompositing": background.extent,
            // the background united with the source where the mask is (40…136 × 24…128)
            "BlendWithMask": Rect(x: 0, y: 0, width: 136, height: 128),
            "BlendWithAlphaMask": Rect(x: 0, y: 0, width: 136, height: 128),
        ]
        let context = try Context()
        var cases: [[String: String]] = []
        for name in Self.names {
            var parameters: [String: FilterValue] = ["inputBackgroundImage": .image(background)]
            if name.hasPrefix("BlendWith") { parameters["inputMaskImage"] = .image(mask) }
            let out = try source.applyingFilter(name, parameters: parameters)
            #expect(out.extent == expectedExtent[name] ?? union, "\(name): extent \(out.extent)")
            let file = "\(name).f32"
            try writeTight(
                try context.createBuffer(out, bounds: union, format: .rgbaf, colorSpace: .extendedLinearSRGB), to: dir.path(file))
            cases.append(["name": name, "file": file])
        }
        func place(_ file: String, _ image: Image) -> [String: Any] {
            [
                "file": file, "x": Int(image.extent.minX), "y": Int(image.extent.minY), "w": Int(image.extent.width),
                "h": Int(image.extent.height),
            ]
        }
        let manifest: [String: Any] = [
            "width": 152, "height": 136, "source": place("source.f32", source), "background": place("background.f32", background),
            "mask": place("mask.f32", mask),
            "cases": cases,
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: dir.url.appendingPathComponent("manifest.json"))
        let r = try Judge.python("composite_judge.py", ["--dir", dir.path("")])
        let results = r["results"] as? [[String: Any]] ?? []
        #expect(results.count == Self.names.count)
        for result in results {
            let name = result["name"] as? String ?? "?"
            let maxDiff = result["max_abs_diff"] as? Int ?? 99
            print(
                "measured: \(name) vs W3C formula in numpy: max |Δ| \(maxDiff)/255 (straight colour \(result["straight_max_abs_diff"] ?? "?"), alpha \(result["alpha_max_abs_diff"] ?? "?")), mean \(result["mean_abs_diff"] ?? "?")"
            )
            #expect(maxDiff <= 1, "\(name): max |ours − W3C| = \(maxDiff)/255")
        }
    }
}
