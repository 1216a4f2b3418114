import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// BicubicScaleTransform and MaximumScaleTransform (SPEC I4) on a 96×80 Kodak crop in float32
/// working-space values, judged in one Python run (scale_judge.py): the bicubic against a
/// resampler written in numpy from its doc comment, and for B 0, C 0.5 against Pillow's BICUBIC
/// on the pixels whose taps all fall inside the image (Pillow renormalises at the edges), within
/// 1e-5; the maximum against the largest value over each output pixel's input rectangle,
/// exactly; GuidedFilter against He's guided filter in numpy and scipy, within 1e-4 (its
/// variances are differences of float32 means), rendered in float and in the default working
/// format.
@Suite("Scale filters and the guided filter against numpy, scipy and Pillow")
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

    /// (radius, epsilon, whether the image is the top-left quarter, upsampled, working format)
    static let guidedCases: [(Double, Double, Bool, Bool)] = [
        (1, 1e-4, false, true), (4, 1e-3, false, true), (2, 0.01, true, true), (4, 1e-3, false, false),
    ]

    @Test("GuidedFilter matches He's guided filter in numpy within 1e-4")
    func guidedFilterMatches() throws {
        let dir = try TemporaryDirectory()
        let bounds = Rect(x: 0, y: 0, width: 96, height: 80)
        let input = try Context().createBuffer(
            Kodak.image(19), bounds: Rect(x: 300, y: 200, width: 96, height: 80), format: .rgbaf, colorSpace: .extendedLinearSRGB)
        let guide = try Context().createBuffer(
            Kodak.image(23), bounds: Rect(x: 250, y: 150, width: 96, height: 80), format: .rgbaf, colorSpace: .extendedLinearSRGB)
        try writeTight(input, to: dir.path("input.f32"))
        try writeTight(guide, to: dir.path("guide.f32"))
        let image = Image(buffer: input, colorSpace: .extendedLinearSRGB)
        let guideImage = Image(buffer: guide, colorSpace: .extendedLinearSRGB)
        var manifest: [[String: Any]] = []
        for (i, (radius, epsilon, upsample, float)) in Self.guidedCases.enumerated() {
            let source = upsample ? image.cropped(to: Rect(x: 0, y: 0, width: 48, height: 40)) : image
            let out = try source.applyingFilter(
                "GuidedFilter",
                parameters: ["inputGuideImage": .image(guideImage), "inputRadius": .number(radius), "inputEpsilon": .number(epsilon)])
            #expect(out.extent == bounds, "GuidedFilter extent \(out.extent)")
            let context = float ? try Contexts.float() : try Context()
            try writeTight(
                context.createBuffer(out, bounds: bounds, format: .rgbaf, colorSpace: .extendedLinearSRGB), to: dir.path("\(i).f32"))
            manifest.append([
                "id": i, "op": "guided", "params": ["radius": radius, "epsilon": epsilon, "upsample": upsample], "file": "\(i).f32",
                "w": 96, "h": 80,
            ])
        }
        let json: [String: Any] = ["width": 96, "height": 80, "input": "input.f32", "guide": "guide.f32", "cases": manifest]
        try JSONSerialization.data(withJSONObject: json).write(to: dir.url.appendingPathComponent("manifest.json"))
        let results = try Judge.python("scale_judge.py", ["--dir", dir.path("")])["results"] as? [[String: Any]] ?? []
        #expect(results.count == Self.guidedCases.count)
        for result in results {
            let (radius, epsilon, upsample, float) = Self.guidedCases[result["id"] as? Int ?? 0]
            let maxDiff = result["max_abs_diff"] as? Double ?? 99
            print(
                "measured: GuidedFilter radius \(radius) ε \(epsilon) upsampled \(upsample) \(float ? "float" : "default format"): max |Δ| \(maxDiff), mean \(result["mean_abs_diff"] ?? "?")"
            )
            #expect(maxDiff <= 1e-4, "GuidedFilter radius \(radius) ε \(epsilon): max |ours − numpy| = \(maxDiff)")
        }
    }

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
