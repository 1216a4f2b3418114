// PNG decoding through libpng 1.6's full (row-streaming) API, via the setjmp glue in CDaguerreCodecs.
import CDaguerreCodecs
import DaguerreCore
import Foundation

/// Decodes a PNG row by row.
///
/// Palette, tRNS and 1/2/4-bit gray are expanded to 8 bits, so rows are L8, LA8, RGB8 or RGBA8,
/// or L16, LA16, RGB16 or RGBA16 (native-endian `UInt16`) for 16-bit files. Alpha is straight,
/// as PNG stores it. The colour space comes from iCCP, else the sRGB chunk, else sRGB (colour)
/// or ``ColorSpace/genericGray`` (gray).
///
/// The size in IHDR is checked against ``Limits`` before libpng reads anything else, so a
/// 16-byte file that claims a terapixel is refused with `.tooLarge` at once.
///
/// Non-interlaced files stream: rows are decoded forward, and asking for an earlier row
/// restarts from the top. An interlaced (Adam7) file can only be decoded whole, so the first
/// `readRows` decodes it into memory (after checking ``Limits``) and serves rows from there.
/// A decoder is for one render at a time: it is a non-Sendable class.
///
/// ```swift
/// let png = try PNGDecoder(path: "in.png")
/// var row = [UInt8](repeating: 0, count: png.info.width * png.info.pixelFormat.bytesPerPixel)
/// try png.readRows(y: 0, count: 1, into: &row, bytesPerRow: row.count)
/// ```
public final class PNGDecoder: ImageDecoder {
    public private(set) var info: ImageFileInfo
    private let source: ImageSource
    private let limits: Limits
    private var handle: OpaquePointer?
    private var header = dag_png_header()
    private var nextRow = 0
    private var columns: Range<Int>
    /// One full decoded row, when only some columns are wanted.
    private var scratch: [UInt8] = []
    /// The whole image, for interlaced files (decoded at the first read).
    private var whole: [UInt8]?

    public convenience init(path: String, limits: Limits = .default) throws(DaguerreError) {
        try self.init(source: .file(path), limits: limits)
    }

    /// Reads a PNG file held in memory (the bytes are copied).
    public convenience init(data: [UInt8], limits: Limits = .default) throws(DaguerreError) {
        try self.init(source: .memory(data), limits: limits)
    }

    init(source: ImageSource, limits: Limits) throws(DaguerreError) {
        self.source = source
        self.limits = limits
        // Check IHDR's claim before libpng sees the file.
        try Self.checkIHDR(try source.prefix(33), limits: limits, path: source.path)
        let (h, hdr) = try Self.openHandle(source, limits: limits)
        handle = h
        header = hdr
        let format: PixelFormat
        switch (hdr.channels, hdr.output_depth) {
        case (1, 8): format = .l8
        case (2, 8): format = .la8
        case (3, 8): format = .rgb8
        case (4, 8): format = .rgba8
        case (1, 16): format = .l16
        case (2, 16): format = .la16
        case (3, 16): format = .rgb16
        case (4, 16): format = .rgba16
        default:
            dag_png_decoder_destroy(h)
            handle = nil
            throw .unsupported(
                feature: "PNG with \(hdr.channels) channels of \(hdr.output_depth) bits",
                hint: "Re-save the PNG as 8- or 16-bit RGB(A) or gray.")
        }
        let gray = hdr.channels <= 2
        info = ImageFileInfo(
            format: .png, width: Int(hdr.width), height: Int(hdr.height), pixelFormat: format,
            alpha: .straight, iccProfile: nil,
            colorSpace: gray ? .genericGray : .sRGB, randomAccess: false)
        columns = 0..<Int(hdr.width)
        do throws(DaguerreError) {
            try limits.check(width: info.width, height: info.height, bytesPerPixel: format.bytesPerPixel, what: "PNG image")
            guard hdr.rowbytes == info.width * format.bytesPerPixel else {
                throw DaguerreError.corruptData(
                    format: "PNG", detail: "libpng's row size \(hdr.rowbytes) disagrees with \(info.width) \(format) pixels",
                    path: source.path)
            }
            // (An sRGB chunk, or no colour chunk at all, leaves the default set above.)
            let status = info.adoptEmbeddedICC(gray: gray) { dag_png_decoder_icc(h, $0, $1) }
            if status != DAG_OK { throw failure(status) }
        } catch {
            dag_png_decoder_destroy(handle)
            handle = nil
            throw error
        }
    }

    deinit { dag_png_decoder_destroy(handle) }

    /// Refuses a PNG whose IHDR claims more than `limits` allow, from the first 33 bytes.
    static func checkIHDR(_ b: [UInt8], limits: Limits, path: String?) throws(DaguerreError) {
        guard b.count >= 33 else {
            if b.count >= 8 { throw .truncated(format: "PNG", path: path) }
            throw .corruptData(format: "PNG", detail: "too short for a PNG signature", path: path)
        }
        guard b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 else {
            throw .corruptData(format: "PNG", detail: "the first chunk is not IHDR", path: path)
        }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        let width = be32(16)
        let height = be32(20)
        let depth = Int(b[24])
        let colorType = Int(b[25])
        let channels: Int
        switch colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 3: channels = 4
        case 4: channels = 2
        default: channels = 4
        }
        try limits.check(width: width, height: height, bytesPerPixel: channels * (depth == 16 ? 2 : 1), what: "PNG image")
    }

    private static func openHandle(_ source: ImageSource, limits: Limits) throws(DaguerreError) -> (OpaquePointer, dag_png_header) {
        let opened: OpaquePointer?
        switch source {
        case .file(let path):
            guard let o = dag_png_decoder_open_file(path) else {
                throw .io(operation: "open", path: path, reason: String(cString: strerror(errno)))
            }
            opened = o
        case .memory(let bytes):
            opened = bytes.withUnsafeBufferPointer { dag_png_decoder_open_memory($0.baseAddress, $0.count) }
        }
        guard let h = opened else { throw .tooLarge(what: "PNG decoder memory", value: 0, limit: 0) }
        var header = dag_png_header()
        let maxDimension = UInt32(clamping: min(limits.maxDimension, 0x7FFF_FFFF))
        let status = dag_png_decoder_read_info(h, maxDimension, 64 << 20, &header)
        if status != DAG_OK {
            let message = bridgeMessage(dag_png_decoder_message(h))
            dag_png_decoder_destroy(h)
            if status == DAG_TOO_LARGE {
                throw .tooLarge(what: "PNG image dimension (\(message))", value: Int(maxDimension) + 1, limit: Int(maxDimension))
            }
            throw .codec(status, format: "PNG", message: message, path: source.path)
        }
        return (h, header)
    }

    /// The error for a failed libpng call; the handle is dropped (libpng cannot continue).
    private func failure(_ status: dag_status) -> DaguerreError {
        let message = handle.map { bridgeMessage(dag_png_decoder_message($0)) } ?? ""
        dag_png_decoder_destroy(handle)
        handle = nil
        nextRow = 0
        return .codec(status, format: "PNG", message: message, path: source.path)
    }

    public func setColumns(_ requested: Range<Int>) throws(DaguerreError) -> Range<Int> {
        guard !requested.isEmpty, requested.lowerBound >= 0, requested.upperBound <= info.width else {
            throw .invalidArgument(what: "Columns \(requested)", problem: "must be a non-empty range within 0..<\(info.width)")
        }
        columns = requested
        return requested
    }

    public func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        guard y >= 0, count >= 0, y <= info.height - count else {
            throw .invalidArgument(what: "Rows \(y)..<\(y + count)", problem: "must lie within 0..<\(info.height)")
        }
        let bpp = info.pixelFormat.bytesPerPixel
        let fullRow = info.width * bpp
        guard bytesPerRow >= columns.count * bpp else {
            throw .invalidArgument(what: "bytesPerRow \(bytesPerRow)", problem: "must be at least \(columns.count * bpp)")
        }
        if count == 0 { return }
        if header.interlaced != 0 {
            let image = try wholeImage()
            image.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                for i in 0..<count {
                    (destination + i * bytesPerRow).copyMemory(
                        from: base + (y + i) * fullRow + columns.lowerBound * bpp,
                        byteCount: columns.count * bpp)
                }
            }
            return
        }
        if y < nextRow || handle == nil { try reopen() }
        guard let h = handle else { throw .corruptData(format: "PNG", detail: "decoder closed", path: source.path) }
        if scratch.count != fullRow { scratch = [UInt8](repeating: 0, count: fullRow) }
        // Skip forward by decoding into the scratch row.
        while nextRow < y {
            let s = scratch.withUnsafeMutableBufferPointer { dag_png_decoder_read_rows(h, $0.baseAddress, fullRow, 1) }
            if s != DAG_OK { throw failure(s) }
            nextRow += 1
        }
        if columns.count == info.width {
            let s = dag_png_decoder_read_rows(h, destination.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count))
            if s != DAG_OK { throw failure(s) }
            nextRow += count
            return
        }
        for i in 0..<count {
            let s = scratch.withUnsafeMutableBufferPointer { dag_png_decoder_read_rows(h, $0.baseAddress, fullRow, 1) }
            if s != DAG_OK { throw failure(s) }
            nextRow += 1
            scratch.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                (destination + i * bytesPerRow).copyMemory(from: base + columns.lowerBound * bpp, byteCount: columns.count * bpp)
            }
        }
    }

    /// Starts again from the top of the file.
    private func reopen() throws(DaguerreError) {
        dag_png_decoder_destroy(handle)
        handle = nil
        nextRow = 0
        let (h, hdr) = try Self.openHandle(source, limits: limits)
        guard hdr.width == header.width, hdr.height == header.height, hdr.channels == header.channels,
            hdr.output_depth == header.output_depth
        else {
            dag_png_decoder_destroy(h)
            throw .corruptData(format: "PNG", detail: "the header changed between reads", path: source.path)
        }
        handle = h
    }

    /// Decodes an interlaced image whole (once).
    private func wholeImage() throws(DaguerreError) -> [UInt8] {
        if let whole { return whole }
        let bpp = info.pixelFormat.bytesPerPixel
        try limits.check(width: info.width, height: info.height, bytesPerPixel: bpp, what: "Interlaced PNG image")
        if handle == nil || nextRow != 0 { try reopen() }
        guard let h = handle else { throw .corruptData(format: "PNG", detail: "decoder closed", path: source.path) }
        let rowBytes = info.width * bpp
        var image = [UInt8](repeating: 0, count: rowBytes * info.height)
        let s = image.withUnsafeMutableBufferPointer { dag_png_decoder_read_image(h, $0.baseAddress, rowBytes) }
        if s != DAG_OK { throw failure(s) }
        nextRow = info.height
        whole = image
        dag_png_decoder_destroy(h)
        handle = nil
        return image
    }
}
