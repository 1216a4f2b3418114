import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Testing

@testable import DaguerreRAW

/// The end of the Bayer develop paths (SPEC X3): the highlight stage's look at the mosaic is
/// skipped for a row segment with no photosite at white within its reach, and only there.
@Suite struct PixelDevelopTests {
    @Test(
        "A row segment skips the highlight stage's look at the mosaic only when none of its pixels has a clipped colour, and exactly then when every CFA position clips at one code: every segment of a mosaic with one photosite at white",
        arguments: [[64.0, 64, 64, 64], [64, 90, 120, 150]])
    func highlightLooksOnlyNearWhite(black: [Double]) throws {
        let (w, h) = (16, 9)
        let white = (x: 10, y: 4)
        var mosaic = try BayerImage(width: w, height: h, pattern: .rggb, bitsPerSample: 12)
        mosaic.blackLevel = black
        mosaic.whiteLevel = 4095
        for i in mosaic.samples.indices { mosaic.samples[i] = 3900 }  // bright, under every clip threshold
        mosaic.samples[white.y * w + white.x] = 4095
        var settings = DevelopSettings(
            matrix: .identity, neutral: SIMD3(0.5, 1, 0.7), crop: IntRect(x: 0, y: 0, width: w, height: h),
            workingSpace: .extendedLinearSRGB, demosaic: .lmmseGW, highlight: HighlightRecovery(neutral: SIMD3(0.5, 1, 0.7), amount: 1))
        let px = PixelDevelop(settings: settings, layout: mosaic.layout)
        settings.highlight = nil
        let none = PixelDevelop(settings: settings, layout: mosaic.layout)
        let oneThreshold = Set(black).count == 1
        var looked = 0
        try mosaic.samples.withUnsafeBufferPointer { s in
            let rows = MosaicRows(whole: try #require(s.baseAddress), width: w, height: h)
            for y in 0..<h {
                for x0 in 0..<w {
                    for count in 1...(w - x0) {
                        let clipped = (x0..<(x0 + count)).contains { px.clipped(x: $0, y: y, rows: rows) != .zero }
                        let looks = px.mayReachWhite(y: y, x0: x0, count: count, rows: rows)
                        #expect(looks || !clipped, "row \(y), columns \(x0)..<\(x0 + count): skipped with a clipped colour")
                        if oneThreshold { #expect(looks == clipped, "row \(y), columns \(x0)..<\(x0 + count)") }
                        #expect(!none.mayReachWhite(y: y, x0: x0, count: count, rows: rows))
                        if looks { looked += 1 }
                    }
                }
            }
        }
        // Rows 2…6, and segments that reach columns 8…12: some look, most do not.
        #expect(looked > 0 && looked < h * w * (w + 1) / 2)
    }
}
