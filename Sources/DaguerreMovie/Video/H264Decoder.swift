// H.264 decoding through FFmpeg's libavcodec ("h264" decoder), fed avcC extradata and
// length-prefixed samples; frames converted to RGBA in Swift.
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// Decodes H.264 samples (as stored in QuickTime/MP4 tracks) to RGBA8 pixel buffers with
/// libavcodec's native decoder.
///
/// The `avcC` record is the decoder's extradata, so samples go in exactly as the file stores
/// them. Frames come out in presentation order, each with the presentation time its packet
/// carried; 8-bit 4:2:0 streams are converted with the matrix and range the stream declares and
/// tagged with the colour space of the track's `colr` primaries (``VideoColorProperties``).
/// Damaged data is a typed error, and libavcodec's own logging is silenced.
///
/// Not thread-safe (one decoding session); single-threaded decoding, so results are the same
/// on every run.
///
/// ```swift
/// let decoder = try H264Decoder(configuration: track.decoderConfiguration!)
/// let frames = try decoder.decode(sample, presentationTime: 0) + decoder.flush()
/// ```
public final class H264Decoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let colorProperties: VideoColorProperties?
    private let limits: Limits

    public init(configuration: AVCDecoderConfiguration, colorProperties: VideoColorProperties? = nil, limits: Limits = .default)
        throws(DaguerreError)
    {
        self.colorProperties = colorProperties
        self.limits = limits
        try FFmpegError.requireLibraries(for: "H.264 decoding")
        dag_av_log_quiet()
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_H264) else {
            throw .unsupported(
                feature: "H.264 decoding", hint: "Install libavcodec with its h264 decoder (apt-get install libavcodec-dev).")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw .tooLarge(what: "H.264 decoder context", value: 0, limit: 0)
        }
        context = ctx
        let extra = configuration.serialized()
        let padding = Int(dag_av_input_padding())
        guard let buffer = av_mallocz(extra.count + padding)?.assumingMemoryBound(to: UInt8.self) else {
            avcodec_free_context(&context)
            throw .tooLarge(what: "H.264 extradata", value: extra.count, limit: 0)
        }
        extra.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: extra.count) }
        ctx.pointee.extradata = buffer
        ctx.pointee.extradata_size = Int32(extra.count)
        ctx.pointee.thread_count = 1
        let status = avcodec_open2(ctx, codec, nil)
        guard status >= 0 else {
            avcodec_free_context(&context)
            throw .corruptData(
                format: "H.264", detail: "the decoder refused the avcC parameter sets (\(FFmpegError.describe(status)))", path: nil)
        }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard packet != nil, frame != nil else {
            av_packet_free(&packet)
            av_frame_free(&frame)
            avcodec_free_context(&context)
            throw .tooLarge(what: "H.264 decoder buffers", value: 0, limit: 0)
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
        guard let context, let packet else { throw .invalidArgument(what: "H.264 decoder", problem: "it was already flushed") }
        guard !sample.isEmpty else { return [] }
        guard sample.count < Int(Int32.max) - 64, av_new_packet(packet, Int32(sample.count)) >= 0, let data = packet.pointee.data else {
            throw .tooLarge(what: "H.264 sample", value: sample.count, limit: Int(Int32.max) - 64)
        }
        sample.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: sample.count) }
        packet.pointee.pts = presentationTime
        packet.pointee.dts = dag_av_nopts_value()
        let status = avcodec_send_packet(context, packet)
        av_packet_unref(packet)
        guard status >= 0 || status == FFmpegError.again else {
            throw .corruptData(format: "H.264", detail: "the decoder rejected a sample (\(FFmpegError.describe(status)))", path: nil)
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
                throw .corruptData(format: "H.264", detail: "decoding failed (\(FFmpegError.describe(status)))", path: nil)
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
        try limits.check(width: w, height: h, bytesPerPixel: 4, what: "Decoded H.264 frame")
        guard format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue,
            let y = f.pointee.data.0, let cb = f.pointee.data.1, let cr = f.pointee.data.2
        else {
            throw .unsupported(
                feature: "H.264 frames in pixel format \(format) (not 8-bit 4:2:0)",
                hint: "Only 8-bit 4:2:0 H.264 (what Live Photo movies use) is converted to RGBA.")
        }
        let full = format == AV_PIX_FMT_YUVJ420P.rawValue || f.pointee.color_range == AVCOL_RANGE_JPEG
        let streamMatrix = UInt16(truncatingIfNeeded: f.pointee.colorspace.rawValue)
        let matrix = [1, 5, 6, 9, 10].contains(streamMatrix) ? streamMatrix : (colorProperties?.matrix ?? 1)
        let primaries = colorProperties?.primaries ?? UInt16(truncatingIfNeeded: f.pointee.color_primaries.rawValue)
        let space = VideoColorProperties(primaries: primaries, transfer: 1, matrix: matrix).rgbColorSpace
        return try YCbCrConversion.makeRGBA(
            y: y, yStride: Int(f.pointee.linesize.0), cb: cb, cbStride: Int(f.pointee.linesize.1),
            cr: cr, crStride: Int(f.pointee.linesize.2), width: w, height: h,
            matrix: matrix, fullRange: full, colorSpace: space)
    }
}
