// PNG encoding through libpng 1.6's full (row-streaming) API, via the setjmp glue in CDaguerreCodecs.
import CDaguerreCodecs
import DaguerreCore
import Foundation

/// Writes a PNG row by row: 8- or 16-bit gray, gray+alpha, RGB or RGBA, straight alpha.
///
/// 16-bit rows are given as native-endian `UInt16` (libpng swaps them to PNG's big-endian).
/// The colour space is recorded as an iCCP chunk when `options.iccProfile` is set, else as an
/// sRGB chunk (with its gAMA and cHRM fallbacks) when `options.isSRGB`.
/// The file is written through ``AtomicFile``: it appears only when ``finish()`` succeeds.
/// An encoder is for one render at a time: it is a non-Sendable class.
///
/// ```swift
/// let options = EncoderOptions(format: .png, width: 256, height: 256, rowFormat: .rgba16, isSRGB: true)
/// let png = try PNGEncoder(path: "out.png", options: options)
/// try png.writeRows(rows, bytesPerRow: 256 * 8, count: 256)
/// try png.finish()
/// ```
public final class PNGEncoder: BridgedEncoder {
    public init(path: String, options: EncoderOptions) throws(DaguerreError) {
        let channels: Int32
        switch options.rowFormat.layout {
        case .l: channels = 1
        case .la: channels = 2
        case .rgb: channels = 3
        case .rgba: channels = 4
        default:
            throw .unsupported(feature: "PNG rows in \(options.rowFormat)", hint: "Give PNG rows as L, LA, RGB or RGBA, 8 or 16 bits.")
        }
        let depth: Int32
        switch options.rowFormat.component {
        case .uint8: depth = 8
        case .uint16: depth = 16
        default:
            throw .unsupported(
                feature: "PNG rows in \(options.rowFormat)", hint: "PNG stores integers: convert float rows to 16-bit first.")
        }
        try options.limits.check(
            width: options.width, height: options.height,
            bytesPerPixel: options.rowFormat.bytesPerPixel, what: "PNG image")
        if options.width > 0x7FFF_FFFF || options.height > 0x7FFF_FFFF {
            throw .tooLarge(what: "PNG dimension", value: max(options.width, options.height), limit: 0x7FFF_FFFF)
        }
        try super.init(
            destination: try AtomicFile(destination: path), options: options,
            bridge: Bridge(
                format: "PNG", status: { dag_png_encoder_status($0) }, message: { dag_png_encoder_message($0) },
                write: { dag_png_encoder_write($0, $1, $2, $3) }, finish: { dag_png_encoder_finish($0) },
                destroy: { dag_png_encoder_destroy($0) })
        ) { stream in
            if let icc = options.iccProfile, !icc.isEmpty {
                return icc.withUnsafeBufferPointer {
                    dag_png_encoder_create(
                        stream, UInt32(options.width), UInt32(options.height), channels, depth,
                        $0.baseAddress, UInt32(clamping: $0.count), 0)
                }
            }
            return dag_png_encoder_create(
                stream, UInt32(options.width), UInt32(options.height), channels, depth,
                nil, 0, options.isSRGB ? 1 : 0)
        }
    }
}
