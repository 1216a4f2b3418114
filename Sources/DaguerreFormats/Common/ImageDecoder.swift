import DaguerreCore

/// Decodes rows of one image file on demand (I3: "sources decode only what is asked"); the
/// engine reads it through its own source protocol (DaguerreImage's `ImageFileRowSource`).
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
