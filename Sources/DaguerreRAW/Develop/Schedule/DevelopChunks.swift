// The full develop's schedule (SPEC X7: develop speed; Halide's lesson, the algorithm apart from
// its schedule): rows are developed a chunk of 256 at a time into buffers the engine reads in
// place (they are lent, ``RowSource/lendRows(y:count:)``), and the next chunk develops on a
// thread of its own while the engine converts and encodes this one. What a chunk's develop is
// belongs to the develop (``LMMSEGWDevelop``, ``XTransDevelop``); when, where and into which buffer is decided here. Our own code.
import DaguerreCore
import DaguerreImage
import Dispatch

/// Serves a develop's rows chunk by chunk, developing ahead and lending its buffers.
///
/// A chunk's buffer is reused only once the engine has released all its rows, so while the
/// last band of a chunk is still read, the develop of the chunk after next waits for it
/// (started by ``releaseRows(below:)``) instead of taking a third buffer. It works ahead only
/// inside the rows the render reads (``willRead(rows:)``), so a region render develops nothing
/// extra.
///
/// ```swift
/// let chunks = DevelopChunks(develop: lmmseGW, height: info.height)
/// chunks.willRead(rows: 0..<info.height)
/// let spans = try chunks.lend(y: 0, count: 64, columns: 0..<info.width)
/// chunks.releaseRows(below: 64)
/// ```
final class DevelopChunks {
    /// What develops a chunk's rows.
    let develop: any ChunkDevelop
    /// The developed image's height.
    let height: Int

    /// Rows developed at a time. 256 rows, not 512: two chunk buffers (this one and the next,
    /// developing ahead) of 18 MB instead of 37 at 24 MP, peak RSS 191 → 147 MB, for the same
    /// CPU time (the noise reduction's shared rows are carried over, the demosaic's stripes
    /// roll on, so a chunk boundary costs little).
    static let chunkRows = 256
    /// The height of the image's last chunk, when the rows left allow it (see ``developAhead``).
    static let lastChunkRows = 64

    init(develop: any ChunkDevelop, height: Int) {
        self.develop = develop
        self.height = height
    }

    /// Rows developed together, and where their pixels are (3 floats a pixel, rows of `columns`).
    struct Chunk {
        var rows: Range<Int> = 0..<0
        var columns: Range<Int> = 0..<0
        /// Zero pages from the kernel (``ZeroedBuffer``): every sample is written by the
        /// develop, and clearing them first was a serial pass before the first chunk's workers.
        var pixels: ZeroedBuffer?
        /// Floats the storage holds.
        var capacity: Int { (pixels?.byteCount ?? 0) / 4 }
    }

    /// A chunk developing on another thread. Safety: the develop thread writes `chunk` and
    /// `error`, then signals `finished`; the schedule reads them only after waiting on it.
    private final class PendingChunk: @unchecked Sendable {
        var chunk: Chunk
        var error: DaguerreError?
        let finished = DispatchSemaphore(value: 0)
        /// The develop's parallel loops, for the reading thread to work on while it waits.
        let assistance = WorkerPool.Assistance()
        init(_ chunk: Chunk) { self.chunk = chunk }
    }

    /// The chunk the engine reads now.
    private var chunk = Chunk()
    /// The next chunk, developing on its own thread.
    private var pending: PendingChunk?
    private var readRange: Range<Int>?
    /// Chunks whose rows are lent and not yet released: their buffers are not reused until
    /// ``releaseRows(below:)`` passes them.
    private var lent: [Chunk] = []
    /// Released chunk buffers, for the next develop.
    private var spares: [ZeroedBuffer] = []
    /// Whether the develop ahead waits for a lent buffer to be released.
    private var aheadWaits = false

    /// Whether a chunk is developing ahead on its own thread (for the tests).
    var isDevelopingAhead: Bool { pending != nil }

    func willRead(rows: Range<Int>) { readRange = rows }

    /// Copies rows `y ..< y + count`, columns `columns`, into `destination`.
    func read(y: Int, count: Int, columns: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        try eachChunkSpan(y: y, count: count, columns: columns) { span in
            for r in span.rows {
                (destination + (r - y) * bytesPerRow).copyMemory(from: span.row(r), byteCount: span.bytesPerRow)
            }
        }
    }

    /// Rows `y ..< y + count`, columns `columns`, in the chunks' own memory, valid until
    /// ``releaseRows(below:)`` passes them.
    func lend(y: Int, count: Int, columns: Range<Int>) throws(DaguerreError) -> [LentRows] {
        var spans: [LentRows] = []
        try eachChunkSpan(y: y, count: count, columns: columns) { span in
            if !isLent(chunk) { lent.append(chunk) }
            spans.append(span)
        }
        return spans
    }

    /// The engine will read no row above `y` again: the chunks wholly above it are free again.
    func releaseRows(below y: Int) {
        lent.removeAll { c in
            guard c.rows.upperBound <= y else { return false }
            if let p = c.pixels, p !== chunk.pixels, spares.isEmpty { spares.append(p) }
            return true
        }
        if aheadWaits, let spare = spares.popLast() {
            aheadWaits = false
            developAhead(into: spare)
        }
    }

    private func isLent(_ c: Chunk) -> Bool {
        guard let p = c.pixels else { return false }
        return lent.contains { $0.pixels === p }
    }

    /// Walks rows `y ..< y + count` a chunk at a time, taking each chunk (``takeChunk``) and
    /// handing `body` its rows in it before the next is taken: the next chunk's develop ahead
    /// may reuse this chunk's buffer unless `body` lends it.
    private func eachChunkSpan(y: Int, count: Int, columns: Range<Int>, _ body: (LentRows) throws(DaguerreError) -> Void)
        throws(DaguerreError)
    {
        var row = y
        while row < y + count {
            if !chunk.rows.contains(row) || chunk.columns != columns {
                try takeChunk(containing: row, rows: y + count - row, columns: columns)
            }
            let n = min(y + count - row, chunk.rows.upperBound - row)
            let bytesPerRow = chunk.columns.count * 12
            if let pixels = chunk.pixels {
                try body(
                    LentRows(
                        rows: row..<row + n, base: UnsafeRawPointer(pixels.pointer + (row - chunk.rows.lowerBound) * bytesPerRow),
                        bytesPerRow: bytesPerRow))
            } else if bytesPerRow > 0 {
                throw .invalidArgument(
                    what: "RAW rows \(row)..<\(y + count)", problem: "the develop left no pixels for them (internal error)")
            }
            row += n
        }
    }

    /// Makes `chunk` hold `row`: the pending chunk when it does, else a chunk developed here
    /// (at least `rows` rows); then starts developing the chunk after it.
    private func takeChunk(containing row: Int, rows wanted: Int, columns: Range<Int>) throws(DaguerreError) {
        // The previous chunk's storage is reused (every sample is rewritten): a fresh allocation
        // per chunk cost page faults and zeroing (a tenth of the samples in perf). Not while its
        // rows are lent: then a buffer the engine has released is used.
        var spare = isLent(chunk) ? spares.popLast() : chunk.pixels
        chunk = Chunk()
        aheadWaits = false
        if let p = pending {
            pending = nil
            // Instead of blocking until the chunk is ready, this thread takes items of the
            // develop's parallel loops (the same items, the same pixels).
            p.assistance.help()
            p.finished.wait()
            if p.chunk.rows.contains(row), p.chunk.columns == columns, p.error == nil {
                chunk = p.chunk
            } else if (p.chunk.pixels?.byteCount ?? 0) > (spare?.byteCount ?? 0) {
                spare = p.chunk.pixels
            }
            if let error = p.error { throw error }
        }
        if chunk.rows.isEmpty {
            let rows = row..<min(height, row + max(Self.chunkRows, wanted))
            chunk = Chunk(rows: rows, columns: columns, pixels: spare)
            spare = nil  // one owner at a time
            try develop(&chunk)
        }
        developAhead(into: spare ?? spares.popLast())
    }

    /// Starts developing the chunk after `chunk` on its own thread, into `spare` (or a new
    /// buffer). While the engine still reads lent rows, a buffer of theirs is waited for
    /// instead (``releaseRows(below:)`` starts it): where the engine's bands lie within two
    /// chunks (its 64-row bands under 256-row chunks), two chunk buffers in all, not three.
    /// Bands taller than a chunk take a chunk developed on the spot for each chunk they cover.
    private func developAhead(into spare: ZeroedBuffer?) {
        // Work ahead only inside the rows the render reads, so a region render costs no more.
        guard pending == nil, let range = readRange, range.contains(chunk.rows.upperBound) else { return }
        if spare == nil, lent.contains(where: { $0.pixels != nil && $0.pixels !== chunk.pixels }) {
            aheadWaits = true
            return
        }
        let start = chunk.rows.upperBound
        var stop = min(height, start + Self.chunkRows)
        // The image's last rows come as a short chunk of their own: once the develop is done,
        // only the engine's packing and encoding of the last chunk are left, on one core, so a
        // short last chunk leaves the other core idle for less time. The stripes roll on across
        // the extra boundary (``LMMSEGWDemosaic/stripe``), so it costs only the noise
        // reduction's 12-row margin.
        if stop == height, stop - start > 2 * Self.lastChunkRows { stop -= Self.lastChunkRows }
        let work = PendingChunk(Chunk(rows: start..<stop, columns: chunk.columns, pixels: spare))
        pending = work
        // Safety: until `finished` is signalled only the develop thread uses the develop's state
        // (workspaces, noise-reduction window, tables), and the threads it shares its parallel
        // loops with, the reading thread among them (`assistance`), run only items of those
        // loops; the reading thread waits on `finished` before it touches any of that state
        // itself (`takeChunk` is its only way in). The thread holds the schedule (strongly)
        // until the chunk is done.
        let me = UnsafeTransfer(self)
        WorkerPool.startThread {
            do throws(DaguerreError) {
                try me.value.develop(&work.chunk, assistance: work.assistance)
            } catch {
                work.error = error
            }
            work.assistance.finish()
            work.finished.signal()
        }
    }

    /// Develops `chunk.rows` × `chunk.columns` into `chunk.pixels` (grown when too small).
    private func develop(_ chunk: inout Chunk, assistance: WorkerPool.Assistance? = nil) throws(DaguerreError) {
        let rows = chunk.rows
        try develop.reserve(rows: rows.count, columns: chunk.columns.count)
        let stride = chunk.columns.count * 3
        if chunk.capacity < rows.count * stride {
            chunk.pixels = nil
            chunk.pixels = ZeroedBuffer(byteCount: max(rows.count, Self.chunkRows) * stride * 4)
        }
        guard let storage = chunk.pixels else { return }
        try develop.develop(rows: rows, columns: chunk.columns, into: storage.pointer, bytesPerRow: stride * 4, assistance: assistance)
    }
}
