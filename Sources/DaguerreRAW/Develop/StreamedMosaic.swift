// A Bayer mosaic decoded from its DNG a band of tile rows at a time, as the develop reaches
// them (SPEC X2, X6): a 24 MP develop never holds its 48 MB mosaic whole, only the few tile
// rows around the chunk it develops. Our own code: the scheduling of our DNG decoder's chunks.
import DaguerreCore
import DaguerreFormats
import Foundation

/// The band of a DNG's mosaic a develop is reading, decoded on demand from the file's chunks.
///
/// ``cover(_:assistance:)`` makes a range of mosaic rows resident: the chunk rows (tile rows
/// or strips) that hold them, keeping those already decoded for the previous band (the develop
/// moves down the image, so a band usually needs one new tile row) and decoding the rest on
/// all cores, in the develop's own parallel loop.
///
/// ```swift
/// guard case let .storedMosaic(stored) = try DNGReader.open(path: "IMG_0001.dng").rawData else { return }
/// let stream = StreamedMosaic(stored: stored, limits: .default)
/// let rows = try stream.cover(200..<520)       // tile rows 0, 1 and 2 at 256-row tiles
/// print(rows.row(300)[12])
/// ```
final class StreamedMosaic {
    let layout: MosaicLayout
    let chunks: DNGRawChunks
    let limits: Limits
    /// Decoded chunk rows, contiguous from the buffer's start.
    private var held: Range<Int> = 0..<0
    private var buffer: UnsafeMutablePointer<UInt16>?
    private var capacity = 0

    /// `bandRows`: the most rows one ``cover(_:assistance:)`` will ask for, if known; the
    /// buffer is then sized once for the chunk rows such a band can span (a buffer grown on
    /// the second band was the first one's pages faulted for nothing: 1 500 of them at 24 MP).
    init(stored: StoredMosaic, limits: Limits, bandRows: Int = 0) {
        layout = stored.layout
        chunks = stored.chunks
        self.limits = limits
        let ch = max(chunks.chunkHeight, 1)
        reservedRows = bandRows > 0 ? min(chunks.height, ((bandRows - 1) / ch + 2) * ch) : 0
    }

    /// The rows the buffer is first allocated for (0: what the first band needs).
    private let reservedRows: Int

    deinit { buffer?.deallocate() }

    /// Mosaic rows `rows` (clipped to the mosaic) and the rest of their chunk rows, decoded.
    /// Throws the decoder's error for a damaged chunk, or a size error before allocating.
    func cover(_ rows: Range<Int>, assistance: WorkerPool.Assistance? = nil) throws(DaguerreError) -> MosaicRows {
        let w = chunks.width
        let h = chunks.height
        let ch = chunks.chunkHeight
        // At least one row, inside the mosaic, whatever is asked.
        let lo = min(max(0, rows.lowerBound), h - 1)
        let hi = min(h, max(rows.upperBound, lo + 1))
        let need = (lo / ch)..<((hi - 1) / ch + 1)
        let firstRow = need.lowerBound * ch
        let count = min(h, need.upperBound * ch) - firstRow
        if count * w > capacity {
            let rows = max(count, capacity == 0 ? reservedRows : 0)
            try limits.check(width: w, height: rows, bytesPerPixel: 2, what: "decoded mosaic band")
            buffer?.deallocate()
            buffer = .allocate(capacity: rows * w)
            capacity = rows * w
            held = 0..<0
        }
        guard let buffer else { throw .processorFailed(name: "streamed mosaic", reason: "no band buffer") }
        // Chunk rows decoded for the last band move to their place in this one.
        let keep = held.clamped(to: need)
        if !keep.isEmpty, keep.lowerBound != held.lowerBound || keep.lowerBound != need.lowerBound {
            let rowsKept = min(h, keep.upperBound * ch) - keep.lowerBound * ch
            (buffer + (keep.lowerBound - need.lowerBound) * ch * w).update(
                from: buffer + (keep.lowerBound - held.lowerBound) * ch * w,
                count: rowsKept * w)
        }
        held = 0..<0  // until the band is whole: a failure leaves nothing half-decoded behind
        let missing = keep.isEmpty ? [need] : [need.lowerBound..<keep.lowerBound, keep.upperBound..<need.upperBound]
        let target = DNGRawChunks.Target(samples: buffer, firstRow: firstRow, rows: count)
        for band in missing where !band.isEmpty {
            try decode(chunkRows: band, into: target, assistance: assistance)
        }
        held = need
        return MosaicRows(samples: buffer, firstRow: firstRow, rows: count, width: w)
    }

    /// Decodes chunk rows `band` into `target` on all cores (items of two tiles each), the
    /// develop's reading thread helping through `assistance`; the first failure is thrown.
    private func decode(chunkRows band: Range<Int>, into target: DNGRawChunks.Target, assistance: WorkerPool.Assistance?)
        throws(DaguerreError)
    {
        let range = chunks.chunks(inChunkRows: band)
        let items = DNGRawChunks.items(range)
        let results = TileResults<Void>(count: items)
        let chunks = self.chunks
        WorkerPool.share(workers: WorkerPool.processorCount, items: items, assistance: assistance) { _, item in
            results.set(item, Result { () throws(DaguerreError) in try chunks.decode(item: item, of: range, into: target) })
        }
        _ = try results.collect()
    }
}
