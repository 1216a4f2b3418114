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
public final class PNGEncoder: ImageEncoder {
    public let rowFormat: PixelFormat
    public let options: EncoderOptions
    private let file: AtomicFile
    private var handle: OpaquePointer?
    private var ledger: RowLedger

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
            throw .unsupported(feature: "PNG rows in \(options.rowFormat)", hint: "PNG stores integers: convert float rows to 16-bit first.")
        }
        try options.limits.check(width: options.width, height: options.height,
                                 bytesPerPixel: options.rowFormat.bytesPerPixel, what: "PNG image")
        if options.width > 0x7FFF_FFFF || options.height > 0x7FFF_FFFF {
            throw .tooLarge(what: "PNG dimension", value: max(options.width, options.height), limit: 0x7FFF_FFFF)
        }
        self.rowFormat = options.rowFormat
        self.options = options
        ledger = RowLedger(format: "PNG", height: options.height, rowBytes: options.width * options.rowFormat.bytesPerPixel)
        file = try AtomicFile(destination: path)
        let stream = try file.stream()
        let made: OpaquePointer?
        if let icc = options.iccProfile, !icc.isEmpty {
            made = icc.withUnsafeBufferPointer {
                dag_png_encoder_create(stream, UInt32(options.width), UInt32(options.height), channels, depth,
                                       $0.baseAddress, UInt32(clamping: $0.count), 0)
            }
        } else {
            made = dag_png_encoder_create(stream, UInt32(options.width), UInt32(options.height), channels, depth,
                                          nil, 0, options.isSRGB ? 1 : 0)
        }
        guard let made else {
            file.abort()
            throw .tooLarge(what: "PNG encoder memory", value: 0, limit: 0)
        }
        handle = made
        let status = dag_png_encoder_status(made)
        if status != DAG_OK { throw fail(status) }
    }

    deinit { dag_png_encoder_destroy(handle) }

    private func fail(_ status: dag_status) -> DaguerreError {
        let message = handle.map { bridgeMessage(dag_png_encoder_message($0)) } ?? ""
        abort()
        return .codec(status, format: "PNG", message: message, path: file.destination, operation: "write")
    }

    public func writeRows(_ source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(DaguerreError) {
        try ledger.checkWrite(count: count, bytesPerRow: bytesPerRow, open: handle != nil)
        guard let h = handle else { return }
        let status = dag_png_encoder_write(h, source.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count))
        if status != DAG_OK { throw fail(status) }
        ledger.advance(count)
    }

    public func finish() throws(DaguerreError) {
        do { try ledger.checkComplete(open: handle != nil, destination: file.destination) } catch { if handle != nil { abort() }; throw error }
        guard let h = handle else { return }
        let status = dag_png_encoder_finish(h)
        if status != DAG_OK { throw fail(status) }
        ledger.markFinished()
        dag_png_encoder_destroy(h)
        handle = nil
        try file.finish()
    }

    public func abort() {
        dag_png_encoder_destroy(handle)
        handle = nil
        file.abort()
    }
}
