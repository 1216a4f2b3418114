// Opens image files by their magic bytes and hands back the right decoder (libjpeg, libpng, libtiff, libheif).
import DaguerreCore
import Foundation

/// The entry point for reading: picks a decoder from the file's first bytes, never its name.
///
/// A `.jpg` that is really a PNG still opens, and a file that is none of the formats is an
/// `.unknownFormat` error rather than a codec's confusing complaint.
///
/// ```swift
/// let decoder = try ImageReader.open(path: "photo.jpg")
/// print(decoder.info.width, decoder.info.colorSpace)
/// let whole = try ImageReader.readAll(path: "small.png")   // a PixelBuffer, for tests and thumbnails
/// ```
public enum ImageReader {
    /// Opens the file at `path`. A missing or unreadable file is `.io`; an unknown format is
    /// `.unknownFormat`; a damaged header is `.corruptData` or `.truncated`.
    public static func open(path: String, limits: Limits = .default) throws(DaguerreError) -> any ImageDecoder {
        try open(source: .file(path), limits: limits)
    }

    /// Opens a whole file held in memory (the decoder keeps its own copy).
    public static func open(data: [UInt8], limits: Limits = .default) throws(DaguerreError) -> any ImageDecoder {
        try open(source: .memory(data), limits: limits)
    }

    static func open(source: ImageSource, limits: Limits) throws(DaguerreError) -> any ImageDecoder {
        if case .file(let path) = source {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw .io(operation: "open", path: path, reason: "it is a directory")
            }
        }
        let header = try source.prefix(16)
        switch ImageFileFormat.detect(header: header) {
        case .jpeg: return try JPEGDecoder(source: source, limits: limits)
        case .png: return try PNGDecoder(source: source, limits: limits)
        case .tiff: return try TIFFDecoder(source: source, limits: limits)
        case .heic: return try HEIFDecoder(source: source, limits: limits)
        case nil: throw .unknownFormat(path: source.displayPath)
        }
    }

    /// Decodes the whole image at `path` into a new buffer in the file's own pixel format, with
    /// the file's colour space and alpha mode. For small images and tests: renders stream rows.
    public static func readAll(path: String, limits: Limits = .default) throws(DaguerreError) -> PixelBuffer {
        try readAll(open(path: path, limits: limits), limits: limits)
    }

    /// Decodes the whole in-memory file `data` into a new buffer.
    public static func readAll(data: [UInt8], limits: Limits = .default) throws(DaguerreError) -> PixelBuffer {
        try readAll(open(data: data, limits: limits), limits: limits)
    }

    /// Reads every row of `decoder` into a new buffer.
    public static func readAll(_ decoder: any ImageDecoder, limits: Limits = .default) throws(DaguerreError) -> PixelBuffer {
        let info = decoder.info
        var buffer = try PixelBuffer(
            width: info.width, height: info.height, format: info.pixelFormat,
            colorSpace: info.colorSpace, alpha: info.alpha, limits: limits)
        let stride = buffer.bytesPerRow
        var failure: DaguerreError?
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            do throws(DaguerreError) { try decoder.readRows(y: 0, count: info.height, into: base, bytesPerRow: stride) } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return buffer
    }
}
