// H.264 and HEVC decoding through FFmpeg's libavcodec ("h264", "hevc" decoders), fed avcC or
// hvcC extradata and length-prefixed samples; frames converted to RGBA in Swift.
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// Decodes H.264 and HEVC samples (as stored in QuickTime/MP4 tracks) to RGB pixel buffers with
/// libavcodec's native decoders (`h264`, `hevc`).
///
/// The track's `avcC` or `hvcC` record is the decoder's extradata, so samples go in exactly as
/// the file stores them. Frames come out in presentation order, each with the presentation time
/// its packet carried, converted with the matrix and range the stream declares and tagged with
/// the colour space of the track's `colr` primaries (``VideoColorProperties``):
/// - 8-bit 4:2:0 (H.264 Live Photos, 8-bit HEVC) becomes RGBA8;
/// - 10- and 12-bit 4:2:0 (the iPhone's HDR HEVC, Main 10) becomes RGBA16, so the extra
///   precision survives into the engine (BT.2020 primaries tag the frame `.itur2020`; an HLG or
///   PQ transfer is left as coded, not tone-mapped).
///
/// Damaged data is a typed error, and libavcodec's own logging is silenced. Not thread-safe (one
/// decoding session); single-threaded decoding, so results are the same on every run.
///
/// ```swift
/// let decoder = try VideoDecoder(configuration: track.decoderConfiguration!)
/// let frames = try decoder.decode(sample, presentationTime: 0) + decoder.flush()
/// ```
public final class VideoDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let colorProperties: VideoColorProperties?
    private let limits: Limits
    /// The codec's name in messages.
    private let name: String

    /// An H.264 decoder for an `avcC` record.
    public convenience init(configuration: AVCDecoderConfiguration, colorProperties: VideoColorProperties? = nil, limits: Limits = .default)
        throws(DaguerreError)
    {
        try self.init(configuration: .avc(configuration), colorProperties: colorProperties, limits: limits)
    }

    public init(configuration: VideoDecoderConfiguration, colorProperties: VideoColorProperties? = nil, limits: Limits = .default)
        throws(DaguerreError)
    {
        self.colorProperties = colorProperties
        self.limits = limits
        let name = configuration.codec.displayName
        self.name = name
        try FFmpegError.requireLibraries(for: "\(name) decoding")
        dag_av_log_quiet()
        let id = configuration.codec == .hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264
        guard let codec = avcodec_find_decoder(id) else {
            throw .unsupported(
                feature: "\(name) decoding",
                hint:
                    "Install libavcodec with its \(configuration.codec == .hevc ? "hevc" : "h264") decoder (apt-get install libavcodec-dev)."
            )
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw .tooLarge(what: "\(name) decoder context", value: 0, limit: 0)
        }
        context = ctx
        let extra = configuration.serialized()
        let padding = Int(dag_av_input_padding())
        guard let buffer = av_mallocz(extra.count + padding)?.assumingMemoryBound(to: UInt8.self) else {
            avcodec_free_context(&context)
            throw .tooLarge(what: "\(name) extradata", value: extra.count, limit: 0)
        }
        extra.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: extra.count) }
        ctx.pointee.extradata = buffer
        ctx.pointee.extradata_size = Int32(extra.count)
        ctx.pointee.thread_count = 1
        let status = avcodec_open2(ctx, codec, nil)
        guard status >= 0 else {
            avcodec_free_context(&context)
            throw .corruptData(
                format: name,
                detail:
                    "the decoder refused the \(configuration.codec.configurationBoxType) parameter sets (\(FFmpegError.describe(status)))",
                path: nil)
        }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard packet != nil, frame != nil else {
            av_packet_free(&packet)
            av_frame_free(&frame)
            avcodec_free_context(&context)
            throw .tooLarge(what: "\(name) decoder buffers", value: 0, limit: 0)
        }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }

    /// Decodes one sample; returns the frames that became ready (zero or more), with their
    /// presentation times.
    public func decode(_ sample: [UInt8], presentationTime: Int64) throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        guard let context, let packet else { throw .invalidArgument(what: "\(name) decoder", problem: "it was already flushed") }
        guard !sample.isEmpty else { return [] }
        guard sample.count < Int(Int32.max) - 64, av_new_packet(packet, Int32(sample.count)) >= 0, let data = packet.pointee.data else {
            throw .tooLarge(what: "\(name) sample", value: sample.count, limit: Int(Int32.max) - 64)
        }
        sample.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: sample.count) }
        packet.pointee.pts = presentationTime
        packet.pointee.dts = dag_av_nopts_value()
        let status = avcodec_send_packet(context, packet)
        av_packet_unref(packet)
        guard status >= 0 || status == FFmpegError.again else {
            throw .corruptData(format: name, detail: "the decoder rejected a sample (\(FFmpegError.describe(status)))", path: nil)
        }
        return try receive()
    }

    /// Signals the end of the stream and returns the frames still held.
    public func flush() throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        guard let context else { return [] }
        _ = avcodec_send_packet(context, nil)
        let frames = try receive()
        avcodec_free_context(&self.context)
        return frames
    }

    private func receive() throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        guard let context, let frame else { return [] }
        var out: [(time: Int64, frame: PixelBuffer)] = []
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == FFmpegError.again || status == FFmpegError.endOfFile { break }
            guard status >= 0 else {
                throw .corruptData(format: name, detail: "decoding failed (\(FFmpegError.describe(status)))", path: nil)
            }
            defer { av_frame_unref(frame) }
            out.append((frame.pointee.best_effort_timestamp, try convert(frame)))
        }
        return out
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
        guard let y = f.pointee.data.0, let cb = f.pointee.data.1, let cr = f.pointee.data.2 else {
            throw .corruptData(format: name, detail: "a decoded frame has no planes", path: nil)
        }
        let full = format == AV_PIX_FMT_YUVJ420P.rawValue || f.pointee.color_range == AVCOL_RANGE_JPEG
        let streamMatrix = UInt16(truncatingIfNeeded: f.pointee.colorspace.rawValue)
        let matrix = [1, 5, 6, 9, 10].contains(streamMatrix) ? streamMatrix : (colorProperties?.matrix ?? 1)
        let primaries = colorProperties?.primaries ?? UInt16(truncatingIfNeeded: f.pointee.color_primaries.rawValue)
        let space = VideoColorProperties(primaries: primaries, transfer: 1, matrix: matrix).rgbColorSpace
        let planes = YCbCrConversion.Planes420(
            y: UnsafeRawPointer(y), yStride: Int(f.pointee.linesize.0), cb: UnsafeRawPointer(cb), cbStride: Int(f.pointee.linesize.1),
            cr: UnsafeRawPointer(cr), crStride: Int(f.pointee.linesize.2), width: w, height: h, bitDepth: depth)
        return try YCbCrConversion.makeRGBA(planes, matrix: matrix, fullRange: full, colorSpace: space)
    }
}

/// The H.264 decoder's former name: ``VideoDecoder`` decodes H.264 and HEVC.
public typealias H264Decoder = VideoDecoder
