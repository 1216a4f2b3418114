// Creates the encoder for a format (libjpeg, libpng, libtiff or libheif), writing through AtomicFile.
import DaguerreCore

/// The entry point for writing: the encoder for `options.format`.
///
/// Creating the encoder creates its temporary file, so an unwritable destination is reported
/// here, before anything is rendered.
///
/// ```swift
/// let options = EncoderOptions(format: .png, width: w, height: h, rowFormat: .rgba8, isSRGB: true)
/// let encoder = try ImageWriter.create(path: "out.png", options: options)
/// try encoder.writeRows(rows, bytesPerRow: w * 4, count: h)
/// try encoder.finish()
/// ```
public enum ImageWriter {
    public static func create(path: String, options: EncoderOptions) throws(DaguerreError) -> any ImageEncoder {
        switch options.format {
        case .jpeg: return try JPEGEncoder(path: path, options: options)
        case .png: return try PNGEncoder(path: path, options: options)
        case .tiff: return try TIFFEncoder(path: path, options: options)
        case .heic: return try HEIFEncoder(path: path, options: options)
        }
    }

    /// Writes a whole buffer (the buffer's format must be one `options.format` accepts).
    public static func write(_ buffer: PixelBuffer, to path: String, options: EncoderOptions) throws(DaguerreError) {
        guard buffer.width == options.width, buffer.height == options.height, buffer.format == options.rowFormat else {
            throw .invalidArgument(
                what: "Buffer \(buffer.width)×\(buffer.height) \(buffer.format)",
                problem: "must match the options' \(options.width)×\(options.height) \(options.rowFormat)")
        }
        let encoder = try create(path: path, options: options)
        var failure: DaguerreError?
        buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            do throws(DaguerreError) { try encoder.writeRows(base, bytesPerRow: buffer.bytesPerRow, count: buffer.height) } catch {
                failure = error
            }
        }
        if let failure {
            encoder.abort()
            throw failure
        }
        try encoder.finish()
    }
}
