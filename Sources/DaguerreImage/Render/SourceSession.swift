import DaguerreCore
import DaguerreFormats

/// The rows of one file source that the current band needs, decoded once and shared by every
/// tile of the band (I3: sources decode only what is asked).
///
/// Before each band the renderer calls ``prepare(rows:)`` with the union of the band's regions
/// of interest in this source; the session decodes forward into a window, keeping rows still
/// needed and dropping rows above. Columns outside the render's horizontal region of interest
/// are never decoded (`jpeg_crop_scanline`). Going backwards restarts the decoder (counted in
/// the render statistics).
final class SourceSession: @unchecked Sendable {
    // Safety: `prepare` runs between bands on one thread; during a band tiles only read rows.
    let node: FileSourceNode
    private var decoder: any ImageDecoder
    private(set) var columns: Range<Int>
    private let requestedColumns: Range<Int>
    private var window: UnsafeMutableRawPointer?
    private var capacityRows = 0
    private let rowBytes: Int
    private(set) var first = 0      // first row held
    private(set) var end = 0        // one past the last row held
    private let stats: RenderStats

    init(node: FileSourceNode, columns wanted: Range<Int>, stats: RenderStats) throws(DaguerreError) {
        self.node = node
        self.stats = stats
        decoder = try node.openDecoder()
        let w = node.info.width
        let clamped = max(0, wanted.lowerBound)..<min(w, max(wanted.upperBound, max(0, wanted.lowerBound) + 1))
        requestedColumns = clamped
        columns = try decoder.setColumns(clamped)
        rowBytes = max(columns.count, 1) * node.info.pixelFormat.bytesPerPixel
    }

    deinit { window?.deallocate() }

    /// Makes rows `rows` (clamped to the image) available to ``row(_:)``.
    func prepare(rows wanted: Range<Int>) throws(DaguerreError) {
        let rows = max(0, wanted.lowerBound)..<min(node.info.height, max(wanted.upperBound, 0))
        guard !rows.isEmpty else { return }
        if rows.lowerBound < first {
            // Backwards: start the file again.
            stats.sourceRestarts.add(1, ordering: .relaxed)
            decoder = try node.openDecoder()
            columns = try decoder.setColumns(requestedColumns)
            first = rows.lowerBound; end = rows.lowerBound
        }
        let keepFrom = max(first, rows.lowerBound)
        let kept = max(0, end - keepFrom)
        let needed = max(rows.upperBound, end) - rows.lowerBound
        if needed > capacityRows {
            let bytes = needed * rowBytes
            try node.limits.check(width: max(columns.count, 1), height: needed, bytesPerPixel: node.info.pixelFormat.bytesPerPixel, what: "Source window")
            let fresh = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            if let window, kept > 0 { fresh.copyMemory(from: window + (keepFrom - first) * rowBytes, byteCount: kept * rowBytes) }
            window?.deallocate()
            window = fresh
            capacityRows = needed
        } else if let window, kept > 0, keepFrom > first {
            window.copyMemory(from: window + (keepFrom - first) * rowBytes, byteCount: kept * rowBytes)
        }
        if kept == 0 { end = rows.lowerBound }
        first = rows.lowerBound
        if rows.upperBound > end, let window {
            let from = max(end, rows.lowerBound)
            try decoder.readRows(y: from, count: rows.upperBound - from, into: window + (from - first) * rowBytes, bytesPerRow: rowBytes)
            end = rows.upperBound
        }
    }

    /// Row `y` if held: its first pixel and that pixel's column.
    func row(_ y: Int) -> (UnsafeRawPointer, Int)? {
        guard y >= first, y < end, let window else { return nil }
        return (UnsafeRawPointer(window + (y - first) * rowBytes), columns.lowerBound)
    }
}
