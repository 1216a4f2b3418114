// JPEG decoding through libjpeg-turbo's libjpeg API (via the setjmp glue in CDaguerreCodecs).
import CDaguerreCodecs
import DaguerreCore
import Foundation

/// Decodes a baseline or progressive JPEG, row band by row band.
///
/// Colour JPEGs decode to RGB8 and grayscale ones to L8, with libjpeg's defaults (the accurate
/// integer DCT and fancy upsampling), so the pixels equal what Pillow and most viewers produce.
/// CMYK and YCCK files are refused: they need a colour conversion Daguerre does not do yet.
///
/// Damaged data is an error, never grey pixels: libjpeg only *warns* when a file ends early or
/// its entropy-coded data is corrupt, and the bridge records those warnings so `readRows`
/// throws `.truncated` or `.corruptData`.
///
/// Decoding is sequential. `setColumns` uses `jpeg_crop_scanline`, `readRows` skips forward
/// with `jpeg_skip_scanlines`, and a request for a row above the last one read restarts from
/// the top of the file. A decoder is for one render at a time: it is a non-Sendable class.
///
/// ```swift
/// let jpeg = try JPEGDecoder(path: "in.jpg")
/// let cols = try jpeg.setColumns(1000..<2000)       // widened to iMCU boundaries
/// try jpeg.readRows(y: 0, count: 16, into: buffer, bytesPerRow: cols.count * 3)
/// ```
public final class JPEGDecoder: ImageDecoder {
    public private(set) var info: ImageFileInfo
    private let source: ImageSource
    private let limits: Limits
    private var handle: OpaquePointer?
    private var started = false
    /// The columns libjpeg decodes (full width unless `setColumns` cropped).
    private var columns: Range<Int>
    /// What `setColumns` asked for, to crop the same way after a restart.
    private var requestedColumns: Range<Int>?
    /// 1, or 2, 4 or 8 for a decode at that fraction of the stored size (``init(data:limits:reducedBy:)``).
    private let reduction: Int

    /// Opens the JPEG file at `path` and reads its header.
    public convenience init(path: String, limits: Limits = .default) throws(DaguerreError) {
        try self.init(source: .file(path), limits: limits)
    }

    /// Reads a JPEG file held in memory (the bytes are copied).
    public convenience init(data: [UInt8], limits: Limits = .default) throws(DaguerreError) {
        try self.init(source: .memory(data), limits: limits)
    }

    /// Reads a JPEG held in memory at 1/`reducedBy` of its size (2, 4 or 8), scaled by libjpeg
    /// in the DCT domain: each side is the stored one divided and rounded up, and the decode
    /// costs about the reduced size's share. Columns are not cropped: ``setColumns(_:)`` gives
    /// the whole width.
    ///
    /// ```swift
    /// let quarter = try JPEGDecoder(data: bytes, reducedBy: 4)   // 4032×3024 → 1008×756
    /// ```
    public convenience init(data: [UInt8], limits: Limits = .default, reducedBy reduction: Int) throws(DaguerreError) {
        guard [1, 2, 4, 8].contains(reduction) else {
            throw .invalidArgument(what: "JPEG reduction 1/\(reduction)", problem: "libjpeg scales by 1/2, 1/4 or 1/8 (or 1)")
        }
        try self.init(source: .memory(data), limits: limits, reduction: reduction)
    }

    init(source: ImageSource, limits: Limits, reduction: Int = 1) throws(DaguerreError) {
        if case .memory(let bytes) = source, bytes.isEmpty { throw .truncated(format: "JPEG", path: nil) }
        self.source = source
        self.limits = limits
        self.reduction = reduction
        let (h, header) = try Self.openHandle(source, limits: limits)
        handle = h
        let gray = header.components == 1
        // Placeholder until the checks below pass; `info` is complete before init returns.
        info = ImageFileInfo(
            format: .jpeg, width: (Int(header.width) + reduction - 1) / reduction,
            height: (Int(header.height) + reduction - 1) / reduction,
            pixelFormat: gray ? .l8 : .rgb8, alpha: .straight, iccProfile: nil,
            colorSpace: gray ? .genericGray : .sRGB, randomAccess: false)
        columns = 0..<Int(header.width)
        do throws(DaguerreError) {
            switch header.color_space {
            case 4, 5:
                throw DaguerreError.unsupported(
                    feature: "CMYK and YCCK JPEG files (\(source.displayPath))",
                    hint: "Convert the file to RGB first, e.g. `convert in.jpg -colorspace sRGB out.jpg`.")
            default: break
            }
            guard header.components == 1 || header.components == 3 else {
                throw DaguerreError.unsupported(
                    feature: "JPEG files with \(header.components) components",
                    hint: "Only grayscale and YCbCr/RGB JPEG files are read; convert the file to RGB.")
            }
            try limits.check(width: info.width, height: info.height, bytesPerPixel: info.pixelFormat.bytesPerPixel, what: "JPEG image")
            let status = info.adoptEmbeddedICC(gray: gray) { dag_jpeg_decoder_icc(h, $0, $1) }
            if status != DAG_OK { throw failure(status) }
        } catch {
            dag_jpeg_decoder_destroy(h)
            handle = nil
            throw error
        }
    }

    deinit { dag_jpeg_decoder_destroy(handle) }

    private static func openHandle(_ source: ImageSource, limits: Limits) throws(DaguerreError) -> (OpaquePointer, dag_jpeg_header) {
        let opened: OpaquePointer?
        switch source {
        case .file(let path):
            guard let o = dag_jpeg_decoder_open_file(path) else {
                throw .io(operation: "open", path: path, reason: String(cString: strerror(errno)))
            }
            opened = o
        case .memory(let bytes):
            opened = bytes.withUnsafeBufferPointer { dag_jpeg_decoder_open_memory($0.baseAddress, $0.count) }
        }
        guard let h = opened else { throw .tooLarge(what: "JPEG decoder memory", value: 0, limit: 0) }
        var header = dag_jpeg_header()
        let status = dag_jpeg_decoder_read_header(h, Int(clamping: limits.maxBufferBytes), &header)
        if status != DAG_OK {
            let warning = dag_jpeg_decoder_take_warning(h)
            let message = bridgeMessage(dag_jpeg_decoder_message(h))
            dag_jpeg_decoder_destroy(h)
            throw .codec(warning == DAG_TRUNCATED ? DAG_TRUNCATED : status, format: "JPEG", message: message, path: source.path)
        }
        return (h, header)
    }

    /// The error for a failed call or a recorded warning; the handle is dropped, since libjpeg's
    /// state after an error is undefined (the next call starts again from the top).
    private func failure(_ status: dag_status) -> DaguerreError {
        guard let h = handle else { return .corruptData(format: "JPEG", detail: "decoder closed", path: source.path) }
        let warning = dag_jpeg_decoder_take_warning(h)
        let message = bridgeMessage(dag_jpeg_decoder_message(h))
        dag_jpeg_decoder_destroy(h)
        handle = nil
        started = false
        return .codec(warning == DAG_TRUNCATED ? DAG_TRUNCATED : status, format: "JPEG", message: message, path: source.path)
    }

    /// Throws if libjpeg warned about damaged data since the last check.
    private func checkWarnings() throws(DaguerreError) {
        guard let h = handle else { return }
        let w = dag_jpeg_decoder_take_warning(h)
        if w != DAG_OK {
            // take_warning copied the warning into the message; report it as a failure.
            let message = bridgeMessage(dag_jpeg_decoder_message(h))
            dag_jpeg_decoder_destroy(h)
            handle = nil
            started = false
            throw .codec(w, format: "JPEG", message: message, path: source.path)
        }
    }

    /// Makes sure a decompressor is running (reopening the file after a restart or an error)
    /// and cropped to the requested columns.
    private func ensureStarted() throws(DaguerreError) -> OpaquePointer {
        if handle == nil {
            let (h, _) = try Self.openHandle(source, limits: limits)
            handle = h
        }
        guard let h = handle else { throw .corruptData(format: "JPEG", detail: "decoder closed", path: source.path) }
        if started { return h }
        let status = dag_jpeg_decoder_start(h, info.pixelFormat == .l8 ? 1 : 0, UInt32(reduction))
        if status != DAG_OK { throw failure(status) }
        try checkWarnings()
        started = true
        columns = 0..<info.width
        if reduction == 1, let wanted = requestedColumns, wanted != 0..<info.width {
            // Ask for one more column each side: fancy upsampling treats the edge of a cropped
            // region as the image edge, so only interior columns equal a full decode.
            let lo = max(0, wanted.lowerBound - 1)
            let hi = min(info.width, wanted.upperBound + 1)
            var x = UInt32(lo)
            var w = UInt32(hi - lo)
            let s = dag_jpeg_decoder_crop(h, &x, &w)
            if s != DAG_OK { throw failure(s) }
            let start = Int(x)
            let end = Int(x) + Int(w)
            guard start <= wanted.lowerBound, end >= wanted.upperBound, end <= info.width else {
                throw .corruptData(format: "JPEG", detail: "libjpeg cropped to \(start)..<\(end), outside \(wanted)", path: source.path)
            }
            columns = start..<end
        }
        return h
    }

    /// Restarts decoding from the top of the file.
    private func restart() {
        dag_jpeg_decoder_destroy(handle)
        handle = nil
        started = false
    }

    public func setColumns(_ requested: Range<Int>) throws(DaguerreError) -> Range<Int> {
        guard !requested.isEmpty, requested.lowerBound >= 0, requested.upperBound <= info.width else {
            throw .invalidArgument(what: "Columns \(requested)", problem: "must be a non-empty range within 0..<\(info.width)")
        }
        requestedColumns = requested
        restart()
        _ = try ensureStarted()
        return columns
    }

    public func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        guard y >= 0, count >= 0, y <= info.height - count else {
            throw .invalidArgument(what: "Rows \(y)..<\(y + count)", problem: "must lie within 0..<\(info.height)")
        }
        if count == 0 { return }
        var h = try ensureStarted()
        let rowBytes = columns.count * info.pixelFormat.bytesPerPixel
        guard bytesPerRow >= rowBytes else {
            throw .invalidArgument(
                what: "bytesPerRow \(bytesPerRow)", problem: "must be at least \(rowBytes) for \(columns.count) \(info.pixelFormat) pixels")
        }
        var next = Int(dag_jpeg_decoder_next_row(h))
        if y < next {
            restart()
            h = try ensureStarted()
            next = 0
        }
        if y > next {
            let s = dag_jpeg_decoder_skip(h, UInt32(y - next))
            if s != DAG_OK { throw failure(s) }
            try checkWarnings()
            guard Int(dag_jpeg_decoder_next_row(h)) == y else {
                throw failure(DAG_CORRUPT)
            }
        }
        var done: UInt32 = 0
        let s = dag_jpeg_decoder_read(h, destination.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count), &done)
        if s != DAG_OK { throw failure(s) }
        try checkWarnings()
        guard Int(done) == count else { throw .truncated(format: "JPEG", path: source.path) }
    }
}
