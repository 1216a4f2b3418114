import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@_spi(Fuzzing) @testable import DaguerreFormats

/// Opening a large DNG without its chunk data (SPEC X6): the structure and metadata are those of
/// a whole read, the chunks come from the file as they are decoded, and the skipped run is
/// checked to hold nothing else.
@Suite struct DNGSparseReadTests {
    /// A 2400 × 2000 mosaic of 14-bit noise (incompressible, so the file passes the sparse
    /// read's 8 MiB minimum either way), with a preview and EXIF metadata.
    @discardableResult static func write(to path: String, compression: DNGCompression) throws -> BayerImage {
        var mosaic = try BayerImage(width: 2400, height: 2000, pattern: .grbg, bitsPerSample: 14)
        var rng = SeededRandom(seed: 7)
        for i in mosaic.samples.indices { mosaic.samples[i] = UInt16.random(in: 600...16000, using: &rng) }
        mosaic.blackLevel = [600, 600, 600, 600]
        mosaic.whiteLevel = 16383
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre Sparse Test")
        dng.color.asShotNeutral = [0.5, 1, 0.7]
        dng.metadata.make = "Daguerre"
        dng.metadata.model = "Sparse"
        dng.metadata.orientation = 6
        dng.preview = try PixelBuffer(width: 64, height: 48, format: .rgb8, colorSpace: .sRGB, alpha: .straight)
        try DNGWriter.write(dng, to: path, compression: compression)
        return mosaic
    }

    @Test(
        "A large DNG opens without reading its chunks: metadata, colour, crop and preview equal a whole read's, and the chunks decoded from the file give the same mosaic",
        arguments: [DNGCompression.losslessJPEG, .none, .noneInStrips])
    func sparseEqualsWhole(compression: DNGCompression) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("big.dng")
        let written = try Self.write(to: path, compression: compression)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size >= DNGReader.sparseReadMinimum, "\(size) bytes")
        let whole = try DNGReader.read(path: path)
        let header = try DNGReader.open(path: path)
        guard case .storedMosaic(let stored) = header.rawData else {
            Issue.record("the mosaic was decoded on opening")
            return
        }
        let file = try #require(stored.chunks.file, "the sparse read was not taken")
        #expect(file.size == size)
        #expect(header.metadata == whole.metadata)
        #expect(header.color == whole.color)
        #expect(header.uniqueCameraModel == whole.uniqueCameraModel && header.defaultCrop == whole.defaultCrop)
        #expect(header.preview?.width == 64 && whole.preview?.width == 64)
        let mosaic = try stored.decoded()
        #expect(mosaic == whole.mosaic)
        #expect(mosaic.samples == written.samples)
    }

    @Test(
        "The skipped run is the main image's chunks and nothing else: a run that also covers tag values, IFDs or another image's data is refused"
    )
    func skippedRunIsChecked() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("big.dng")
        try Self.write(to: path, compression: .losslessJPEG)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let span = try #require(DNGReader.rawChunkSpan(head: Array(bytes.prefix(DNGReader.headBytes))))
        let r = try TIFFStructureReader(bytes: bytes, format: "DNG")
        let tree = try r.tree()
        let ifd0 = try #require(tree.first)
        let raw = try #require(DNGReader.findRaw(ifd0, r))
        let offsets = try #require(raw.uints(.tileOffsets, in: r))
        let counts = try #require(raw.uints(.tileByteCounts, in: r))
        #expect(span == Int(offsets.min()!)..<zip(offsets, counts).map { Int($0) + Int($1) }.max()!)
        #expect(DNGReader.onlyChunks(of: raw, in: span, tree: tree, r))
        // Stretched to the file's end (the EXIF IFD and values lie after the tiles), to the
        // whole file, or down onto the IFD0 table at offset 8: refused.
        #expect(!DNGReader.onlyChunks(of: raw, in: span.lowerBound..<bytes.count, tree: tree, r))
        #expect(!DNGReader.onlyChunks(of: raw, in: 0..<bytes.count, tree: tree, r))
        #expect(!DNGReader.onlyChunks(of: raw, in: 8..<span.upperBound, tree: tree, r))
        #expect(DNGReader.skippableRun(in: bytes) == span)
        // Hostile byte counts (every tile claiming the rest of the file, overlapping the others):
        // a chunk read from the file would get a buffer that large, so the file is read whole.
        var hostile = bytes
        let entry = try #require(raw.entries[.tileByteCounts])
        for k in 0..<entry.count {
            let p = entry.position + 4 * k
            let v = UInt32(bytes.count - Int(offsets[k]))
            for b in 0..<4 { hostile[p + b] = UInt8(truncatingIfNeeded: r.byteOrder == .littleEndian ? v >> (8 * b) : v >> (8 * (3 - b))) }
        }
        #expect(DNGReader.rawChunkSpan(head: Array(hostile.prefix(DNGReader.headBytes))) == nil)
        #expect(DNGReader.skippableRun(in: hostile) == nil)
    }

    @Test(
        "A DNG truncated after it was opened: decoding its chunks is a typed error naming the file, not a crash",
        arguments: [DNGCompression.losslessJPEG, .noneInStrips])
    func truncatedAfterOpening(compression: DNGCompression) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("big.dng")
        try Self.write(to: path, compression: compression)
        guard case .storedMosaic(let stored) = try DNGReader.open(path: path).rawData else {
            Issue.record("the mosaic was decoded on opening")
            return
        }
        #expect(stored.chunks.file != nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 1 << 20)
        try handle.close()
        let error = try #require(throws: DaguerreError.self) { _ = try stored.decoded() }
        #expect("\(error)".contains(path), "\(error)")
    }
}
