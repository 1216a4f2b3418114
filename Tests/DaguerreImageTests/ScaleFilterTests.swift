import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// BicubicScaleTransform and MaximumScaleTransform (SPEC I4) on a 96×80 Kodak crop in float32
/// working-space values, judged in one Python run (scale_judge.py): the bicubic against a
/// resampler written in numpy from its doc comment, and for B 0, C 0.5 against Pillow's BICUBIC
/// on the pixels whose taps all fall inside the image (Pillow renormalises at the edges), within
/// 1e-5; the maximum against the largest value over each output pixel's input rectangle,
/// exactly.
@Suite("Scale filters against numpy and Pillow")
struct ScaleFilterTests {
    typealias Case = (filter: String, op: String, scale: Double, aspect: Double, b: Double, c: Double, tolerance: Double)

    static let cases: [Case] = [
        ("BicubicScaleTransform", "bicubic", 0.5, 1, 0, 0.75, 1e-5),
        ("BicubicScaleTransform", "bicubic", 1.6, 0.8, 0, 0.75, 1e-5),
        ("BicubicScaleTransform", "bicubic", 0.37, 1.3, 1.0 / 3, 1.0 / 3, 1e-5),
        ("BicubicScaleTransform", "pillow", 0.5, 1, 0, 0.5, 1e-5),
        ("BicubicScaleTransform", "pillow", 2, 1, 0, 0.5, 1e-5),
        ("MaximumScaleTransform", "maximum", 0.25, 1, 0, 0, 0),
        ("MaximumScaleTransform", "maximum", 0.3, 1.5, 0, 0, 0),
        ("MaximumScaleTransform", "maximum", 2.5, 1, 0, 0, 0),
    ]

    @Test("Each matches its reference within its stated tolerance")
    func matchReferences() throws {
        let dir = try TemporaryDirectory()
        let input = try Context().createBuffer(
            Kodak.image(19), bounds: Rect(x: 300, y: 200, width: 96, height: 80), format: .rgbaf, colorSpace: .extendedLinearSRGB)
        try writeTight(input, to: dir.path("input.f32"))
        let image = Image(buffer: input, colorSpace: .extendedLinearSRGB)
        var manifest: [[String: Any]] = []
        for (i, c) in Self.cases.enumerated() {
            var parameters: [String: FilterValue] = ["inputScale": .number(c.scale), "inputAspectRatio": .number(c.aspect)]
            if c.filter == "BicubicScaleTransform" {
                parameters["inputB"] = .number(c.b)
                parameters["inputC"] = .number(c.c)
            }
            let out = try image.applyingFilter(c.filter, parameters: parameters)
            let buffer = try Contexts.float().createBuffer(
                out, bounds: Rect(out.extent.integral), format: .rgbaf, colorSpace: .extendedLinearSRGB)
            try writeTight(buffer, to: dir.path("\(i).f32"))
            manifest.append([
                "id": i, "op": c.op, "params": ["scale": c.scale, "aspect": c.aspect, "b": c.b, "c": c.c], "file": "\(i).f32",
                "w": buffer.width, "h": buffer.height,
            ])
        }
        let json: [String: Any] = ["width": 96, "height": 80, "input": "input.f32", "cases": manifest]
        try JSONSerialization.data(withJSONObject: json).write(to: dir.url.appendingPathComponent("manifest.json"))
        let results = try Judge.python("scale_judge.py", ["--dir", dir.path("")])["results"] as? [[String: Any]] ?? []
        #expect(results.count == Self.cases.count)
        for result in results {
            let c = Self.cases[result["id"] as? Int ?? 0]
            let maxDiff = result["max_abs_diff"] as? Double ?? 99
            print(
                "measured: \(c.filter) \(c.op) scale \(c.scale) aspect \(c.aspect) B \(c.b) C \(c.c): max |Δ| \(maxDiff), mean \(result["mean_abs_diff"] ?? "?") over \(result["pixels"] ?? "?") pixels"
            )
            #expect(maxDiff <= c.tolerance, "\(c.filter) \(c.op) scale \(c.scale): max |ours − reference| = \(maxDiff)")
        }
    }
}
