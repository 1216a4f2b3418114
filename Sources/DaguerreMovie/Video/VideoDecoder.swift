// H.264 and HEVC decoding through FFmpeg's libavcodec ("h264", "hevc" decoders), fed avcC or
// hvcC extradata and length-prefixed samples; frames converted to RGBA in Swift, or converted
// and shrunk (previews) by libswscale in one pass.
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// Decodes H.264 and HEVC samples (as stored in QuickTime/MP4 tracks) to RGB pixel buffers with
/// libavcodec's native decoders (`h264`, `hevc`).
///
/// The track's `avcC` or `hvcC` record is the decoder's extradata, so samples go in exactly as
/// the file stores them. Frames come out in presentation order, each with the presentation time
/// its packet carried, converted with the matrix and range the stream declares and tagged with the colour space of the track's `colr` primaries (``VideoColorProperties``):
/// - 8-bit 4:2:0 (H.264 Live Photos, 8-bit HEVC) becomes RGBA8;
/// - 10- and 12-bit 4:2:0 (the iPhone's HDR HEVC, Main 10) becomes RGBA16, so the extra
///   precision survives into the engine (BT.2020 primaries tag the frame `.itur2020`; an HLG or
///   PQ transfer is left as coded, not tone-mapped).
///
/// With `scale` below 1 libswscale converts and shrinks each frame in one pass (its area filter)
/// on `threads` slice threads, so a preview never holds a full-size RGB frame; at the coded
/// size ``YCbCrConversion`` converts it, rounding to nearest, in bands on every core.
/// libavcodec decodes on `threads` frame threads. Every stage gives the same pixels as one
/// thread, so results are the same on every run.
///
/// Damaged data is a typed error, and libavcodec's own logging is silenced. Not thread-safe (one
/// decoding session).
///
/// ```swift
/// let decoder = try VideoDecoder(configuration: track.decoderConfiguration!)
/// let frames = try decoder.decode(sample, presentationTime: 0) + decoder.flush()
/// ```
public final class VideoDecoder {
    private let session: FFmpegCodecSession
    private let colorProperties: VideoColorProperties?
    private let limits: Limits
    /// The codec's name in messages.
    private let name: String
    /// The frames' size relative to the coded pictures (≤ 1).
    public let scale: Double
    private let threads: Int
    /// The libswscale context of the frames so far, made again when their format changes.
    private var scaler: OpaquePointer?
    private var scalerKey: ScalerKey?
    /// The frames' buffers, recycled once the caller lets go of them; made again when the
    /// frames' size, depth or colour space changes.
    private var pool: PixelBufferPool?

    /// What a libswscale context was made for.
    private struct ScalerKey: Hashable {
        var width: Int, height: Int, format: Int32, matrix: UInt16, fullRange: Bool
    }

    /// An H.264 decoder for an `avcC` record.
    public convenience init(configuration: AVCDecoderConfiguration, colorProperties: VideoColorProperties? = nil, limits: Limits = .default)
        throws(DaguerreError)
    {
        try self.init(configuration: .avc(configuration), colorProperties: colorProperties, limits: limits)
    }

    /// A decoder for `configuration`'s stream whose frames are `scale` (0 < scale ≤ 1) of the
    /// coded size, decoded and converted on `threads` threads (default: one per core).
    public init(
        configuration: VideoDecoderConfiguration, colorProperties: VideoColorProperties? = nil, limits: Limits = .default,
        scale: Double = 1, threads: Int? = nil
    ) throws(DaguerreError) {
        guard scale > 0, scale <= 1 else {
            throw .invalidArgument(what: "Decoded frame scale \(scale)", problem: "give a scale above 0 and at most 1")
        }
        self.colorProperties = colorProperties
        self.limits = limits
        self.scale = scale
        let threads = max(1, min(16, threads ?? WorkerPool.processorCount))
        self.threads = threads
        let name = configuration.codec.displayName
        self.name = name
        let codec = configuration.codec
        session = try FFmpegCodecSession.decoder(
            codec == .hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264, extradata: configuration.serialized(), what: name,
            decoderName: codec == .hevc ? "hevc" : "h264", frameThreads: threads
        ) {
            .corruptData(format: name, detail: "the decoder refused the \(codec.configurationBoxType) parameter sets (\($0))", path: nil)
        }
    }

    deinit { sws_freeContext(scaler) }

    /// Decodes one sample; returns the frames that became ready (zero or more), with their
    /// presentation times.
    public func decode(_ sample: [UInt8], presentationTime: Int64) throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        guard session.isOpen else { throw .invalidArgument(what: "\(name) decoder", problem: "it was already flushed") }
        guard !sample.isEmpty else { return [] }
        try session.send(
            sample, presentationTime: presentationTime,
            tooLarge: .tooLarge(what: "\(name) sample", value: sample.count, limit: Int(Int32.max) - 64)
        ) { [name] in .corruptData(format: name, detail: "the decoder rejected a sample (\($0))", path: nil) }
        return try receive()
    }

    /// Signals the end of the stream and returns the frames still held.
    public func flush() throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        var out: [(time: Int64, frame: PixelBuffer)] = []
        try session.drain(failure: decodingFailed) { (f) throws(DaguerreError) in out.append(try timed(f)) }
        return out
    }

    private func receive() throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        var out: [(time: Int64, frame: PixelBuffer)] = []
        try session.receiveFrames(failure: decodingFailed) { (f) throws(DaguerreError) in out.append(try timed(f)) }
        return out
    }

    /// A decoded frame with the presentation time its packet carried.
    private func timed(_ f: UnsafeMutablePointer<AVFrame>) throws(DaguerreError) -> (time: Int64, frame: PixelBuffer) {
        (f.pointee.best_effort_timestamp, try convert(f))
    }

    private func decodingFailed(_ reason: String) -> DaguerreError {
        .corruptData(format: name, detail: "decoding failed (\(reason))", path: nil)
    }

    private func convert(_ f: UnsafeMutablePointer<AVFrame>) throws(DaguerreError) -> PixelBuffer {
        let format = f.pointee.format
        let w = Int(f.pointee.width)
        let h = Int(f.pointee.height)
        let depth: Int
        switch format {
        case AV_PIX_FMT_YUV420P.rawValue, AV_PIX_FMT_YUVJ420P.rawValue: depth = 8
        case AV_PIX_FMT_YUV420P10LE.rawValue: depth = 10
        case AV_PIX_FMT_YUV420P12LE.rawValue: depth = 12
        default:
            throw .unsupported(
                feature: "\(name) frames in pixel format \(format) (not 4:2:0 at 8, 10 or 12 bits)",
                hint: "Only 4:2:0 video (what Live Photo movies use) is converted to RGB.")
        }
        try limits.check(width: w, height: h, bytesPerPixel: depth == 8 ? 4 : 8, what: "Decoded \(name) frame")
        let full = format == AV_PIX_FMT_YUVJ420P.rawValue || f.pointee.color_range == AVCOL_RANGE_JPEG
        let streamMatrix = UInt16(truncatingIfNeeded: f.pointee.colorspace.rawValue)
        let matrix = [1, 5, 6, 9, 10].contains(streamMatrix) ? streamMatrix : (colorProperties?.matrix ?? 1)
        let primaries = colorProperties?.primaries ?? UInt16(truncatingIfNeeded: f.pointee.color_primaries.rawValue)
        let space = VideoColorProperties(primaries: primaries, transfer: 1, matrix: matrix).rgbColorSpace
        let (outW, outH) = scale < 1 ? (max(1, Int((Double(w) * scale).rounded())), max(1, Int((Double(h) * scale).rounded()))) : (w, h)
        if (outW, outH) == (w, h) {
            // At the coded size our conversion, rounded to nearest (libswscale's unscaled
            // path truncates, about one level darker), in bands on every core.
            guard let y = f.pointee.data.0, let cb = f.pointee.data.1, let cr = f.pointee.data.2 else {
                throw .corruptData(format: name, detail: "a decoded frame has no planes", path: nil)
            }
            let planes = YCbCrConversion.Planes420(
                y: UnsafeRawPointer(y), yStride: Int(f.pointee.linesize.0), cb: UnsafeRawPointer(cb), cbStride: Int(f.pointee.linesize.1),
                cr: UnsafeRawPointer(cr), crStride: Int(f.pointee.linesize.2), width: w, height: h, bitDepth: depth)
            var out = try buffer(outW, outH, deep: depth > 8, space: space)
            YCbCrConversion.convert(planes, matrix: matrix, fullRange: full, into: &out)
            return out
        }
        let scaler = try self.scaler(
            for: ScalerKey(width: w, height: h, format: format, matrix: matrix, fullRange: full), output: (outW, outH), deep: depth > 8)
        var out = try buffer(outW, outH, deep: depth > 8, space: space)
        let rowBytes = out.bytesPerRow
        let status = out.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return dag_sws_scale_into(
                scaler, f, base.assumingMemoryBound(to: UInt8.self), Int32(rowBytes), Int32(outW), Int32(outH),
                depth > 8 ? AV_PIX_FMT_RGBA64LE : AV_PIX_FMT_RGBA)
        }
        guard status >= 0 else {
            throw .processorFailed(
                name: "libswscale", reason: "converting a decoded \(name) frame failed (\(FFmpegError.describe(status)))")
        }
        return out
    }

    /// An output frame from the pool (every pixel of it is written before it is returned).
    private func buffer(_ width: Int, _ height: Int, deep: Bool, space: ColorSpace?) throws(DaguerreError) -> PixelBuffer {
        let format: PixelFormat = deep ? .rgba16 : .rgba8
        if let pool, pool.matches(width: width, height: height, format: format, colorSpace: space) {
            return pool.makeBuffer()
        }
        // Alpha is always opaque, where straight and premultiplied are the same pixels; saying
        // premultiplied spares the engine a premultiplication on every read.
        let made = try PixelBufferPool(
            width: width, height: height, format: format, colorSpace: space, alpha: .premultiplied, limits: limits)
        pool = made
        return made.makeBuffer()
    }

    /// The libswscale context for frames like `key`, made on first use and again when the
    /// frames' size, format, matrix or range changes.
    private func scaler(for key: ScalerKey, output: (Int, Int), deep: Bool) throws(DaguerreError) -> OpaquePointer {
        if let scaler, scalerKey == key { return scaler }
        sws_freeContext(scaler)
        scaler = nil
        // Shrinking: the area filter (each output pixel the mean of what it covers).
        let flags = SWS_AREA
        guard
            let made = dag_sws_context(
                Int32(key.width), Int32(key.height), AVPixelFormat(key.format), Int32(output.0), Int32(output.1),
                deep ? AV_PIX_FMT_RGBA64LE : AV_PIX_FMT_RGBA, flags, Int32(threads), Int32(key.matrix), key.fullRange ? 1 : 0)
        else {
            throw .unsupported(
                feature: "Converting \(name) frames of \(key.width)×\(key.height) to \(output.0)×\(output.1) RGB",
                hint: "libswscale refused the conversion; install Debian's libswscale6.")
        }
        scaler = made
        scalerKey = key
        return made
    }
}

/// The H.264 decoder's former name: ``VideoDecoder`` decodes H.264 and HEVC.
public typealias H264Decoder = VideoDecoder
