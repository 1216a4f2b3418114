import DaguerreCore

/// Decodes rows of one image file on demand (I3: "sources decode only what is asked").
///
/// A decoder belongs to one render at a time; it is not thread-safe. Sequential formats (JPEG,
/// non-interlaced PNG) decode forward only: asking for rows above the last one read restarts
/// the decoder from the top of the file (correct, but slow; the renderer asks in order).
///
/// ```swift
/// let d = try ImageReader.open(path: "in.jpg")
/// try d.setColumns(1000..<2000)            // JPEG: jpeg_crop_scanline
/// try d.readRows(y: 500, count: 64, into: buf, bytesPerRow: rowBytes)
/// ```
public protocol ImageDecoder: AnyObject {
    var info: ImageFileInfo { get }
    /// Restricts decoding to `columns` before the first row is read; returns the columns that
    /// will actually be decoded (a superset, e.g. widened to JPEG MCU boundaries). Rows passed
    /// to `readRows` then start at the returned range's lower bound.
    func setColumns(_ columns: Range<Int>) throws(DaguerreError) -> Range<Int>
    /// Decodes rows `y ..< y + count` in `info.pixelFormat` into `destination` (row stride
    /// `bytesPerRow`). Throws on damaged or truncated data; never returns made-up pixels.
    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError)
    /// A hint: the rows the render will read, in order. A decoder that can work ahead (the RAW
    /// develop, which develops the next chunk while the engine reads this one) stays inside
    /// them; the others ignore it.
    func willRead(rows: Range<Int>)
    /// Whether ``lendRows(y:count:)`` lends rows from the decoder's own memory. A decoder that
    /// develops or decodes whole bands into buffers of its own (the RAW develop) lends them, so
    /// the render reads them in place instead of copying every row into a window of its own.
    var lendsRows: Bool { get }
    /// Rows `y ..< y + count` in the decoder's own memory, as one or more spans in row order
    /// (`info.pixelFormat`, the columns `setColumns` returned). They stay valid and unchanged
    /// until ``releaseRows(below:)`` passes them or the decoder is released. Throws as
    /// `readRows` does; a decoder that does not lend throws `.unsupported`.
    func lendRows(y: Int, count: Int) throws(DaguerreError) -> [LentRows]
    /// The caller will read no row above `y` again: a lending decoder may reuse their memory.
    func releaseRows(below y: Int)
}

extension ImageDecoder {
    public func willRead(rows: Range<Int>) {}
    public var lendsRows: Bool { false }
    public func lendRows(y: Int, count: Int) throws(DaguerreError) -> [LentRows] {
        throw .unsupported(feature: "lending rows from \(info.format.rawValue) decoders", hint: "Read them with readRows(y:count:into:bytesPerRow:).")
    }
    public func releaseRows(below y: Int) {}
}

/// Rows lent by an ``ImageDecoder``: `rows`, the first at `base`, `bytesPerRow` apart.
///
/// ```swift
/// for span in try decoder.lendRows(y: 256, count: 64) {
///     let row300 = span.rows.contains(300) ? span.base + (300 - span.rows.lowerBound) * span.bytesPerRow : nil
/// }
/// decoder.releaseRows(below: 320)      // rows above 320 may now be reused
/// ```
public struct LentRows: @unchecked Sendable {
    // Safety: the rows are read-only to the borrower, and valid until it releases them.
    public let rows: Range<Int>
    public let base: UnsafeRawPointer
    public let bytesPerRow: Int

    public init(rows: Range<Int>, base: UnsafeRawPointer, bytesPerRow: Int) {
        self.rows = rows; self.base = base; self.bytesPerRow = bytesPerRow
    }

    /// Row `y`'s first byte (`y` in `rows`).
    public func row(_ y: Int) -> UnsafeRawPointer { base + (y - rows.lowerBound) * bytesPerRow }
}

/// Streams rows into a file that appears, complete, only when ``finish()`` succeeds.
///
/// Encoders write to a temporary file in the destination's directory and rename it over the
/// destination at the end; ``abort()`` (or deinit without `finish`) removes the temporary file,
/// so a failed render never leaves a partial file.
public protocol ImageEncoder: AnyObject {
    /// The layout rows must be given in.
    var rowFormat: PixelFormat { get }
    /// Appends `count` rows, top to bottom.
    func writeRows(_ source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(DaguerreError)
    /// Completes the file and renames it into place. Throws if fewer rows than the height were written.
    func finish() throws(DaguerreError)
    /// Abandons the file; the destination is left untouched.
    func abort()
}
