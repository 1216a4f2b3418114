import DaguerreCore
import DaguerreFormats

/// The rows of one file source that the current band needs, decoded once and shared by every
/// tile of the band (I3: sources decode only what is asked).
///
/// Before each band the renderer calls ``prepare(rows:)`` with the union of the band's regions
/// of interest in this source; the session decodes forward into a window, keeping rows still
/// needed and dropping rows above. The window is a ring of rows (row y in slot y mod capacity),
/// so rows kept from one band to the next are never moved: compacting them was a copy of every
/// prefetched band, 2.6 % of a RAW develop's CPU time. Then ``prefetch(rows:)`` returns a task that decodes the
/// *next* band's rows into the window's free space below the rows the tiles read; the renderer
/// runs it beside the band's tiles, so decoding overlaps computing on the same workers. Columns outside the render's horizontal region of interest are
/// never decoded (`jpeg_crop_scanline`). Going backwards restarts the decoder (counted in the
/// render statistics).
///
/// A decoder that holds whole bands in memory of its own (``RowSource/lendsRows``, the RAW
/// develop's chunks) lends them instead: the session keeps their spans and no window, and
/// releases rows as the bands move past them. At 24 MP that is 9 MB of window and a copy of
/// every developed row (286 MB) less.
final class SourceSession: @unchecked Sendable {
    // Safety: `prepare`, `prefetch` and `wait` run between bands on the renderer's thread; the
    // prefetch task writes only rows at or beyond `end` (or, lending, only `pendingSpans`), and
    // `end` and `spans` move only in `prepare` and `wait` (after the band, and so the task, has
    // finished), so tiles never read a row being written.
    let node: FileSourceNode
    private var decoder: any RowSource
    private(set) var columns: Range<Int>
    private let requestedColumns: Range<Int>
    /// The rows the render reads (its region of interest in this source).
    private let rows: Range<Int>
    private var window: UnsafeMutableRawPointer?
    private var capacityRows = 0
    private let rowBytes: Int
    private(set) var first = 0  // first row held
    private(set) var end = 0  // one past the last row readable by tiles
    private let stats: RenderStats
    private var pendingEnd: Int?
    private var pendingError: DaguerreError?
    /// Whether the decoder lends its rows (then `window` stays nil).
    private var lends: Bool
    /// The lent rows tiles read, covering `first ..< end`, in row order.
    private var spans: [LentRows] = []
    /// Spans lent by the prefetch task, readable after ``wait()``.
    private var pendingSpans: [LentRows] = []
    /// The window's size, in rows, from ``reserve(rows:)``.
    private var reservedRows = 0

    init(node: FileSourceNode, columns wanted: Range<Int>, rows: Range<Int>, stats: RenderStats) throws(DaguerreError) {
        self.node = node
        self.stats = stats
        self.rows = rows
        decoder = try node.openSource()
        decoder.willRead(rows: rows)
        let w = node.info.width
        let clamped = max(0, wanted.lowerBound)..<min(w, max(wanted.upperBound, max(0, wanted.lowerBound) + 1))
        requestedColumns = clamped
        columns = try decoder.setColumns(clamped)
        rowBytes = max(columns.count, 1) * node.info.pixelFormat.bytesPerPixel
        lends = decoder.lendsRows
    }

    deinit { window?.deallocate() }

    private func clampRows(_ wanted: Range<Int>) -> Range<Int> {
        max(0, wanted.lowerBound)..<min(node.info.height, max(wanted.upperBound, max(0, wanted.lowerBound)))
    }

    /// Makes the rows of a finished prefetch task readable.
    func wait() throws(DaguerreError) {
        if let e = pendingError {
            pendingError = nil
            pendingEnd = nil
            throw e
        }
        if let p = pendingEnd {
            end = p
            pendingEnd = nil
            spans += pendingSpans
            pendingSpans = []
        }
    }

    /// Makes rows `rows` (clamped to the image) available to ``row(_:)``.
    func prepare(rows wanted: Range<Int>) throws(DaguerreError) {
        try wait()
        let rows = clampRows(wanted)
        guard !rows.isEmpty else { return }
        if rows.lowerBound < first {
            // Backwards: start the file again. Nothing held stays readable (lent spans point into
            // the old decoder's memory), even if opening the file again fails.
            stats.sourceRestarts.add(1, ordering: .relaxed)
            spans = []
            pendingSpans = []
            first = rows.lowerBound
            end = rows.lowerBound
            decoder = try node.openSource()
            decoder.willRead(rows: self.rows)
            columns = try decoder.setColumns(requestedColumns)
            lends = decoder.lendsRows
        }
        // Rows above the band are dropped by moving `first`: the window is a ring, so the rows
        // kept never move.
        if end <= rows.lowerBound { end = rows.lowerBound }
        first = rows.lowerBound
        if lends {
            spans.removeAll { $0.rows.upperBound <= first }
            decoder.releaseRows(below: first)
        } else {
            try grow(toHold: max(max(rows.upperBound, end) - first, reservedRows))
        }
        if rows.upperBound > end {
            spans += try fetch(from: end, count: rows.upperBound - end)
            end = rows.upperBound
        }
    }

    /// Sizes the window, when it is first needed, for `rows` rows: the most any band holds from
    /// its first row to the end of the next band's, which the renderer knows before the first
    /// band. Growing the ring later would copy every held row into a fresh one, and the first
    /// ring's pages would have been touched for nothing (at 24 MP, 4.6 MB of faults and copies).
    func reserve(rows: Int) { reservedRows = max(reservedRows, min(rows, self.rows.count)) }

    /// A task decoding rows up to `rows.upperBound` (the next band's), to run beside the tiles.
    func prefetch(rows wanted: Range<Int>) throws(DaguerreError) -> (@Sendable () -> Void)? {
        let rows = clampRows(wanted)
        guard !rows.isEmpty, rows.lowerBound >= first, rows.upperBound > end else { return nil }
        // Room for everything from the current first row to the prefetched end: the new rows
        // take ring slots no held row uses, since tiles are about to read the held ones.
        if !lends { try grow(toHold: rows.upperBound - first) }
        let from = end
        let count = rows.upperBound - end
        let me = UnsafeTransfer(self)
        pendingEnd = rows.upperBound
        return {
            do throws(DaguerreError) {
                me.value.pendingSpans = try me.value.fetch(from: from, count: count)
            } catch {
                me.value.pendingError = error
            }
        }
    }

    /// Rows `from ..< from + count`: lent by the decoder (their spans), or decoded into the
    /// window (no spans).
    private func fetch(from: Int, count: Int) throws(DaguerreError) -> [LentRows] {
        if lends { return try decoder.lendRows(y: from, count: count) }
        try decode(from: from, count: count)
        return []
    }

    /// Decodes rows `from ..< from + count` into their ring slots: one call, or two where the
    /// rows wrap past the window's last slot.
    private func decode(from: Int, count: Int) throws(DaguerreError) {
        guard let window, count > 0 else { return }
        let slot = from % capacityRows
        let before = min(count, capacityRows - slot)
        try decoder.readRows(y: from, count: before, into: window + slot * rowBytes, bytesPerRow: rowBytes)
        if before < count {
            try decoder.readRows(y: from + before, count: count - before, into: window, bytesPerRow: rowBytes)
        }
    }

    /// Makes the ring hold at least `rows` rows; held rows move to their slots in the new one.
    private func grow(toHold rows: Int) throws(DaguerreError) {
        guard rows > capacityRows else { return }
        try node.limits.check(
            width: max(columns.count, 1), height: rows, bytesPerPixel: node.info.pixelFormat.bytesPerPixel, what: "Source window")
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: rows * rowBytes, alignment: 64)
        HugePages.advise(fresh, byteCount: rows * rowBytes)
        if let window {
            for y in first..<end {
                (fresh + (y % rows) * rowBytes).copyMemory(from: window + (y % capacityRows) * rowBytes, byteCount: rowBytes)
            }
        }
        window?.deallocate()
        window = fresh
        capacityRows = rows
    }

    /// Row `y` if held: its first pixel and the columns it holds.
    func row(_ y: Int) -> (UnsafeRawPointer, Range<Int>)? {
        guard y >= first, y < end else { return nil }
        if lends {
            // A few spans at most (a band and its neighbours' chunks).
            for span in spans where span.rows.contains(y) { return (span.row(y), columns) }
            return nil
        }
        guard let window else { return nil }
        return (UnsafeRawPointer(window + (y % capacityRows) * rowBytes), columns)
    }
}
