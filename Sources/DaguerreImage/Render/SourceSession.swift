import DaguerreCore
import DaguerreFormats

/// The rows of one file source that the current band needs, decoded once and shared by every
/// tile of the band (I3: sources decode only what is asked).
///
/// Before each band the renderer calls ``prepare(rows:)`` with the union of the band's regions
/// of interest in this source; the session decodes forward into a window, keeping rows still
/// needed and dropping rows above. Then ``prefetch(rows:)`` returns a task that decodes the
/// *next* band's rows into the window's free space below the rows the tiles read; the renderer
/// runs it beside the band's tiles, so decoding overlaps computing on the same workers. Columns outside the render's horizontal region of interest are
/// never decoded (`jpeg_crop_scanline`). Going backwards restarts the decoder (counted in the
/// render statistics).
final class SourceSession: @unchecked Sendable {
    // Safety: `prepare`, `prefetch` and `wait` run between bands on the renderer's thread; the
    // prefetch task writes only rows at or beyond `end`, and `end` moves only in `wait` (after the
    // band, and so the task, has finished), so tiles never read a row being written.
    let node: FileSourceNode
    private var decoder: any ImageDecoder
    private(set) var columns: Range<Int>
    private let requestedColumns: Range<Int>
    /// The rows the render reads (its region of interest in this source).
    private let rows: Range<Int>
    private var window: UnsafeMutableRawPointer?
    private var capacityRows = 0
    private let rowBytes: Int
    private(set) var first = 0      // first row held
    private(set) var end = 0        // one past the last row readable by tiles
    private let stats: RenderStats
    private var pendingEnd: Int?
    private var pendingError: DaguerreError?

    init(node: FileSourceNode, columns wanted: Range<Int>, rows: Range<Int>, stats: RenderStats) throws(DaguerreError) {
        self.node = node
        self.stats = stats
        self.rows = rows
        decoder = try node.openDecoder()
        decoder.willRead(rows: rows)
        let w = node.info.width
        let clamped = max(0, wanted.lowerBound)..<min(w, max(wanted.upperBound, max(0, wanted.lowerBound) + 1))
        requestedColumns = clamped
        columns = try decoder.setColumns(clamped)
        rowBytes = max(columns.count, 1) * node.info.pixelFormat.bytesPerPixel
    }

    deinit { window?.deallocate() }

    private func clampRows(_ wanted: Range<Int>) -> Range<Int> {
        max(0, wanted.lowerBound)..<min(node.info.height, max(wanted.upperBound, max(0, wanted.lowerBound)))
    }

    /// Makes the rows of a finished prefetch task readable.
    func wait() throws(DaguerreError) {
        if let e = pendingError { pendingError = nil; pendingEnd = nil; throw e }
        if let p = pendingEnd { end = p; pendingEnd = nil }
    }

    /// Makes rows `rows` (clamped to the image) available to ``row(_:)``.
    func prepare(rows wanted: Range<Int>) throws(DaguerreError) {
        try wait()
        let rows = clampRows(wanted)
        guard !rows.isEmpty else { return }
        if rows.lowerBound < first {
            // Backwards: start the file again.
            stats.sourceRestarts.add(1, ordering: .relaxed)
            decoder = try node.openDecoder()
            decoder.willRead(rows: self.rows)
            columns = try decoder.setColumns(requestedColumns)
            first = rows.lowerBound; end = rows.lowerBound
        }
        try reserve(from: rows.lowerBound, through: rows.upperBound)
        if rows.upperBound > end, let window {
            try decoder.readRows(y: end, count: rows.upperBound - end, into: window + (end - first) * rowBytes, bytesPerRow: rowBytes)
            end = rows.upperBound
        }
    }

    /// A task decoding rows up to `rows.upperBound` (the next band's), to run beside the tiles.
    func prefetch(rows wanted: Range<Int>) throws(DaguerreError) -> (@Sendable () -> Void)? {
        let rows = clampRows(wanted)
        guard !rows.isEmpty, rows.lowerBound >= first, rows.upperBound > end else { return nil }
        // Room for everything from the current first row to the prefetched end; no compaction,
        // since tiles are about to read the current rows.
        try grow(toHold: rows.upperBound - first)
        guard let window else { return nil }
        let from = end, count = rows.upperBound - end
        let target = UnsafeTransfer(window + (from - first) * rowBytes)
        let me = UnsafeTransfer(self)
        pendingEnd = rows.upperBound
        return {
            do throws(DaguerreError) {
                try me.value.decoder.readRows(y: from, count: count, into: target.value, bytesPerRow: me.value.rowBytes)
            } catch {
                me.value.pendingError = error
            }
        }
    }

    /// Keeps rows from `lower` (dropping those above) and makes room through `upper`.
    private func reserve(from lower: Int, through upper: Int) throws(DaguerreError) {
        let keepFrom = max(first, lower)
        let kept = max(0, end - keepFrom)
        if let window, kept > 0, keepFrom > first {
            window.copyMemory(from: window + (keepFrom - first) * rowBytes, byteCount: kept * rowBytes)
        }
        if kept == 0 { end = lower }
        first = lower
        try grow(toHold: max(upper, end) - lower)
    }

    private func grow(toHold rows: Int) throws(DaguerreError) {
        guard rows > capacityRows else { return }
        try node.limits.check(width: max(columns.count, 1), height: rows, bytesPerPixel: node.info.pixelFormat.bytesPerPixel, what: "Source window")
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: rows * rowBytes, alignment: 64)
        HugePages.advise(fresh, byteCount: rows * rowBytes)
        if let window, end > first { fresh.copyMemory(from: window, byteCount: (end - first) * rowBytes) }
        window?.deallocate()
        window = fresh
        capacityRows = rows
    }

    /// Row `y` if held: its first pixel and the columns it holds.
    func row(_ y: Int) -> (UnsafeRawPointer, Range<Int>)? {
        guard y >= first, y < end, let window else { return nil }
        return (UnsafeRawPointer(window + (y - first) * rowBytes), columns)
    }
}
