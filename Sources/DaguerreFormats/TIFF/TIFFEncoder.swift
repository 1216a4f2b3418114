// TIFF encoding through libtiff 4.5 (scanline writing into strips), via the glue in CDaguerreCodecs.
import CDaguerreCodecs
import DaguerreCore
import Foundation

/// Writes a TIFF scanline by scanline, in strips of about ``stripBytes``.
///
/// Rows may be RGB(A) or L(A) in 8 or 16 bits, or RGB(A) half or single float (written with
/// SampleFormat IEEEFP, which Photoshop, libvips and tifffile read). Compression is none, LZW or
/// deflate, with horizontal differencing (predictor 2) for integers and the floating-point
/// predictor (3) for floats, which is what makes LZW and deflate pay off on photographs. Alpha is
/// written as ExtraSamples = unassociated, since rows carry straight alpha. `options.iccProfile`
/// goes into tag 34675. Files that could pass 4 GiB are written as BigTIFF.
///
/// The file is written through ``AtomicFile``: it appears only when ``finish()`` succeeds.
/// An encoder is for one render at a time: it is a non-Sendable class.
///
/// ```swift
/// let options = EncoderOptions(format: .tiff, width: 1024, height: 768, rowFormat: .rgbah, tiffCompression: .deflate)
/// let tiff = try TIFFEncoder(path: "out.tif", options: options)
/// try tiff.writeRows(rows, bytesPerRow: 1024 * 8, count: 768)
/// try tiff.finish()
/// ```
public final class TIFFEncoder: ImageEncoder {
    public let rowFormat: PixelFormat
    public let options: EncoderOptions
    /// The uncompressed size a strip aims at. libtiff hands the file one strip per write; the
    /// staging file (``AtomicFile``) gathers them into 4 MiB writes whatever their size, so this
    /// only bounds libtiff's strip buffer. Strips of this size are still small next to any
    /// reader's buffers.
    public static let stripBytes = 512 << 10
    private let file: AtomicFile
    private var handle: OpaquePointer?
    private var ledger: RowLedger
    /// libtiff's predictors difference the row in place, so with compression each row is copied
    /// here first. Empty for uncompressed files, which are written as raw strips instead.
    private var scratch: [UInt8]
    private let rowsPerStrip: Int
    /// Uncompressed files: rows of a strip that arrived in pieces, gathered until it is whole.
    /// Whole strips in the caller's rows go to the file from there (`TIFFWriteRawStrip`),
    /// with no copy through libtiff's strip buffer (a 144 MB memmove in a 24 MP 16-bit TIFF).
    private var pending: [UInt8] = []
    private var pendingRows = 0

    public init(path: String, options: EncoderOptions) throws(DaguerreError) {
        let format = options.rowFormat
        let color: Int
        let photometric: UInt16
        switch format.layout {
        case .l, .la:
            color = 1
            photometric = TIFFTag.photometricMinIsBlack
        case .rgb, .rgba:
            color = 3
            photometric = TIFFTag.photometricRGB
        default:
            throw .unsupported(feature: "TIFF rows in \(format)", hint: "Give TIFF rows as RGB(A) or L(A).")
        }
        if format.component.isFloat && color == 1 {
            throw .unsupported(feature: "TIFF rows in \(format)", hint: "Write float images as RGB(A)h or RGB(A)f.")
        }
        try options.limits.check(width: options.width, height: options.height, bytesPerPixel: format.bytesPerPixel, what: "TIFF image")
        if options.width > Int(UInt32.max) || options.height > Int(UInt32.max) {
            throw .tooLarge(what: "TIFF dimension", value: max(options.width, options.height), limit: Int(UInt32.max))
        }
        if let icc = options.iccProfile, icc.count > Int(UInt32.max) {
            throw .tooLarge(what: "ICC profile for TIFF (bytes)", value: icc.count, limit: Int(UInt32.max))
        }
        self.rowFormat = format
        self.options = options
        ledger = RowLedger(format: "TIFF", height: options.height, rowBytes: options.width * options.rowFormat.bytesPerPixel)
        let rowBytes = options.width * format.bytesPerPixel
        scratch = options.tiffCompression == .none ? [] : [UInt8](repeating: 0, count: rowBytes)
        rowsPerStrip = max(1, min(options.height, Self.stripBytes / max(1, rowBytes)))
        file = try AtomicFile(destination: path)
        // Classic TIFF offsets are 32-bit: leave room for the directory and incompressible data.
        let (total, overflow) = rowBytes.multipliedReportingOverflow(by: options.height)
        let mode = overflow || total > 3_900_000_000 ? "w8" : "w"
        guard let t = dag_tiff_open_direct(file.direct, path, mode, UInt64(clamping: options.limits.maxBufferBytes)) else {
            file.abort()
            throw .tooLarge(what: "TIFF encoder memory", value: 0, limit: 0)
        }
        guard dag_tiff_is_open(t) != 0 else {
            let message = bridgeMessage(dag_tiff_message(t))
            _ = dag_tiff_close(t, nil, 0)
            file.abort()
            throw .io(operation: "write", path: path, reason: message)
        }
        handle = t
        let compression: UInt16
        switch options.tiffCompression {
        case .none: compression = TIFFTag.compressionNone
        case .lzw: compression = TIFFTag.compressionLZW
        case .deflate: compression = TIFFTag.compressionAdobeDeflate
        }
        var ok = true
        ok = ok && dag_tiff_set_u32(t, TIFFTag.imageWidth, UInt32(options.width)) != 0
        ok = ok && dag_tiff_set_u32(t, TIFFTag.imageLength, UInt32(options.height)) != 0
        ok = ok && dag_tiff_set_u16(t, TIFFTag.bitsPerSample, UInt16(format.component.size * 8)) != 0
        ok = ok && dag_tiff_set_u16(t, TIFFTag.samplesPerPixel, UInt16(format.channels)) != 0
        ok = ok && dag_tiff_set_u16(t, TIFFTag.photometric, photometric) != 0
        ok = ok && dag_tiff_set_u16(t, TIFFTag.planarConfig, TIFFTag.planarContiguous) != 0
        ok = ok && dag_tiff_set_u16(t, TIFFTag.orientation, 1) != 0
        // Baseline TIFF requires a resolution; 72 pixels per inch, as image editors write.
        ok = ok && dag_tiff_set_rational(t, TIFFTag.xResolution, 72) != 0
        ok = ok && dag_tiff_set_rational(t, TIFFTag.yResolution, 72) != 0
        ok = ok && dag_tiff_set_u16(t, TIFFTag.resolutionUnit, 2) != 0
        ok =
            ok
            && dag_tiff_set_u16(
                t, TIFFTag.sampleFormat,
                format.component.isFloat ? TIFFTag.sampleFormatIEEEFP : TIFFTag.sampleFormatUInt) != 0
        ok = ok && dag_tiff_set_u16(t, TIFFTag.compression, compression) != 0
        if compression != TIFFTag.compressionNone {
            ok = ok && dag_tiff_set_u16(t, TIFFTag.predictor, format.component.isFloat ? 3 : 2) != 0
        }
        ok = ok && dag_tiff_set_u32(t, TIFFTag.rowsPerStrip, UInt32(rowsPerStrip)) != 0
        if format.hasAlpha {
            let extra: [UInt16] = [TIFFTag.extraUnassociatedAlpha]
            ok = ok && extra.withUnsafeBufferPointer { dag_tiff_set_extra_samples(t, 1, $0.baseAddress) } != 0
        }
        if let icc = options.iccProfile, !icc.isEmpty {
            ok = ok && icc.withUnsafeBufferPointer { dag_tiff_set_icc(t, UInt32($0.count), $0.baseAddress) } != 0
        }
        if !ok { throw fail("libtiff refused a tag") }
    }

    deinit { if let handle { _ = dag_tiff_close(handle, nil, 0) } }

    /// libtiff's message, with the file system's cause when there is one.
    private static func reason(_ message: String, _ cause: String?) -> String { cause.map { "\(message) (\($0))" } ?? message }

    private func fail(_ fallback: String) -> DaguerreError {
        let message = handle.map { bridgeMessage(dag_tiff_message($0)) } ?? ""
        let cause = file.failureCause
        abort()
        return .io(operation: "write", path: file.destination, reason: Self.reason(message.isEmpty ? fallback : message, cause))
    }

    public func writeRows(_ source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(DaguerreError) {
        try ledger.checkWrite(count: count, bytesPerRow: bytesPerRow, open: handle != nil)
        guard let t = handle else { return }
        if scratch.isEmpty { return try writeStrips(t, source, bytesPerRow: bytesPerRow, count: count) }
        let rowBytes = ledger.rowBytes
        for i in 0..<count {
            let row = source + i * bytesPerRow
            let y = UInt32(ledger.written)
            let ok = scratch.withUnsafeMutableBytes { raw -> Bool in
                guard let base = raw.baseAddress else { return false }
                base.copyMemory(from: row, byteCount: rowBytes)
                return dag_tiff_write_scanline(t, base, y) != 0
            }
            if !ok { throw fail("libtiff could not write row \(ledger.written)") }
            ledger.advance(1)
        }
    }

    /// Uncompressed rows, as raw strips: a strip lying whole in the caller's rows (tightly
    /// packed) is written from there; rows of a strip split between calls are gathered first.
    /// Without compression, a predictor or byte swapping (rows are in the machine's order, as
    /// is the file), a raw strip holds the same bytes libtiff's scanline writer would put there.
    private func writeStrips(_ t: OpaquePointer, _ source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(DaguerreError) {
        let rowBytes = ledger.rowBytes
        var i = 0
        while i < count {
            let strip = ledger.written / rowsPerStrip
            let rows = min(rowsPerStrip, options.height - strip * rowsPerStrip)
            if pendingRows == 0, count - i >= rows, bytesPerRow == rowBytes {
                guard dag_tiff_write_raw_strip(t, UInt32(strip), source + i * bytesPerRow, rows * rowBytes) != 0 else {
                    throw fail("libtiff could not write strip \(strip)")
                }
                i += rows
                ledger.advance(rows)
                continue
            }
            if pending.isEmpty { pending = [UInt8](repeating: 0, count: rowsPerStrip * rowBytes) }
            let take = min(rows - pendingRows, count - i)
            pending.withUnsafeMutableBytes { raw in
                for k in 0..<take {
                    (raw.baseAddress! + (pendingRows + k) * rowBytes).copyMemory(from: source + (i + k) * bytesPerRow, byteCount: rowBytes)
                }
            }
            pendingRows += take
            i += take
            ledger.advance(take)
            if pendingRows == rows {
                let ok = pending.withUnsafeBytes { dag_tiff_write_raw_strip(t, UInt32(strip), $0.baseAddress, rows * rowBytes) != 0 }
                guard ok else { throw fail("libtiff could not write strip \(strip)") }
                pendingRows = 0
            }
        }
    }

    public func finish() throws(DaguerreError) {
        do { try ledger.checkComplete(open: handle != nil, destination: file.destination) } catch {
            if handle != nil { abort() }
            throw error
        }
        guard let t = handle else { return }
        handle = nil
        var buffer = [CChar](repeating: 0, count: 512)
        let status = dag_tiff_close(t, &buffer, buffer.count)
        if status != DAG_OK {
            let cause = file.failureCause
            file.abort()
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .io(
                operation: "write", path: file.destination,
                reason: Self.reason(message.isEmpty ? "libtiff could not finish the file" : message, cause))
        }
        try file.finish()
    }

    public func abort() {
        if let handle { _ = dag_tiff_close(handle, nil, 0) }
        handle = nil
        file.abort()
    }
}
