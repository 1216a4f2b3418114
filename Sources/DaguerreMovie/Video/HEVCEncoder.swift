// HEVC encoding with x265, through libavcodec's "libx265" encoder (no B-frames, closed GOPs,
// parameter sets out of band for the 'hvcC' record).
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// Encodes planar Y'CbCr 4:2:0 frames to HEVC (Main profile, 8-bit) with x265, driven through
/// libavcodec's `libx265` wrapper, for `hvc1` tracks (``MovieSettings/videoCodec`` `.hevc`).
///
/// libavcodec rather than x265's own API: Debian's libavcodec is already loaded on first use for
/// decoding and AAC, and is built with libx265, so no second loader and no second set of
/// bindings are needed; x265's options go in as `x265-params`. Settings as for H.264
/// (``H264EncoderSettings``: size, frame rate, bit rate with a VBV cap, preset — x265 has x264's
/// preset names — threads, key-frame interval, VUI colour tags). No B-frames and closed GOPs:
/// samples come out in presentation order with decode time = presentation time, so the movie
/// needs no `ctts`, and every key frame is an IDR. The VPS, SPS and PPS go only into
/// ``decoderConfiguration`` (`hvcC`); samples are length-prefixed NAL units without them.
///
/// x265 is GPL-2 or later, like x264: a program that records HEVC runs GPL code.
///
/// ```swift
/// let encoder = try HEVCEncoder(settings: H264EncoderSettings(width: 1440, height: 1080))
/// var samples = try encoder.encode(frame, presentationTime: 0)
/// samples += try encoder.finish()
/// ```
public final class HEVCEncoder {
    public let settings: H264EncoderSettings
    /// VPS, SPS and PPS for the `hvcC` box.
    public let decoderConfiguration: HEVCDecoderConfiguration
    private let session: FFmpegCodecSession

    public init(settings: H264EncoderSettings) throws(DaguerreError) {
        try settings.validate(maxFrameRate: 240)
        try FFmpegError.requireLibraries(for: "HEVC encoding")
        dag_av_log_quiet()
        self.settings = settings
        guard let codec = avcodec_find_encoder_by_name("libx265") else {
            throw .unsupported(
                feature: "HEVC encoding",
                hint: "Install a libavcodec built with libx265 (Debian's: apt-get install libavcodec59 libx265-199).")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw .tooLarge(what: "HEVC encoder context", value: 0, limit: 0) }
        // Owns the context from here: every failure below frees it with the session.
        let session = try FFmpegCodecSession(context: ctx, what: "HEVC encoder")
        ctx.pointee.width = Int32(settings.width)
        ctx.pointee.height = Int32(settings.height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        ctx.pointee.time_base = AVRational(num: 1, den: settings.timescale)
        ctx.pointee.framerate = AVRational(num: Int32(settings.frameRate), den: 1)
        ctx.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        ctx.pointee.bit_rate = Int64(settings.bitRate)
        ctx.pointee.rc_max_rate = Int64(settings.bitRate + settings.bitRate / 4)
        ctx.pointee.rc_buffer_size = Int32(clamping: settings.bitRate)
        ctx.pointee.gop_size = Int32(settings.keyFrameDistance)
        ctx.pointee.max_b_frames = 0
        let color = settings.colorProperties
        ctx.pointee.color_primaries = AVColorPrimaries(UInt32(color.primaries))
        ctx.pointee.color_trc = AVColorTransferCharacteristic(UInt32(color.transfer))
        ctx.pointee.colorspace = AVColorSpace(UInt32(color.matrix))
        ctx.pointee.color_range = color.fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        ctx.pointee.flags |= dag_av_codec_flag_global_header()
        // x265's own options: closed GOPs of keyFrameDistance frames (every key frame an IDR), no
        // B-frames (so no reordering), no version SEI in the stream, no console output, and no
        // timing information in the parameter sets: the rate given above is the average that rate
        // control budgets with, while a Live Photo's frames come at uneven times, which the
        // container's sample table holds (a fixed rate in the VUI makes ffmpeg collide frames on
        // its clock, as with H.264; see X264Encoder).
        var params = [
            "log-level=none", "info=0", "bframes=0", "open-gop=0", "keyint=\(settings.keyFrameDistance)",
            "min-keyint=\(settings.keyFrameDistance)", "scenecut=0", "repeat-headers=0", "annexb=1", "vui-timing-info=0",
        ]
        if settings.threads > 0 { params += ["pools=\(settings.threads)", "frame-threads=\(min(settings.threads, 4))"] }
        var options: OpaquePointer?
        _ = av_dict_set(&options, "preset", settings.preset, 0)
        _ = av_dict_set(&options, "x265-params", params.joined(separator: ":"), 0)
        let status = avcodec_open2(ctx, codec, &options)
        av_dict_free(&options)
        guard status >= 0 else {
            throw .invalidArgument(
                what:
                    "x265 settings (\(settings.preset), \(settings.width)×\(settings.height), \(settings.frameRate) fps, \(settings.bitRate) bit/s)",
                problem:
                    "libx265 refused them (\(FFmpegError.describe(status))); presets are ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo"
            )
        }
        var units: [[UInt8]] = []
        if let extra = ctx.pointee.extradata, ctx.pointee.extradata_size > 0 {
            units = AnnexB.nalUnits(in: Array(UnsafeBufferPointer(start: extra, count: Int(ctx.pointee.extradata_size))))
        }
        do {
            decoderConfiguration = try HEVCDecoderConfiguration(headerUnits: units)
        } catch {
            throw .processorFailed(name: "x265 encoder", reason: "it produced no usable VPS/SPS/PPS headers (\(error))")
        }
        let frame = session.frame
        frame.pointee.width = Int32(settings.width)
        frame.pointee.height = Int32(settings.height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            throw .tooLarge(what: "HEVC encoder frame", value: settings.width * settings.height, limit: 0)
        }
        self.session = session
    }

    /// Encodes one frame shown at `presentationTime` (ticks of the settings' timescale,
    /// increasing). Returns the samples x265 finished, in decode order: with frame threads and
    /// lookahead the first calls return none, and ``finish()`` returns the rest.
    public func encode(_ source: PlanarYCbCr420Buffer, presentationTime: Int64) throws(DaguerreError) -> [EncodedVideoSample] {
        guard let context = session.context else { throw .invalidArgument(what: "HEVC encoder", problem: "it is finished") }
        let frame = session.frame
        guard source.width == settings.width, source.height == settings.height else {
            throw .invalidArgument(
                what: "Frame of \(source.width)×\(source.height)",
                problem: "the encoder was set up for \(settings.width)×\(settings.height)")
        }
        guard av_frame_make_writable(frame) >= 0, let y = frame.pointee.data.0, let cb = frame.pointee.data.1,
            let cr = frame.pointee.data.2
        else {
            throw .tooLarge(what: "HEVC encoder frame", value: settings.width * settings.height, limit: 0)
        }
        let w = settings.width
        let h = settings.height
        Self.copy(source.luma, width: w, height: h, into: y, stride: Int(frame.pointee.linesize.0))
        Self.copy(source.cb, width: w / 2, height: h / 2, into: cb, stride: Int(frame.pointee.linesize.1))
        Self.copy(source.cr, width: w / 2, height: h / 2, into: cr, stride: Int(frame.pointee.linesize.2))
        frame.pointee.pts = presentationTime
        let status = avcodec_send_frame(context, frame)
        guard status >= 0 else { throw .processorFailed(name: "x265 encoder", reason: FFmpegError.describe(status)) }
        return try receive()
    }

    /// Drains the frames x265 still holds; the encoder cannot be used afterwards.
    public func finish() throws(DaguerreError) -> [EncodedVideoSample] {
        guard let context = session.context else { return [] }
        _ = avcodec_send_frame(context, nil)
        let samples = try receive()
        session.close()
        return samples
    }

    /// Closes the encoder without draining the frames it still holds (for a cancelled recording).
    public func close() {
        session.close()
    }

    private static func copy(_ plane: [UInt8], width: Int, height: Int, into destination: UnsafeMutablePointer<UInt8>, stride: Int) {
        plane.withUnsafeBufferPointer { src in
            guard let base = src.baseAddress else { return }
            for row in 0..<height { (destination + row * stride).update(from: base + row * width, count: width) }
        }
    }

    private func receive() throws(DaguerreError) -> [EncodedVideoSample] {
        var samples: [EncodedVideoSample] = []
        try session.receivePackets(failure: { .processorFailed(name: "x265 encoder", reason: $0) }) { packet in
            guard let data = packet.pointee.data, packet.pointee.size > 0 else { return }
            let units = AnnexB.nalUnits(in: Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))))
                .filter { !(32...35).contains(HEVCDecoderConfiguration.nalType(of: $0)) }
            let pts = packet.pointee.pts
            let dts = packet.pointee.dts == dag_av_nopts_value() ? pts : packet.pointee.dts
            samples.append(
                EncodedVideoSample(
                    data: AnnexB.lengthPrefixed(units), presentationTime: pts, decodeTime: dts,
                    isKeyFrame: packet.pointee.flags & AV_PKT_FLAG_KEY != 0))
        }
        return samples
    }
}
