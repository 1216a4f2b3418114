import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreRAW
import DaguerreTestSupport
import Foundation
import Testing

/// RAW input through LibRaw (X6): LibRaw decodes, RAWFilter develops.
@Suite struct LibRawInputTests {
    /// A virtual-camera chart DNG written to a temporary folder (kept alive by the returned
    /// folder) and its path.
    static func chartFile(width: Int, height: Int) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.path("chart.dng")
        try DNGWriter.write(try RAWColorTests.chartDNG(.d65, width: width, height: height), to: path)
        return (dir, path)
    }

    @Test("LibRaw's decode of a virtual-camera DNG equals our own reader's mosaic, pattern and levels, and develops through RAWFilter")
    func sameMosaic() throws {
        let (dir, path) = try Self.chartFile(width: 256, height: 192)
        defer { withExtendedLifetime(dir) {} }
        let ours = try #require(try DNGReader.read(path: path).mosaic)
        let libraw = try LibRawReader.read(path: path)
        let mosaic = try #require(libraw.mosaic)
        let same = mosaic.samples == ours.samples
        #expect(same && mosaic.pattern == ours.pattern && mosaic.width == ours.width && mosaic.height == ours.height)
        #expect(
            mosaic.blackLevel == ours.blackLevel && mosaic.whiteLevel == ours.whiteLevel,
            "LibRaw \(mosaic.blackLevel) \(mosaic.whiteLevel), ours \(ours.blackLevel) \(ours.whiteLevel)")
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

    @Test(
        "RAWFilter opens bytes (ours for a DNG, LibRaw's buffer reader otherwise) and a bare mosaic with its calibration, developing the same pixels as from the file (X1, X6)"
    )
    func bytesAndMosaics() throws {
        let (dir, path) = try Self.chartFile(width: 128, height: 96)
        defer { withExtendedLifetime(dir) {} }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        func pixels(_ raw: RAWFilter, crop: DNGCrop? = nil) throws -> [UInt8] {
            var image = try raw.outputImage()
            if let crop { image = image.cropped(to: Rect(x: crop.x, y: crop.y, width: crop.width, height: crop.height)) }
            let b = try Context().createBuffer(image, format: .rgba8, colorSpace: .sRGB)
            return b.withUnsafeBytes { Array($0) }
        }
        let fromFile = try pixels(try RAWFilter(url: URL(fileURLWithPath: path)))
        #expect(try pixels(try RAWFilter(data: data)) == fromFile)
        // A bare mosaic has no DefaultCrop: it develops whole, and its crop is the file's pixels
        // (the file's develop reads the same photosites beyond its crop).
        let dng = try DNGReader.read(path: path)
        let mosaic = try #require(dng.mosaic)
        let crop = try #require(dng.defaultCrop)
        let bare = try RAWFilter(mosaic: mosaic, color: dng.color, metadata: dng.metadata)
        #expect(try bare.outputImage().extent.width == Double(mosaic.width))
        #expect(try pixels(bare, crop: crop) == fromFile)
        // LibRaw's buffer reader decodes what its file reader decodes.
        let viaBuffer = try LibRawReader.read(bytes: [UInt8](data), name: "chart.dng")
        let viaFile = try LibRawReader.read(path: path)
        #expect(viaBuffer.mosaic?.samples == viaFile.mosaic?.samples && viaBuffer.mosaic?.blackLevel == viaFile.mosaic?.blackLevel)
        // Bytes nobody can read: a typed error that names the hint.
        let e = try #require(throws: DaguerreError.self) { _ = try RAWFilter(data: Data("not a raw".utf8), identifierHint: "upload.nef") }
        #expect(e.message.contains("upload.nef"), "\(e)")
        let damaged = try #require(throws: DaguerreError.self) { _ = try RAWFilter(data: data.prefix(3000), identifierHint: "public.dng") }
        #expect(!damaged.message.isEmpty)
    }
}
