// JPEG encoding through libjpeg-turbo's libjpeg API (via the setjmp glue in CDaguerreCodecs).
import CDaguerreCodecs
import DaguerreCore
import Foundation

/// Writes a baseline JPEG row by row, with an optional ICC profile (APP2).
///
/// The libjpeg API is used rather than TurboJPEG because TurboJPEG 2.1 cannot embed an ICC
/// profile, and because it streams scanlines: a 400-megapixel render never needs the whole
/// image in memory. Quality 0...1 maps to libjpeg's 1...100; chroma is 4:2:0 unless
/// `chromaSubsampling` is false (4:4:4). Huffman tables are the standard ones (no optimisation
/// pass), as Core Image writes them.
///
/// The file is written through ``AtomicFile``: it appears only when ``finish()`` succeeds.
/// An encoder is for one render at a time: it is a non-Sendable class.
///
/// ```swift
/// let options = EncoderOptions(format: .jpeg, width: 640, height: 480, rowFormat: .rgb8, quality: 0.85)
/// let jpeg = try JPEGEncoder(path: "out.jpg", options: options)
/// try jpeg.writeRows(pixels, bytesPerRow: 640 * 3, count: 480)
/// try jpeg.finish()
/// ```
public final class JPEGEncoder: BridgedEncoder {
    public convenience init(path: String, options: EncoderOptions) throws(DaguerreError) {
        try self.init(destination: try AtomicFile(destination: path), options: options)
    }

    /// An encoder writing into `destination` (a ``MemoryDestination`` keeps the bytes).
    public init(destination: any EncoderDestination, options: EncoderOptions) throws(DaguerreError) {
        let quality = try Self.libjpegQuality(options.quality)
        guard options.rowFormat == .rgb8 || options.rowFormat == .l8 else {
            throw .unsupported(feature: "JPEG rows in \(options.rowFormat)", hint: "Give JPEG rows as RGB8 or L8.")
        }
        try options.limits.check(
            width: options.width, height: options.height,
            bytesPerPixel: options.rowFormat.bytesPerPixel, what: "JPEG image")
        if options.width > 65_500 || options.height > 65_500 {
            throw .tooLarge(what: "JPEG dimension", value: max(options.width, options.height), limit: 65_500)
        }
        if let icc = options.iccProfile, icc.count > 255 * 65_519 {
            throw .tooLarge(what: "ICC profile for JPEG (bytes)", value: icc.count, limit: 255 * 65_519)
        }
        let markers = try JPEGSegment.bridged(options.jpegSegments)
        try super.init(
            destination: destination, options: options,
            bridge: Bridge(
                format: "JPEG", status: { dag_jpeg_encoder_status($0) }, message: { dag_jpeg_encoder_message($0) },
                write: { dag_jpeg_encoder_write($0, $1, $2, $3) }, finish: { dag_jpeg_encoder_finish($0) },
                destroy: { dag_jpeg_encoder_destroy($0) })
        ) { stream in
            Self.create(stream, options: options, quality: quality, markers: markers)
        }
    }

    /// libjpeg's 1...100 from Core Image's 0...1 quality; anything else is refused.
    static func libjpegQuality(_ q: Double) throws(DaguerreError) -> Int32 {
        guard q.isFinite, (0...1).contains(q) else {
            throw .invalidArgument(what: "JPEG quality \(q)", problem: "must be between 0 and 1")
        }
        return Int32(max(1, min(100, (q * 100).rounded())))
    }

    /// The C compressor on `stream`, for RGB8 or L8 rows, with `markers` after SOI.
    static func create(
        _ stream: UnsafeMutablePointer<FILE>, options: EncoderOptions, quality: Int32,
        markers: [UInt8]
    ) -> OpaquePointer? {
        let components: Int32 = options.rowFormat == .l8 ? 1 : 3
        let icc = options.iccProfile ?? []
        return icc.withUnsafeBufferPointer { iccBytes in
            markers.withUnsafeBufferPointer { m in
                dag_jpeg_encoder_create(
                    stream, UInt32(options.width), UInt32(options.height), components, quality,
                    options.chromaSubsampling ? 1 : 0, icc.isEmpty ? nil : iccBytes.baseAddress,
                    UInt32(icc.count), m.isEmpty ? nil : m.baseAddress, m.count)
            }
        }
    }
}
