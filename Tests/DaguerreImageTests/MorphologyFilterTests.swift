import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// The morphology filters (SPEC I4) against OpenCV's `dilate`, `erode` and `morphologyEx`, with
/// the structuring element built by the judge from its definition: a Kodak crop rendered without
/// colour management (the encoded values, as OpenCV sees them), plus one dilation through the
/// default colour-managed context (a maximum commutes with the sRGB curve, so it must agree
/// too). Tolerance 1/255 (a maximum or minimum is exact; only the 8-bit round trip may differ).
@Suite struct MorphologyFilterTests {
    struct Case: Sendable {
        let name: String
        let parameters: [String: FilterValue]
        let op: String
        let shape: String
        let element: [String: Double]
        var managed = false
    }

    static let cases: [Case] = [
        Case(name: "MorphologyMaximum", parameters: ["inputRadius": 3], op: "max", shape: "disc", element: ["radius": 3.0]),
        Case(name: "MorphologyMaximum", parameters: ["inputRadius": 7.5], op: "max", shape: "disc", element: ["radius": 7.5]),
        Case(
            name: "MorphologyMaximum", parameters: ["inputRadius": 4], op: "max", shape: "disc", element: ["radius": 4.0],
            managed: true),
        Case(name: "MorphologyMinimum", parameters: ["inputRadius": 2.5], op: "min", shape: "disc", element: ["radius": 2.5]),
        Case(name: "MorphologyMinimum", parameters: ["inputRadius": 9], op: "min", shape: "disc", element: ["radius": 9.0]),
        Case(name: "MorphologyGradient", parameters: [:], op: "gradient", shape: "disc", element: ["radius": 5.0]),
        Case(
            name: "MorphologyRectangleMaximum", parameters: [:], op: "max", shape: "rect", element: ["width": 5.0, "height": 5.0]),
        Case(
            name: "MorphologyRectangleMaximum", parameters: ["inputWidth": 21, "inputHeight": 4], op: "max",
            shape: "rect", element: ["width": 21.0, "height": 4.0]),
        Case(
            name: "MorphologyRectangleMinimum", parameters: ["inputWidth": 1, "inputHeight": 13], op: "min",
            shape: "rect", element: ["width": 1.0, "height": 13.0]),
        Case(
            name: "MorphologyRectangleMinimum", parameters: ["inputWidth": 8, "inputHeight": 6], op: "min",
            shape: "rect", element: ["width": 8.0, "height": 6.0]),
    ]

    @Test("dilation, erosion and gradient by discs and rectangles equal OpenCV's within 1/255")
    func matchOpenCV() throws {
        let dir = try TemporaryDirectory()
        let crop = Rect(x: 200, y: 120, width: 256, height: 192)
        let source = try Kodak.image(5).cropped(to: crop)
        let unmanaged = try Contexts.unmanaged()
        // Small tiles, so tile margins are exercised in the same renders.
        let tiled = try Context(options: .init(workingColorSpace: nil, tileWidth: 64, tileHeight: 48))
        try writeTight(try unmanaged.createBuffer(source, format: .rgb8, colorSpace: .sRGB), to: dir.path("input.rgb"))
        var cases: [[String: Any]] = []
        for (i, c) in Self.cases.enumerated() {
            let out = try source.applyingFilter(c.name, parameters: c.parameters)
            #expect(out.extent == source.extent, "\(c.name) keeps the extent")
            let context = c.managed ? try Context() : (i % 2 == 0 ? unmanaged : tiled)
            try writeTight(try context.createBuffer(out, format: .rgb8, colorSpace: .sRGB), to: dir.path("ours\(i).rgb"))
            cases.append(
                [
                    "name": "\(c.name) \(c.parameters)\(c.managed ? " managed" : "")", "ours": dir.path("ours\(i).rgb"), "op": c.op,
                    "shape": c.shape,
                ].merging(c.element) { a, _ in a })
        }
        let spec: [String: Any] = ["width": 256, "height": 192, "input": dir.path("input.rgb"), "cases": cases]
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: dir.path("cases.json")))
        let r = try Judge.python("morphology_judge.py", [dir.path("cases.json")])
        let results = try #require(r["results"] as? [[String: Any]])
        #expect(results.count == Self.cases.count)
        for result in results {
            let maxDiff = result["max_abs_diff"] as? Int ?? 99
            print("measured: \(result["name"] ?? "?") vs OpenCV: max |Δ| \(maxDiff)/255, mean \(result["mean_abs_diff"] ?? "?")")
            #expect(maxDiff <= 1, "\(result["name"] ?? "?"): max |Δ| \(maxDiff)/255")
        }
    }
}
