import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreRAW
import DaguerreTestSupport
import Foundation
import Testing

/// RAW input through LibRaw (X6): LibRaw decodes, RAWFilter develops.
@Suite struct LibRawInputTests {
    @Test("LibRaw's decode of a virtual-camera DNG equals our own reader's mosaic, pattern and levels, and develops through RAWFilter")
    func sameMosaic() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("chart.dng")
        let written = try RAWColorTests.chartDNG(.d65, width: 256, height: 192)
        try DNGWriter.write(written, to: path)
        let ours = try #require(try DNGReader.read(path: path).mosaic)
        let libraw = try LibRawReader.read(path: path)
        let mosaic = try #require(libraw.mosaic)
        let same = mosaic.samples == ours.samples
        #expect(same && mosaic.pattern == ours.pattern && mosaic.width == ours.width && mosaic.height == ours.height)
        #expect(mosaic.blackLevel == ours.blackLevel && mosaic.whiteLevel == ours.whiteLevel, "LibRaw \(mosaic.blackLevel) \(mosaic.whiteLevel), ours \(ours.blackLevel) \(ours.whiteLevel)")
        #expect(libraw.metadata.make == "Daguerre" && libraw.color.asShotNeutral != nil)
        let image = try RAWFilter(dng: libraw).outputImage()
        #expect(image.extent.width == 256 && image.extent.height == 192)
    }

    @Test("Files LibRaw cannot read get a typed error naming the file, never a crash")
    func refusals() throws {
        let dir = try TemporaryDirectory()
        let text = dir.path("notes.cr2")
        try Data("not a raw file at all".utf8).write(to: URL(fileURLWithPath: text))
        let e1 = try #require(throws: DaguerreError.self) { _ = try RAWFilter(url: URL(fileURLWithPath: text)) }
        #expect(e1.message.contains("notes.cr2"), "\(e1)")
        let png = Judge.testdata.appendingPathComponent("kodak24/kodim01.png").path
        #expect(throws: DaguerreError.self) { _ = try LibRawReader.read(path: png) }
        #expect(throws: DaguerreError.self) { _ = try RAWFilter(url: URL(fileURLWithPath: dir.path("missing.nef"))) }
    }
}
