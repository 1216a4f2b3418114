import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Core Image's point-wise colour effects (SPEC I4): each matches its formula computed
/// independently by numpy on linear light with colour-science's sRGB curves, within 1/255 on
/// 8-bit output through the default colour-managed context.
@Suite("Colour effects against their formulas")
struct ColorEffectFilterTests {
    static let cases: [(String, [String: FilterValue], String)] = [
        ("ColorInvert", [:], "invert"),
        ("MaximumComponent", [:], "max"),
        ("MinimumComponent", [:], "min"),
        ("ColorPosterize", [:], "posterize:6"),
        ("ColorPosterize", ["inputLevels": 3], "posterize:3"),
        ("ColorMonochrome", [:], "monochrome:0.6,0.45,0.3,1"),
        (
            "ColorMonochrome", ["inputColor": .color(Color(red: 0.2, green: 0.5, blue: 0.9)), "inputIntensity": 0.5],
            "monochrome:0.2,0.5,0.9,0.5"
        ),
    ]

    @Test(arguments: cases.indices)
    func matchesItsFormula(index: Int) throws {
        let (name, parameters, op) = Self.cases[index]
        let kodim = [3, 13, 19, 23][index % 4]
        let dir = try TemporaryDirectory()
        let out = try Kodak.image(kodim).applyingFilter(name, parameters: parameters)
        try writeTight(try Context().createBuffer(out, format: .rgb8, colorSpace: .sRGB), to: dir.path("ours.rgb"))
        let r = try Judge.python(
            "engine_judge.py", ["pointwise", "--input", Kodak.url(kodim).path, "--ours", dir.path("ours.rgb"), "--op", op])
        let maxDiff = r["max_abs_diff"] as? Int ?? 99
        print("measured: \(name) \(op) vs numpy, kodim\(kodim): max |Δ| \(maxDiff)/255, mean \(r["mean_abs_diff"] ?? "?")")
        #expect(maxDiff <= 1, "\(name) \(op), kodim\(kodim): max |ours − formula| = \(maxDiff)/255")
    }
}
