import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// CannyEdgeDetector (SPEC I4) on a 160×128 Kodak crop: against its documented definition,
/// computed with OpenCV and numpy (canny_judge.py), at most 0.5 % of pixels may differ (float32
/// against float64 at the direction sectors' borders and the thresholds, which the bounded
/// hysteresis can spread by a pixel); and against scikit-image's canny (its own smoothing and a
/// full hysteresis), a Dice coefficient of at least 0.75 with a pixel's slack (measured 0.77 with
/// no hysteresis pass, where scikit-image's full one joins more weak edges, and 0.81 to 0.93
/// with one to six passes). Every case must
/// find edges on at least 2 % of the pixels and no more than 30 %.
@Suite("Canny edges against their definition and scikit-image")
struct CannyEdgeTests {
    typealias Case = (sigma: Double, low: Double, high: Double, passes: Int, perceptual: Bool)

    static let cases: [Case] = [
        (1.6, 0.02, 0.05, 1, false), (1.6, 0.02, 0.05, 6, false), (2.5, 0.01, 0.03, 3, true), (1.0, 0.03, 0.08, 0, false),
    ]

    @Test("Canny matches its definition and agrees with scikit-image")
    func matchesReferences() throws {
        let dir = try TemporaryDirectory()
        let (w, h) = (160, 128)
        let input = try Context().createBuffer(
            Kodak.image(19), bounds: Rect(x: 300, y: 200, width: Double(w), height: Double(h)), format: .rgbaf,
            colorSpace: .extendedLinearSRGB)
        try writeTight(input, to: dir.path("input.f32"))
        let image = Image(buffer: input, colorSpace: .extendedLinearSRGB)
        var manifest: [[String: Any]] = []
        for (i, c) in Self.cases.enumerated() {
            let out = try image.applyingFilter(
                "CannyEdgeDetector",
                parameters: [
                    "inputGaussianSigma": .number(c.sigma), "inputThresholdLow": .number(c.low), "inputThresholdHigh": .number(c.high),
                    "inputHysteresisPasses": .number(Double(c.passes)), "inputPerceptual": .bool(c.perceptual),
                ])
            let buffer = try Contexts.float().createBuffer(out, bounds: image.extent, format: .rgbaf, colorSpace: .extendedLinearSRGB)
            try writeTight(buffer, to: dir.path("\(i).f32"))
            manifest.append([
                "id": i, "file": "\(i).f32",
                "params": ["sigma": c.sigma, "low": c.low, "high": c.high, "passes": c.passes, "perceptual": c.perceptual],
            ])
        }
        let json: [String: Any] = ["width": w, "height": h, "input": "input.f32", "cases": manifest]
        try JSONSerialization.data(withJSONObject: json).write(to: dir.url.appendingPathComponent("manifest.json"))
        let results = try Judge.python("canny_judge.py", ["--dir", dir.path("")])["results"] as? [[String: Any]] ?? []
        #expect(results.count == Self.cases.count)
        for result in results {
            let c = Self.cases[result["id"] as? Int ?? 0]
            let differing = result["differing"] as? Double ?? 1
            let edges = result["edge_fraction"] as? Double ?? 0
            let dice = result["skimage_dice"] as? Double ?? 0
            print(
                "measured: Canny \(c): \(differing * 100) % of pixels differ from the definition, edges \(edges * 100) %, Dice with scikit-image \(dice)"
            )
            #expect(differing <= 0.005, "Canny \(c): \(differing * 100) % of pixels differ from the definition")
            #expect(edges >= 0.02 && edges <= 0.3, "Canny \(c): edges on \(edges * 100) % of the pixels")
            #expect(dice >= 0.75, "Canny \(c): Dice \(dice) with scikit-image's edges")
        }
    }
}
