import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Text for TextImageGenerator (SPEC I4): fontconfig's font, HarfBuzz's shaping and FreeType's
/// glyphs placed into one coverage image, judged against Pillow drawing the same string in the
/// same font file at the same pixel size (Pillow rasterizes with FreeType too, and positions
/// glyphs its own way). Tolerances: correlation ≥ 0.9, ink within 6%, ink boxes within 2 px.
@Suite struct TextRasterizerTests {
    static let cases: [(name: String, font: String, size: Double, text: String, padding: Int)] = [
        ("sans 32", "DejaVu Sans", 32, "Daguerre, 1839", 0),
        ("serif 20 padded", "DejaVu Serif", 20, "Photographs: AVATAR Wo Ty", 6),
        ("Core Image's default: Helvetica's clone", "HelveticaNeue", 12, "Hello, world", 0),
        ("a PostScript name with a style", "Helvetica-Bold", 18, "Bold type", 1),
        ("two lines", "DejaVu Sans", 24, "Live Photos\nand RAW", 3),
    ]

    @Test("text rasterized as Pillow rasterizes it with FreeType")
    func matchesPillow() throws {
        let dir = try TemporaryDirectory()
        var cases: [[String: Any]] = []
        for (i, c) in Self.cases.enumerated() {
            let t = try TextRasterizer(fontName: c.font, pixelSize: c.size).render(c.text, padding: c.padding)
            try Data(t.alpha).write(to: URL(fileURLWithPath: dir.path("t\(i).raw")))
            print("measured: '\(c.name)' → \(t.fontFamily) (\(t.fontFile)), \(t.width)×\(t.height)")
            if c.font.hasPrefix("Helvetica") { #expect(t.fontFamily == "Nimbus Sans", "\(c.font) → \(t.fontFamily)") }
            cases.append([
                "name": c.name, "ours": dir.path("t\(i).raw"), "width": t.width, "height": t.height, "font": t.fontFile,
                "size": c.size, "text": c.text, "padding": c.padding, "line_height": t.lineHeight,
            ])
        }
        try JSONSerialization.data(withJSONObject: ["cases": cases]).write(to: URL(fileURLWithPath: dir.path("cases.json")))
        let r = try Judge.python("text_judge.py", [dir.path("cases.json")])
        let results = try #require(r["results"] as? [[String: Any]])
        #expect(results.count == Self.cases.count)
        for result in results {
            let name = result["name"] as? String ?? "?"
            let corr = result["correlation"] as? Double ?? 0
            let ink = result["ink_ratio"] as? Double ?? 0
            let a = result["bbox_ours"] as? [Int] ?? []
            let b = result["bbox_pillow"] as? [Int] ?? []
            print("measured: '\(name)' vs Pillow: correlation \(corr.d()), ink ratio \(ink.d()), ink box \(a) vs \(b)")
            #expect(corr >= 0.9, "\(name): correlation \(corr)")
            #expect(abs(ink - 1) <= 0.06, "\(name): ink ratio \(ink)")
            #expect(a.count == 4 && b.count == 4 && zip(a, b).allSatisfy { abs($0 - $1) <= 2 }, "\(name): \(a) vs \(b)")
        }
    }

    @Test("hostile sizes and lengths are refused before anything is allocated")
    func refusals() throws {
        #expect(throws: DaguerreError.self) { _ = try TextRasterizer(fontName: "DejaVu Sans", pixelSize: 1e9).render("x") }
        #expect(throws: DaguerreError.self) { _ = try TextRasterizer(fontName: "DejaVu Sans", pixelSize: .nan).render("x") }
        #expect(throws: DaguerreError.self) {
            _ = try TextRasterizer(fontName: "DejaVu Sans", pixelSize: 12).render(String(repeating: "x", count: 200_000))
        }
        // An empty string is an empty (1×1 plus padding) image, not an error.
        let empty = try TextRasterizer(fontName: "DejaVu Sans", pixelSize: 12).render("", padding: 2)
        #expect(empty.alpha.allSatisfy { $0 == 0 })
    }

    @Test("TextImageGenerator is the rasterized text: black, its alpha the coverage, at fontSize × scaleFactor from (0, 0)")
    func generatorIsTheCoverage() throws {
        let image = try FilterRegistry.descriptor(named: "TextImageGenerator").apply([
            "inputText": "Daguerre", "inputFontName": "DejaVu Sans", "inputFontSize": 16, "inputScaleFactor": 2, "inputPadding": 3,
        ])
        let t = try TextRasterizer(fontName: "DejaVu Sans", pixelSize: 32).render("Daguerre", padding: 6)
        #expect(image.extent == Rect(x: 0, y: 0, width: Double(t.width), height: Double(t.height)))
        let buffer = try Contexts.unmanaged().createBuffer(image, format: .rgba8, colorSpace: .sRGB)
        var worst = 0
        for y in 0..<t.height {
            for x in 0..<t.width {
                let p = buffer.rowAddress(y) + x * 4
                worst = max(
                    worst, Int(p.load(fromByteOffset: 0, as: UInt8.self)),
                    abs(Int(p.load(fromByteOffset: 3, as: UInt8.self)) - Int(t.alpha[y * t.width + x])))
            }
        }
        #expect(worst <= 1, "largest difference from black with the coverage as alpha: \(worst)")
    }

    @Test("AttributedTextImageGenerator: runs in their fonts, sizes and colours, as Pillow draws them run by run")
    func attributedMatchesPillow() throws {
        let runs: [(text: String, font: String, size: Double, color: [Double])] = [
            ("Dague", "DejaVu Sans", 28, [0, 0, 0]), ("rre", "DejaVu Serif", 40, [0.8, 0.1, 0.1]),
            ("\nLive ", "DejaVu Sans", 20, [0.1, 0.2, 0.9]), ("Photos", "DejaVu Sans:bold", 26, [0.1, 0.6, 0.2]),
        ]
        let text = AttributedText(
            runs.map {
                .init($0.text, fontName: $0.font, fontSize: $0.size, color: Color(red: $0.color[0], green: $0.color[1], blue: $0.color[2]))
            })
        let image = try AttributedTextImageGenerator(text: text, scaleFactor: 1, padding: 4).outputImage()
        let buffer = try Contexts.unmanaged().createBuffer(image, format: .rgba8, colorSpace: .sRGB)
        let (w, h) = (buffer.width, buffer.height)
        var bytes: [UInt8] = []
        for y in 0..<h { bytes += UnsafeRawBufferPointer(start: buffer.rowAddress(y), count: w * 4) }
        let dir = try TemporaryDirectory()
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path("a.raw")))
        let judged: [[String: Any]] = try runs.map {
            [
                "text": $0.text, "font": try TextRasterizer(fontName: $0.font, pixelSize: $0.size).render("x").fontFile, "size": $0.size,
                "color": $0.color,
            ]
        }
        let spec: [String: Any] = [
            "cases": [["name": "four runs, two lines", "ours": dir.path("a.raw"), "width": w, "height": h, "padding": 4, "runs": judged]]
        ]
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: dir.path("cases.json")))
        let r = try Judge.python("text_judge.py", [dir.path("cases.json")])
        let result = try #require((r["results"] as? [[String: Any]])?.first)
        let corr = result["correlation"] as? Double ?? 0
        let ink = result["ink_ratio"] as? Double ?? 0
        let a = result["bbox_ours"] as? [Int] ?? []
        let b = result["bbox_pillow"] as? [Int] ?? []
        let colours = result["run_colours"] as? [[Double]] ?? []
        print(
            "measured: attributed text vs Pillow: worst channel correlation \(corr.d()) of \(result["channel_correlation"] ?? "?"), ink ratio \(ink.d()), ink box \(a) vs \(b), run colours \(colours)"
        )
        #expect(corr >= 0.9, "correlation \(corr): \(result)")
        #expect(abs(ink - 1) <= 0.06, "ink ratio \(ink)")
        #expect(a.count == 4 && b.count == 4 && zip(a, b).allSatisfy { abs($0 - $1) <= 2 }, "\(a) vs \(b)")
        // Where one run's glyphs alone cover a pixel fully, it is that run's colour (in 8-bit sRGB).
        #expect(colours.count == runs.count)
        for (run, got) in zip(runs, colours) {
            #expect(zip(run.color, got).allSatisfy { abs($0 - $1) <= 2.0 / 255 }, "\(run.text): \(got) for \(run.color)")
        }
        // By name: JSON runs, and a plain string is one black run.
        let named = try FilterRegistry.descriptor(named: "AttributedTextImageGenerator").apply([
            "inputText": #"[{"text": "Dague", "font": "DejaVu Sans", "size": 28}, {"text": "rre", "color": [0.8, 0.1, 0.1]}]"#
        ])
        #expect(named.extent.width > 50)
        #expect(throws: DaguerreError.self) {
            _ = try FilterRegistry.descriptor(named: "AttributedTextImageGenerator").apply(["inputText": #"[{"txt": "x"}]"#])
        }
    }
}
