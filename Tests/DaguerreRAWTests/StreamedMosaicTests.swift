import DaguerreCore
import DaguerreImage
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats
@testable import DaguerreRAW

/// The streamed mosaic (SPEC X2, X6): a DNG opened by URL or data keeps its mosaic in the file,
/// and the full develop decodes it a band of tile rows at a time. Whatever order the rows are
/// asked in, the pixels are those of the develop of the decoded mosaic, bit for bit; a damaged
/// tile is a typed error when the develop reaches it, and no output file appears.
@Suite struct StreamedMosaicTests {
    /// A noisy 14-bit mosaic 700 × 1100 (three tile columns, the last partial, and five tile
    /// rows at 256-row tiles) with a clipped block, as DNG bytes.
    static func dngBytes(compression: DNGCompression = .losslessJPEG) throws -> [UInt8] {
        let (w, h) = (700, 1100)
        var (mosaic, _) = try NoiseScenes.mosaic(width: w, height: h, electrons: 1667) { x, y, c in
            NoiseScenes.smooth(x, y % 500, c, width: w, height: 500)
        }
        // Clipped photosites across a tile-row boundary (rows 250…262), for the highlight stage.
        for y in 250..<263 { for x in 300..<330 { mosaic.samples[y * w + x] = UInt16(mosaic.whiteLevel) } }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre Stream Test Camera")
        dng.color = try RAWDevelopTests.fixedDNG().color
        // A NoiseProfile, as cameras write: without one, noise reduction estimates the noise
        // from the whole mosaic, which decodes it whole.
        dng.color.noiseProfile = [(scale: 2e-5, offset: 1e-7)]
        dng.defaultCrop = DNGCrop(x: 3, y: 5, width: 690, height: 1088)
        return try DNGWriter.data(for: dng, compression: compression)
    }

    /// The mosaic of a DNG opened for a develop, still in its bytes.
    static func stored(_ bytes: [UInt8]) throws -> StoredMosaic {
        guard case .storedMosaic(let stored) = try DNGReader.open(bytes: bytes).rawData else {
            throw Judge.Failure(description: "the DNG's mosaic was decoded on opening, not left in the file")
        }
        return stored
    }

    static func settings(noiseReduction: Bool) -> DevelopSettings {
        var s = DevelopSettings(
            matrix: Matrix3([1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0, -0.5, 1.5]), neutral: SIMD3(0.5, 1, 0.7),
            crop: IntRect(x: 3, y: 5, width: 690, height: 1088), workingSpace: .extendedLinearSRGB, demosaic: .lmmseGW,
            highlight: HighlightRecovery(neutral: SIMD3(0.5, 1, 0.7), amount: 1))
        s.domain = .power25
        if noiseReduction {
            s.noiseReduction = NoiseReductionSettings(
                profile: CFANoiseProfile(uniform: NoiseModel(scale: 2e-5, offset: 1e-7)), amount: 1,
                blockStep: .alternate)
        }
        return s
    }

    @Test(
        "Streamed from lossless JPEG or uncompressed tiles, with noise reduction on and off, a develop read in bands, out of order and backwards equals the develop of the decoded mosaic, bit for bit",
        arguments: [(DNGCompression.losslessJPEG, true), (.losslessJPEG, false), (.none, true)])
    func streamedEqualsDecoded(compression: DNGCompression, noiseReduction: Bool) throws {
        let bytes = try Self.dngBytes(compression: compression)
        let stored = try Self.stored(bytes)
        let whole = try #require(try DNGReader.read(bytes: bytes).mosaic)
        #expect(stored.chunks.chunkRows == 5)
        let settings = Self.settings(noiseReduction: noiseReduction)
        let (w, h) = (690, 1088)
        let bytesPerRow = w * 12
        var expected = [Float](repeating: .nan, count: w * h * 3)
        try expected.withUnsafeMutableBytes {
            try RAWDevelopDecoder(mosaic: whole, settings: settings).readRows(
                y: 0, count: h, into: $0.baseAddress!, bytesPerRow: bytesPerRow)
        }
        #expect(expected.allSatisfy { $0.isFinite })
        // In bands, with chunks developing ahead (each chunk a new band of tile rows).
        let streamed = try RAWDevelopDecoder(stored: stored, settings: settings)
        streamed.willRead(rows: 0..<h)
        var banded = [Float](repeating: .nan, count: w * h * 3)
        try banded.withUnsafeMutableBytes { b in
            for y in stride(from: 0, to: h, by: 64) {
                try streamed.readRows(y: y, count: min(64, h - y), into: b.baseAddress! + y * bytesPerRow, bytesPerRow: bytesPerRow)
            }
        }
        let differing = zip(expected, banded).filter { $0.bitPattern != $1.bitPattern }.count
        #expect(differing == 0, "\(differing) of \(expected.count) samples differ")
        // Regions out of order, the last ones going back up the image (bands kept, moved, re-decoded).
        let regions = try RAWDevelopDecoder(stored: stored, settings: settings)
        for rows in [900..<1000, 0..<40, 500..<700, 520..<530, 230..<300, 1040..<1088, 600..<601] {
            var part = [Float](repeating: .nan, count: rows.count * w * 3)
            try part.withUnsafeMutableBytes {
                try regions.readRows(y: rows.lowerBound, count: rows.count, into: $0.baseAddress!, bytesPerRow: bytesPerRow)
            }
            let slice = expected[(rows.lowerBound * w * 3)..<(rows.upperBound * w * 3)]
            let off = zip(slice, part).filter { $0.bitPattern != $1.bitPattern }.count
            #expect(off == 0, "rows \(rows): \(off) samples differ")
        }
    }

    @Test(
        "A band of the streamed mosaic holds exactly the decoded mosaic's rows, however the bands move (forwards, backwards, overlapping, growing)"
    )
    func bandsHoldTheMosaicsRows() throws {
        let bytes = try Self.dngBytes()
        let whole = try #require(try DNGReader.read(bytes: bytes).mosaic)
        let stream = StreamedMosaic(stored: try Self.stored(bytes), limits: .default)
        for wanted in [0..<10, 300..<700, 600..<900, 100..<200, -40..<1200, 1099..<1100, 700..<1100, 255..<257, 2000..<2100, -50..<(-10)] {
            let rows = try stream.cover(wanted)
            let lo = min(max(0, wanted.lowerBound), 1099)
            let clipped = lo..<max(lo + 1, min(1100, wanted.upperBound))
            #expect(rows.range.lowerBound <= clipped.lowerBound && rows.range.upperBound >= clipped.upperBound)
            #expect(rows.range.lowerBound % 256 == 0, "bands are whole tile rows: \(rows.range)")
            var same = true
            for y in rows.range {
                let line = rows.row(y)
                for x in 0..<700 where line[x] != whole.samples[y * 700 + x] { same = false }
            }
            #expect(same, "rows \(rows.range) after asking for \(wanted)")
        }
        #expect(throws: DaguerreError.self) { try rowsOutside(stream) }
    }

    /// A stage asking for rows the band does not hold gets an error, not a read outside it.
    private func rowsOutside(_ stream: StreamedMosaic) throws {
        let rows = try stream.cover(0..<10)
        try rows.check(holds: 200..<300, for: "test")
    }

    @Test(
        "RAWFilter opened by URL streams its mosaic: the develop is the one of the decoded mosaic, and the mosaic is never decoded whole; `dng` decodes it on demand, equal to DNGReader's"
    )
    func filterStreams() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("stream.dng")
        try AtomicFile.write(try Self.dngBytes(), to: path)
        let streamed = try RAWFilter(url: URL(fileURLWithPath: path))
        let decoded = try RAWFilter(dng: DNGReader.read(path: path))
        let deferred = try #require(streamed.deferred)
        #expect(try RAWDevelopTests.fingerprint(try streamed.outputImage()) == RAWDevelopTests.fingerprint(try decoded.outputImage()))
        let decodedByDevelop = deferred.wholeIfDecoded != nil
        #expect(!decodedByDevelop, "the full develop decoded the mosaic whole")
        #expect(streamed.metadata.orientation == decoded.metadata.orientation)
        let same = try streamed.dng.mosaic == decoded.dng.mosaic
        #expect(same)
        let decodedOnDemand = deferred.wholeIfDecoded != nil
        #expect(decodedOnDemand)
    }

    @Test(
        "Third-party layouts stream too: tifffile's strip DNGs (7-row strips, a short last one; ActiveArea on odd rows and columns) develop as their decoded mosaics do",
        arguments: ["0,0", "1,1"])
    func stripsStream(origin: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("strips.dng")
        _ = try Judge.python("dng_judge.py", ["strips", path, origin])
        let streamed = try RAWFilter(url: URL(fileURLWithPath: path))
        #expect(streamed.deferred != nil)
        let decoded = try RAWFilter(dng: DNGReader.read(path: path))
        #expect(try RAWDevelopTests.fingerprint(try streamed.outputImage()) == RAWDevelopTests.fingerprint(try decoded.outputImage()))
    }

    @Test(
        "A damaged tile in the middle of a streamed DNG: opening succeeds, the develop throws a typed error naming the damage when it reaches the tile, and no output file appears"
    )
    func damagedTile() throws {
        var bytes = try Self.dngBytes()
        let chunks = try Self.stored(bytes).chunks
        // Tile row 2's first tile loses its SOI marker.
        let tile = 2 * chunks.layout.across
        let offset = chunks.layout.offsets[tile]
        #expect(bytes[offset] == 0xFF && bytes[offset + 1] == 0xD8)
        bytes[offset] = 0
        bytes[offset + 1] = 0
        let dir = try TemporaryDirectory()
        let path = dir.path("damaged.dng")
        let out = dir.path("damaged.tif")
        try AtomicFile.write(bytes, to: path)
        let raw = try RAWFilter(url: URL(fileURLWithPath: path))
        let image = try raw.outputImage()
        let error = try #require(throws: DaguerreError.self) {
            try Context().writeTIFFRepresentation(of: image, to: URL(fileURLWithPath: out), format: .rgb16, colorSpace: .sRGB)
        }
        #expect("\(error)".contains("JPEG") || "\(error)".contains("DNG"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(throws: DaguerreError.self) { _ = try raw.dng }
    }
}
