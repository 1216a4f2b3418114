import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// OpTile, SixfoldReflectedTile and TriangleKaleidoscope (SPEC I4; Core Image's TileEffect):
/// each mapping (and the kaleidoscope's fade) is implemented again in numpy from its doc
/// comment's definition, with its own fold (reflection in the triangle's sides, no lattice
/// translation), and sampled with OpenCV's bilinear cv2.remap; all cases in one judge run.
/// Colour management is off and the working format is 32-bit float, so both sides interpolate
/// the same numbers. OpenCV quantizes bilinear weights to 1/32 of a pixel, so single pixels on
/// hard edges may differ by a few /255; the mean may not.
@Suite("Tile filters against numpy mappings and OpenCV remap")
struct TileFilterTests {
    struct Case {
        var name: String
        var parameters: [String: FilterValue]
        var label: String
        var window = Rect(x: -32, y: -32, width: 224, height: 192)
    }

    /// The tolerance on the mean over the judged pixels, and on the largest single difference,
    /// in 1/255.
    static let meanTolerance = 0.5
    static let maxTolerance = 8.0

    static let crop = Rect(x: 300, y: 200, width: 160, height: 128)

    static let cases: [Case] = [
        Case(name: "OpTile", parameters: ["inputCenter": [60, 50], "inputAngle": 0.3, "inputWidth": 40], label: "default scale, turned"),
        Case(
            name: "OpTile", parameters: ["inputCenter": [10, 20], "inputAngle": -0.5, "inputWidth": 30, "inputScale": 0.4],
            label: "shrinking"),
        Case(
            name: "SixfoldReflectedTile", parameters: ["inputCenter": [60, 50], "inputAngle": 0.3, "inputWidth": 40], label: "turned"),
        Case(
            name: "SixfoldReflectedTile", parameters: ["inputCenter": [80, 64], "inputAngle": 0, "inputWidth": 70], label: "upright"),
        Case(
            name: "TriangleKaleidoscope",
            parameters: ["inputPoint": [80, 64], "inputSize": 60, "inputRotation": 0.4, "inputDecay": 0.85], label: "small"),
        Case(
            name: "TriangleKaleidoscope", parameters: ["inputPoint": [70, 60], "inputSize": 110, "inputDecay": 0.6],
            label: "default rotation"),
    ]

    @Test("Every case within its tolerance of the independent mapping, in one judge run")
    func matchesIndependentMappings() throws {
        let dir = try TemporaryDirectory()
        let kodim = 23
        let input = try Kodak.image(kodim).cropped(to: Self.crop).transformed(
            by: AffineTransform2D(translationX: -Self.crop.minX, y: -Self.crop.minY))
        let context = try Context(options: .init(workingFormat: .rgbaf, workingColorSpace: nil))
        var manifest: [[String: Any]] = []
        for (i, c) in Self.cases.enumerated() {
            let out = try input.applyingFilter(c.name, parameters: c.parameters)
            let buffer = try context.createBuffer(out, bounds: c.window, format: .rgbaf, colorSpace: nil)
            let file = dir.path("case\(i).raw")
            try writeTight(buffer, to: file)
            manifest.append([
                "name": c.name, "label": c.label, "ours": file,
                "window": [c.window.minX, c.window.minY, c.window.width, c.window.height],
                "params": try JudgeParameters.all(c.name, c.parameters).mapValues(JudgeParameters.json),
            ])
        }
        let m: [String: Any] = [
            "input": Kodak.url(kodim).path, "crop": [Self.crop.minX, Self.crop.minY, Self.crop.width, Self.crop.height], "cases": manifest,
        ]
        try JSONSerialization.data(withJSONObject: m).write(to: dir.url.appendingPathComponent("manifest.json"))
        let r = try Judge.python("tile_judge.py", ["--manifest", dir.path("manifest.json")])
        let results = try #require(r["results"] as? [[String: Any]])
        #expect(results.count == Self.cases.count)
        for (c, res) in zip(Self.cases, results) {
            let maxDiff = res["max_abs_diff"] as? Double ?? 999
            let mean = res["mean_abs_diff"] as? Double ?? 999
            let masked = res["masked"] as? Int ?? -1
            let pixels = res["pixels"] as? Int ?? 1
            let covered = res["nonzero_fraction"] as? Double ?? 0
            print(
                "measured: \(c.name) \(c.label) vs numpy mapping + cv2.remap: max |Δ| \(String(format: "%.3f", maxDiff))/255, mean \(String(format: "%.4f", mean))/255, \(masked) of \(pixels) px in the discontinuity band masked, \(String(format: "%.0f", covered * 100))% of the window covered, worst at \(res["worst"] ?? "?") (source \(res["worst_source"] ?? "?"))"
            )
            #expect(mean <= Self.meanTolerance && maxDiff <= Self.maxTolerance, "\(c.name) \(c.label): max \(maxDiff), mean \(mean) /255")
            // A judge that sees nothing, or only seams, proves nothing.
            #expect(covered > 0.2, "\(c.name) \(c.label): only \(covered) of the window is covered")
            #expect(Double(masked) < 0.5 * Double(pixels), "\(c.name) \(c.label): \(masked) of \(pixels) px masked")
        }
    }

    @Test("The kaleidoscope fades by the decay at every mirror line crossed")
    func kaleidoscopeFades() throws {
        // A flat grey input: the central triangle keeps it, the next ring is decay times it.
        let grey = Image(color: Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)).cropped(to: Rect(x: 0, y: 0, width: 200, height: 200))
        let out = try grey.applyingFilter(
            "TriangleKaleidoscope", parameters: ["inputPoint": [100, 100], "inputSize": 60, "inputRotation": 0, "inputDecay": 0.5])
        let context = try Context(options: .init(workingFormat: .rgbaf, workingColorSpace: nil))
        // Centroid at (100, 100); with no rotation the first side runs along x at
        // y = 100 − 10√3 ≈ 82.7 (the third corner lies below it: y grows down), so (100, 80)
        // lies one mirror line away and (100, 20) several.
        let centre = try context.createBuffer(out, bounds: Rect(x: 100, y: 100, width: 1, height: 1), format: .rgbaf, colorSpace: nil)
        let across = try context.createBuffer(out, bounds: Rect(x: 100, y: 80, width: 1, height: 1), format: .rgbaf, colorSpace: nil)
        let twice = try context.createBuffer(out, bounds: Rect(x: 100, y: 20, width: 1, height: 1), format: .rgbaf, colorSpace: nil)
        let (c, a, t) = (pixelF(centre, 0, 0), pixelF(across, 0, 0), pixelF(twice, 0, 0))
        print("measured: TriangleKaleidoscope flat grey: centre \(c), one mirror away \(a), further \(t)")
        #expect(c.x > 0.1 && abs(c.w - 1) < 1e-6)
        #expect(abs(a.x - 0.5 * c.x) < 1e-5 && abs(a.w - 1) < 1e-6)
        #expect(t.x < a.x && t.x > 0)
    }
}
