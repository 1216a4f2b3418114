// A DNG main image's strips or tiles, decoded into any band of whole chunk rows: the whole image
// when a reader decodes it at once, or a few tile rows at a time when a develop streams the
// mosaic (SPEC R6, X6). Uncompressed, bit-packed, lossless JPEG (our codec) and, for LinearRaw,
// lossy JPEG (libjpeg-turbo); the linearization table is applied as each chunk lands.
import DaguerreCore
import Dispatch

/// The chunks (strips or tiles) of a DNG's main image, with the file bytes they live in.
///
/// Chunks are numbered row-major over the grid; the chunks of chunk rows `t0..<t1` are the
/// contiguous numbers `t0 * across ..< t1 * across`, so a band of chunk rows decodes as one
/// range. Work is handed out in items of two neighbouring chunks: two lossless JPEG tiles of
/// the same shape decode in lockstep (``LosslessJPEGDecoder``), about twice as fast as one after
/// the other.
///
/// ```swift
/// let chunks = try DNGReader.open(path: "IMG_0001.dng").chunks!
/// let band = chunks.chunks(inChunkRows: 0..<1)             // the first tile row
/// var rows = [UInt16](repeating: 0, count: chunks.chunkHeight * chunks.width)
/// try rows.withUnsafeMutableBufferPointer { b in
///     let target = DNGRawChunks.Target(samples: b.baseAddress!, firstRow: 0, rows: chunks.chunkHeight)
///     for item in 0..<DNGRawChunks.items(band) { try chunks.decode(item: item, of: band, into: target) }
/// }
/// ```
package struct DNGRawChunks: Sendable {
    let layout: DNGReader.ChunkLayout
    let shape: DNGReader.ChunkShape
    /// The file's bytes; without `file`, the chunks' too.
    let bytes: [UInt8]
    /// Where the chunks are read from when `bytes` holds the file without them
    /// (``RandomAccessFile/readAll(skipping:)``).
    let file: RandomAccessFile?

    init(layout: DNGReader.ChunkLayout, shape: DNGReader.ChunkShape, bytes: [UInt8], file: RandomAccessFile? = nil) {
        self.layout = layout
        self.shape = shape
        self.bytes = bytes
        self.file = file
    }

    /// The image's width and height, in pixels.
    package var width: Int { shape.width }
    package var height: Int { shape.height }
    /// The rows of one chunk row (the tile height, or the rows per strip).
    package var chunkHeight: Int { layout.chunkHeight }
    /// How many chunk rows the image has.
    package var chunkRows: Int { layout.offsets.count / max(layout.across, 1) }

    /// The chunk numbers of chunk rows `rows`.
    package func chunks(inChunkRows rows: Range<Int>) -> Range<Int> { rows.lowerBound * layout.across..<rows.upperBound * layout.across }

    /// The work items a range of chunks is decoded in (pairs of neighbours, the last maybe alone).
    package static func items(_ chunks: Range<Int>) -> Int { (chunks.count + 1) / 2 }

    /// Where decoded samples go: `rows` whole image rows, the first of them image row
    /// `firstRow`, `width × samplesPerPixel` samples a row. Safety: the caller keeps `samples`
    /// alive and gives each chunk to one thread at a time; chunks write disjoint rectangles.
    package struct Target: @unchecked Sendable {
        package let samples: UnsafeMutablePointer<UInt16>
        package let firstRow: Int, rows: Int
        package init(samples: UnsafeMutablePointer<UInt16>, firstRow: Int, rows: Int) {
            self.samples = samples
            self.firstRow = firstRow
            self.rows = rows
        }
    }

    /// Decodes item `item` of `chunks` (``items(_:)``) into `target`, which must hold every row
    /// of their chunk rows; returns the significant bits of the item's first chunk (the lossless
    /// JPEG precision, or the sample bits).
    @discardableResult
    package func decode(item: Int, of chunks: Range<Int>, into target: Target) throws(DaguerreError) -> Int {
        let i = chunks.lowerBound + 2 * item
        let j = i + 1
        guard chunks.contains(i), rowsHeld(by: target, chunk: i), !chunks.contains(j) || rowsHeld(by: target, chunk: j) else {
            throw .invalidArgument(what: "DNG chunk item \(item) of \(chunks)", problem: "its chunk rows must lie inside the target's rows")
        }
        if chunks.contains(j), shape.compression == 7 { return try decodeTilePair(i, j, into: target) }
        let bits = try decodeChunk(i, into: target)
        if chunks.contains(j) { try decodeChunk(j, into: target) }
        return bits
    }

    /// Decodes every chunk, in parallel, into one interleaved buffer; returns it with the
    /// significant bits of the first chunk.
    func decodeAll() throws(DaguerreError) -> ([UInt16], Int) {
        let count = width * height * shape.samplesPerPixel
        // Every sample is written by exactly one chunk, so the buffer needs no zero fill.
        var samples = [UInt16](unsafeUninitializedCapacity: count) { b, n in
            if let base = b.baseAddress { HugePages.advise(base, count: count) }
            n = count
        }
        let all = 0..<layout.offsets.count
        let results = TileResults<Int>(count: Self.items(all))
        samples.withUnsafeMutableBufferPointer { dst in
            let target = Target(samples: dst.baseAddress!, firstRow: 0, rows: height)
            WorkerPool.forEach(Self.items(all)) { k in
                do throws(DaguerreError) {
                    results.set(k, .success(try decode(item: k, of: all, into: target)))
                } catch { results.set(k, .failure(error)) }
            }
        }
        let precisions = try results.collect()
        return (samples, precisions.first ?? shape.bits)
    }

    /// The significant bits the first chunk will give, read from its header alone: a stored
    /// mosaic's layout needs them before any chunk is decoded.
    func firstChunkBits() throws(DaguerreError) -> Int {
        guard shape.compression == 7, !layout.offsets.isEmpty else { return shape.bits }
        return try withChunk(0) { (data) throws(DaguerreError) in try LosslessJPEGStream(data).header.precision }
    }

    /// Runs `body` on chunk `i`'s bytes: in the file's bytes, or read from the file into a
    /// buffer of their own (freed after).
    private func withChunk<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws(DaguerreError) -> R) throws(DaguerreError) -> R {
        let offset = layout.offsets[i]
        let count = layout.counts[i]
        guard file != nil else {
            return try bytes.withUnsafeBufferPointer { (all) throws(DaguerreError) in
                try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[offset..<offset + count])))
            }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        try readChunk(i, prefix: count, into: buffer)
        return try body(UnsafeRawBufferPointer(buffer))
    }

    /// The first `count` bytes of chunk `i`, into `destination`: a buffer of its own, or a strip
    /// of 16-bit samples read straight into the mosaic's rows. Throws if the chunk is shorter.
    private func readChunk(_ i: Int, prefix count: Int, into destination: UnsafeMutableRawBufferPointer) throws(DaguerreError) {
        let offset = layout.offsets[i]
        guard layout.counts[i] >= count, destination.count >= count else { throw .truncated(format: "DNG", path: nil) }
        guard let file else {
            bytes.withUnsafeBytes { all in
                destination.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: count)
            }
            return
        }
        try file.readFully(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: destination[0..<count]), format: "DNG")
    }

    /// Whether `target` holds every row of chunk `i`'s chunk row (the part inside the image).
    private func rowsHeld(by target: Target, chunk i: Int) -> Bool {
        let (_, y0, _, validH) = rectangle(i)
        return y0 >= target.firstRow && y0 + validH <= target.firstRow + target.rows
    }

    /// Where chunk `i`'s rectangle of the image starts, in samples, and how much of it is valid.
    private func rectangle(_ i: Int) -> (x0: Int, y0: Int, validW: Int, validH: Int) {
        let spp = shape.samplesPerPixel
        let pixelX0 = (i % layout.across) * layout.chunkWidth
        let y0 = (i / layout.across) * layout.chunkHeight
        return (pixelX0 * spp, y0, min(layout.chunkWidth, shape.width - pixelX0) * spp, min(layout.chunkHeight, shape.height - y0))
    }

    /// Where image row `y`, sample `x` lies in `target`.
    private func address(_ target: Target, x: Int, y: Int) -> UnsafeMutablePointer<UInt16> {
        target.samples + (y - target.firstRow) * shape.width * shape.samplesPerPixel + x
    }

    /// Decodes lossless JPEG chunks `i` and `j` together (the lockstep decode when their frames
    /// have the same header, one after the other otherwise), and returns the first's precision.
    private func decodeTilePair(_ i: Int, _ j: Int, into target: Target) throws(DaguerreError) -> Int {
        try withChunk(i) { (a) throws(DaguerreError) in
            try withChunk(j) { (b) throws(DaguerreError) in
                let first = try FrameTarget(i, chunks: self, data: a, into: target)
                defer { first.release() }
                let second = try FrameTarget(j, chunks: self, data: b, into: target)
                defer { second.release() }
                try LosslessJPEGDecoder.decode(
                    first.stream, first.data, into: first.destination, rowStride: first.rowStride, capacity: first.capacity,
                    second.stream, second.data, into: second.destination, rowStride: second.rowStride, capacity: second.capacity,
                    legacyDifference16: shape.legacy)
                for frame in [first, second] {
                    if let scratch = frame.scratch { place(frame.index, from: scratch, into: target) }
                    linearize(frame.index, target)
                }
                return first.stream.header.precision
            }
        }
    }

    /// Chunk `i`'s lossless JPEG frame, parsed, and where it decodes: in place when it is a whole
    /// tile whose frame rows are tile rows (the usual case), else into a scratch chunk whose rows
    /// the frame's samples fill in order (DNG 1.4: frames may be shaped differently from the
    /// tile, e.g. width/2 × 2 components), copied into place by ``place(_:from:into:)``.
    private struct FrameTarget {
        let index: Int
        let stream: LosslessJPEGStream
        let data: UnsafeRawBufferPointer
        let destination: UnsafeMutablePointer<UInt16>
        let rowStride: Int, capacity: Int
        let scratch: UnsafeMutablePointer<UInt16>?

        init(_ i: Int, chunks: DNGRawChunks, data: UnsafeRawBufferPointer, into target: Target) throws(DaguerreError) {
            let layout = chunks.layout
            let shape = chunks.shape
            let cw = layout.chunkWidth * shape.samplesPerPixel
            let ch = layout.chunkHeight
            let stride = shape.width * shape.samplesPerPixel
            let (x0, y0, validW, validH) = chunks.rectangle(i)
            self.data = data
            stream = try LosslessJPEGStream(data)
            let header = stream.header
            index = i
            if validW == cw, validH == ch, header.samplesPerRow == cw, header.height == ch {
                destination = chunks.address(target, x: x0, y: y0)
                rowStride = stride
                // To the end of the target: the frame's rows may run no further.
                capacity = (target.firstRow + target.rows - y0 - 1) * stride + (stride - x0)
                scratch = nil
                return
            }
            guard header.samplesPerRow * header.height <= cw * ch else {
                throw .corruptData(
                    format: "DNG", detail: "a lossless JPEG tile holds more samples than its \(layout.chunkWidth)×\(ch) tile", path: nil)
            }
            let buffer = UnsafeMutablePointer<UInt16>.allocate(capacity: cw * ch)
            buffer.initialize(repeating: 0, count: cw * ch)
            (scratch, destination, rowStride, capacity) = (buffer, buffer, header.samplesPerRow, cw * ch)
        }

        func release() { scratch?.deallocate() }
    }

    /// Copies the valid part of chunk `i`, decoded into a whole chunk of rows at `scratch`, into
    /// its rectangle of `target`.
    private func place(_ i: Int, from scratch: UnsafePointer<UInt16>, into target: Target) {
        let cw = layout.chunkWidth * shape.samplesPerPixel
        let (x0, y0, validW, validH) = rectangle(i)
        for y in 0..<validH { address(target, x: x0, y: y0 + y).update(from: scratch + y * cw, count: validW) }
    }

    /// Maps chunk `i`'s samples through the linearization table, if the image has one.
    private func linearize(_ i: Int, _ target: Target) {
        guard let table = shape.table, !table.isEmpty else { return }
        let (x0, y0, validW, validH) = rectangle(i)
        let last = table.count - 1
        for y in 0..<validH {
            let row = address(target, x: x0, y: y0 + y)
            for x in 0..<validW { row[x] = UInt16(truncatingIfNeeded: table[min(Int(row[x]), last)]) }
        }
    }

    /// Decodes chunk `i` into its rectangle of `target`, linearizes it through the table if
    /// given, and returns the significant bits it holds. Horizontal quantities are in samples: a
    /// pixel holds `samplesPerPixel` of them.
    @discardableResult
    private func decodeChunk(_ i: Int, into target: Target) throws(DaguerreError) -> Int {
        let spp = shape.samplesPerPixel
        let cw = layout.chunkWidth * spp
        let ch = layout.chunkHeight
        let (_, y0, validW, validH) = rectangle(i)
        if shape.compression == 1, shape.bits == 16, layout.isStrips, validW > 0, validH > 0 {
            // 16-bit strips (uncompressed camera DNGs) lie in the file as their rows lie in the
            // target: read straight into it, swapped where the file's byte order is not the
            // machine's. No scratch strip, and one copy instead of three.
            let dst = address(target, x: 0, y: y0)
            let n = validW * validH
            try readChunk(i, prefix: 2 * n, into: UnsafeMutableRawBufferPointer(start: dst, count: 2 * n))
            DNGReader.toHostOrder(dst, count: n, from: shape.byteOrder)
            linearize(i, target)
            return shape.bits
        }
        var scratch: [UInt16] = []
        let significant = try withChunk(i) { (data) throws(DaguerreError) -> Int in
            switch shape.compression {
            case 1:
                scratch = [UInt16](repeating: 0, count: cw * ch)
                let rows = layout.isStrips ? validH : ch
                try DNGReader.unpack(data, into: &scratch, count: cw * rows, bits: shape.bits, byteOrder: shape.byteOrder, rowSamples: cw)
                return shape.bits
            case 34892:
                scratch = try DNGReader.lossyTile(
                    data, samplesPerPixel: spp, width: layout.chunkWidth, height: ch, needed: (validW / spp, validH))
                return 8
            default:
                let frame = try FrameTarget(i, chunks: self, data: data, into: target)
                defer { frame.release() }
                try LosslessJPEGDecoder.decode(
                    frame.stream, frame.data, into: frame.destination, rowStride: frame.rowStride, capacity: frame.capacity,
                    legacyDifference16: shape.legacy)
                if let s = frame.scratch { place(i, from: s, into: target) }
                return frame.stream.header.precision
            }
        }
        if !scratch.isEmpty {
            scratch.withUnsafeBufferPointer { place(i, from: $0.baseAddress!, into: target) }
        }
        linearize(i, target)
        return significant
    }
}
