// The engine's source protocol (I3: "sources decode only what is asked"): what a source of rows
// must do for the renderer to pull it band by band. Image files come through
// ``ImageFileRowSource``; other modules (the RAW develop) implement it directly.
import DaguerreCore

/// Rows the engine pulls on demand, band by band, top to bottom.
///
/// A source belongs to one render at a time; it is not thread-safe. Sequential sources (JPEG,
/// non-interlaced PNG) produce forward only: asking for rows above the last one read restarts
/// them (correct, but slow; the renderer asks in order).
///
/// A source that produces whole bands into memory of its own (the RAW develop's chunks) lends
/// them (``lendsRows``): the renderer then reads them in place instead of copying every row into
/// a window of its own.
///
/// ```swift
/// final class Stripes: RowSource {
///     let info = RowSourceInfo(kind: "stripes", width: 64, height: 64, pixelFormat: .r8)
///     func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
///         for r in 0..<count { (destination + r * bytesPerRow).initializeMemory(as: UInt8.self, repeating: UInt8((y + r) % 2 * 255), count: 64) }
///     }
/// }
/// let image = try Image(identity: "stripes") { Stripes() }
/// ```
public protocol RowSource: AnyObject {
    var info: RowSourceInfo { get }
    /// Restricts production to `columns` before the first row is read; returns the columns that
    /// will actually be produced (a superset, e.g. widened to JPEG MCU boundaries). Rows passed
    /// to ``readRows(y:count:into:bytesPerRow:)`` then start at the returned range's lower bound.
    /// By default every column is produced.
    func setColumns(_ columns: Range<Int>) throws(DaguerreError) -> Range<Int>
    /// Produces rows `y ..< y + count` in `info.pixelFormat` into `destination` (row stride
    /// `bytesPerRow`). Throws on damaged or truncated data; never returns made-up pixels.
    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError)
    /// A hint: the rows the render will read, in order. A source that can work ahead (the RAW
    /// develop, which develops the next chunk while the engine reads this one) stays inside
    /// them; the others ignore it.
    func willRead(rows: Range<Int>)
    /// Whether ``lendRows(y:count:)`` lends rows from the source's own memory.
    var lendsRows: Bool { get }
    /// Rows `y ..< y + count` in the source's own memory, as one or more spans in row order
    /// (`info.pixelFormat`, the columns `setColumns` returned). They stay valid and unchanged
    /// until ``releaseRows(below:)`` passes them or the source is released. Throws as
    /// `readRows` does; a source that does not lend throws `.unsupported`.
    func lendRows(y: Int, count: Int) throws(DaguerreError) -> [LentRows]
    /// The caller will read no row above `y` again: a lending source may reuse their memory.
    func releaseRows(below y: Int)
}

extension RowSource {
    public func setColumns(_ columns: Range<Int>) throws(DaguerreError) -> Range<Int> { 0..<info.width }
    public func willRead(rows: Range<Int>) {}
    public var lendsRows: Bool { false }
    public func lendRows(y: Int, count: Int) throws(DaguerreError) -> [LentRows] {
        throw .unsupported(feature: "lending rows from \(info.kind) sources", hint: "Read them with readRows(y:count:into:bytesPerRow:).")
    }
    public func releaseRows(below y: Int) {}
}
