import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Core Image's spatial filters (SPEC I4): convolutions, blurs, reductions and stylize filters,
/// each judged in one Python run (Tests/judges/spatial_judge.py) against OpenCV (filter2D,
/// medianBlur), scipy's bilinear sampling or numpy (max, mean, histogram) applied to the same
/// input. Inputs and outputs are float32 working-space values (linear light, premultiplied), so
/// the comparison sees the filter alone, not colour management or 8-bit rounding.
@Suite("Spatial filters against OpenCV, scipy and numpy")
struct SpatialFilterTests {
    /// One filter application, its judge operation, and the largest difference allowed.
    struct Case {
        let name: String
        let parameters: [String: FilterValue]
        let op: String
        let judge: [String: Any]
        let tolerance: Double
        /// 0: an opaque Kodak crop; 1: another with varying alpha (premultiplied).
        var input = 0
    }

    static let size = (w: 96, h: 80)

    static func cases() -> [Case] {
        let sharpen: [Double] = [0, -1, 0, -1, 5, -1, 0, -1, 0]
        let ramp5 = (0..<25).map { Double($0 % 7) / 20 - 0.1 }
        let ramp7 = (0..<49).map { Double(($0 * 5) % 11) / 40 - 0.05 }
        let row9: [Double] = [0.05, 0.1, 0.1, 0.15, 0.2, 0.15, 0.1, 0.1, 0.05]
        let skew9: [Double] = [-0.2, 0, 0.1, 0.3, 0.5, 0.2, 0, 0, 0.1]
        let region: [Int] = [7, 5, 70, 60]
        let regionRect = FilterValue.rect(Rect(x: 7, y: 5, width: 70, height: 60))
        func conv(_ name: String, _ w: [Double], _ kw: Int, _ kh: Int, bias: Double = 0) -> Case {
            Case(
                name: name, parameters: ["inputWeights": .vector(w), "inputBias": .number(bias)], op: "conv",
                judge: ["weights": w, "kw": kw, "kh": kh, "bias": bias], tolerance: 1e-5)
        }
        return [
            conv("Convolution3X3", sharpen, 3, 3),
            conv("Convolution3X3", [0.1, 0.2, -0.3, 0, 0.4, 0.1, 0.3, 0, 0.2], 3, 3, bias: 0.05),
            conv("Convolution5X5", ramp5, 5, 5),
            conv("Convolution7X7", ramp7, 7, 7, bias: -0.02),
            conv("Convolution9Horizontal", row9, 9, 1),
            conv("Convolution9Horizontal", skew9, 9, 1, bias: 0.1),
            conv("Convolution9Vertical", skew9, 1, 9),
            Case(name: "MedianFilter", parameters: [:], op: "median", judge: [:], tolerance: 0),
            Case(name: "DiscBlur", parameters: ["inputRadius": 3], op: "disc", judge: ["radius": 3.0], tolerance: 1e-5),
            Case(name: "DiscBlur", parameters: ["inputRadius": 5.5], op: "disc", judge: ["radius": 5.5], tolerance: 1e-5),
            Case(name: "MotionBlur", parameters: ["inputRadius": 6], op: "motion", judge: ["radius": 6.0, "angle": 0.0], tolerance: 1e-5),
            Case(
                name: "MotionBlur", parameters: ["inputRadius": 7.5, "inputAngle": 0.6], op: "motion",
                judge: ["radius": 7.5, "angle": 0.6], tolerance: 1e-4),
            Case(
                name: "ZoomBlur", parameters: ["inputCenter": .vector([40, 30]), "inputAmount": 12], op: "zoom",
                judge: ["center": [40.0, 30.0], "amount": 12.0], tolerance: 1e-4),
            Case(name: "AreaMaximum", parameters: ["inputExtent": regionRect], op: "amax", judge: ["region": region], tolerance: 0),
            Case(name: "AreaMinimum", parameters: ["inputExtent": regionRect], op: "amin", judge: ["region": region], tolerance: 0),
            Case(
                name: "AreaMaximumAlpha", parameters: ["inputExtent": regionRect], op: "amaxalpha", judge: ["region": region],
                tolerance: 0, input: 1),
            Case(
                name: "AreaMinimumAlpha", parameters: ["inputExtent": regionRect], op: "aminalpha", judge: ["region": region],
                tolerance: 0, input: 1),
            Case(name: "RowAverage", parameters: ["inputExtent": regionRect], op: "rowavg", judge: ["region": region], tolerance: 1e-6),
            Case(
                name: "ColumnAverage", parameters: ["inputExtent": regionRect], op: "colavg", judge: ["region": region], tolerance: 1e-6,
                input: 1),
            Case(
                name: "AreaHistogram", parameters: ["inputExtent": regionRect], op: "hist",
                judge: ["region": region, "bins": 64, "scale": 1.0], tolerance: 1e-6),
            Case(
                name: "AreaHistogram", parameters: ["inputExtent": regionRect, "inputCount": 100, "inputScale": 3], op: "hist",
                judge: ["region": region, "bins": 100, "scale": 3.0], tolerance: 3.0 / 4200 + 1e-6, input: 1),
        ]
    }

    /// A Kodak crop as working-space floats at the origin; `alpha` multiplies it by a pattern of
    /// eleven alpha levels (so equal alphas occur, for the alpha extremes' tie rule).
    static func makeInput(kodim: Int, at origin: (Int, Int), alpha: Bool) throws -> PixelBuffer {
        let crop = Rect(x: Double(origin.0), y: Double(origin.1), width: Double(size.w), height: Double(size.h))
        var b = try Contexts.float().createBuffer(
            try Kodak.image(kodim), bounds: crop, format: .rgbaf, colorSpace: .extendedLinearSRGB)
        guard alpha else { return b }
        let bpr = b.bytesPerRow
        b.withUnsafeMutableBytes { raw in
            for y in 0..<size.h {
                for x in 0..<size.w {
                    let a = Float((x * 7 + y * 3) % 11) / 10
                    let p = raw.load(fromByteOffset: y * bpr + x * 16, as: SIMD4<Float>.self)
                    raw.storeBytes(of: SIMD4(p.x * a, p.y * a, p.z * a, a), toByteOffset: y * bpr + x * 16, as: SIMD4<Float>.self)
                }
            }
        }
        return b
    }

    @Test("Each filter matches its reference, judged in one run")
    func matchReferences() throws {
        let dir = try TemporaryDirectory()
        let buffers = [
            try Self.makeInput(kodim: 23, at: (300, 120), alpha: false), try Self.makeInput(kodim: 3, at: (200, 200), alpha: true),
        ]
        for (i, b) in buffers.enumerated() { try writeTight(b, to: dir.path("input\(i).f32")) }
        let inputs = buffers.map { Image(buffer: $0, colorSpace: .extendedLinearSRGB) }
        let context = try Contexts.float()
        let cases = Self.cases()
        var manifest: [[String: Any]] = []
        for (i, c) in cases.enumerated() {
            let input = inputs[c.input]
            let out = try input.applyingFilter(c.name, parameters: c.parameters)
            // Spatial filters are compared over the input's extent; reductions over their own.
            let bounds = c.op.hasPrefix("a") || c.op.hasSuffix("avg") || c.op == "hist" ? out.extent : input.extent
            let buffer = try context.createBuffer(out, bounds: bounds, format: .rgbaf, colorSpace: .extendedLinearSRGB)
            try writeTight(buffer, to: dir.path("out\(i).f32"))
            manifest.append([
                "id": i, "op": c.op, "params": c.judge, "input": dir.path("input\(c.input).f32"), "w": Self.size.w, "h": Self.size.h,
                "out": dir.path("out\(i).f32"), "ow": buffer.width, "oh": buffer.height, "ox": 0, "oy": 0,
            ])
        }
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: dir.path("manifest.json")))
        let r = try Judge.python("spatial_judge.py", [dir.path("manifest.json")])
        let results = try #require(r["cases"] as? [[String: Any]])
        #expect(results.count == cases.count)
        for (res, c) in zip(results, cases) {
            let maxDiff = res["max_abs_diff"] as? Double ?? .infinity
            print(
                "measured: \(c.name) \(c.op) \(c.judge.keys.contains("weights") ? "" : "\(c.judge) ")vs reference: max |Δ| \(maxDiff), mean \(res["mean_abs_diff"] ?? "?"), tolerance \(c.tolerance)\(res["error"].map { " error \($0)" } ?? "")"
            )
            #expect(maxDiff <= c.tolerance, "\(c.name) \(c.op): max |ours − reference| = \(maxDiff) > \(c.tolerance)")
        }
    }
}
