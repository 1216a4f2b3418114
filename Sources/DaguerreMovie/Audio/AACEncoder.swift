// AAC-LC encoding through FFmpeg's libavcodec native "aac" encoder, for Motion Photo MP4s.
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// Encodes interleaved 16-bit PCM to AAC-LC access units with libavcodec's native `aac`
/// encoder (FFmpeg's own, always built, unlike libfdk-aac).
///
/// Used to turn a Live Photo movie's PCM audio (SPEC L2) into the AAC an MPEG-4 Motion Photo
/// video carries. The decoder configuration (AudioSpecificConfig) is ready after `init`, for
/// the `esds` box. Each access unit covers 1024 frames; the first ``primingFrames`` frames of
/// output are encoder delay, which the MP4's edit list skips.
///
/// Not thread-safe: one encoder per stream.
///
/// ```swift
/// let aac = try AACEncoder(sampleRate: 44_100, channels: 1)
/// var units = try aac.encode(pcm)
/// units += try aac.finish()
/// ```
public final class AACEncoder {
    public let sampleRate: Int
    public let channels: Int
    public let bitRate: Int
    /// The AudioSpecificConfig (ISO 14496-3 §1.6.2.1) for the `esds` descriptor.
    public let audioSpecificConfig: [UInt8]
    /// Frames per access unit (1024).
    public let frameSize: Int
    /// Encoder delay at the start of the output, in frames.
    public let primingFrames: Int

    private let session: FFmpegCodecSession
    private var pending: [Int16] = []
    private var nextPTS: Int64 = 0

    public init(sampleRate: Int, channels: Int, bitRate: Int? = nil) throws(DaguerreError) {
        guard (8000...96_000).contains(sampleRate), (1...2).contains(channels) else {
            throw .invalidArgument(what: "AAC \(sampleRate) Hz, \(channels) channels", problem: "the rate must be 8–96 kHz, mono or stereo")
        }
        try FFmpegError.requireLibraries(for: "AAC encoding")
        dag_av_log_quiet()
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw .unsupported(
                feature: "AAC encoding", hint: "Install libavcodec with its native aac encoder (apt-get install libavcodec-dev).")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw .tooLarge(what: "AAC encoder context", value: 0, limit: 0) }
        // Owns the context from here: every failure below frees it with the session.
        let session = try FFmpegCodecSession(context: ctx, what: "AAC encoder")
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitRate = bitRate ?? 64_000 * channels
        ctx.pointee.sample_rate = Int32(sampleRate)
        ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        ctx.pointee.bit_rate = Int64(self.bitRate)
        ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        ctx.pointee.flags |= dag_av_codec_flag_global_header()
        av_channel_layout_default(&ctx.pointee.ch_layout, Int32(channels))
        let status = avcodec_open2(ctx, codec, nil)
        guard status >= 0, ctx.pointee.extradata_size > 0, let extra = ctx.pointee.extradata else {
            throw .processorFailed(name: "AAC encoder", reason: "avcodec_open2 failed (\(FFmpegError.describe(status)))")
        }
        audioSpecificConfig = Array(UnsafeBufferPointer(start: extra, count: Int(ctx.pointee.extradata_size)))
        frameSize = Int(ctx.pointee.frame_size > 0 ? ctx.pointee.frame_size : 1024)
        primingFrames = Int(ctx.pointee.initial_padding)
        let frame = session.frame
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        guard av_channel_layout_copy(&frame.pointee.ch_layout, &ctx.pointee.ch_layout) >= 0, av_frame_get_buffer(frame, 0) >= 0 else {
            throw .tooLarge(what: "AAC encoder frame", value: frameSize, limit: 0)
        }
        self.session = session
    }

    /// Encodes interleaved samples (a multiple of the channel count); returns the access units
    /// completed so far.
    public func encode(_ samples: [Int16]) throws(DaguerreError) -> [[UInt8]] {
        guard samples.count % channels == 0 else {
            throw .invalidArgument(what: "\(samples.count) PCM samples", problem: "the count must be a multiple of \(channels) channels")
        }
        pending += samples
        var units: [[UInt8]] = []
        let block = frameSize * channels
        var used = 0
        while pending.count - used >= block {
            units += try send(Array(pending[used..<(used + block)]))
            used += block
        }
        pending.removeFirst(used)
        return units
    }

    /// Encodes what is left (padded with silence) and drains the encoder.
    public func finish() throws(DaguerreError) -> [[UInt8]] {
        guard let context = session.context else { return [] }
        var units: [[UInt8]] = []
        if !pending.isEmpty {
            units += try send(pending + [Int16](repeating: 0, count: frameSize * channels - pending.count))
            pending = []
        }
        _ = avcodec_send_frame(context, nil)
        units += try receive()
        session.close()
        return units
    }

    private func send(_ block: [Int16]) throws(DaguerreError) -> [[UInt8]] {
        guard let context = session.context else { throw .invalidArgument(what: "AAC encoder", problem: "it is finished") }
        let frame = session.frame
        guard av_frame_make_writable(frame) >= 0 else { throw .tooLarge(what: "AAC encoder frame", value: frameSize, limit: 0) }
        let planes = [frame.pointee.data.0, frame.pointee.data.1]
        for c in 0..<channels {
            guard let plane = planes[c] else { throw .processorFailed(name: "AAC encoder", reason: "missing channel plane \(c)") }
            let p = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            for i in 0..<frameSize { p[i] = Float(block[i * channels + c]) / 32768 }
        }
        frame.pointee.pts = nextPTS
        nextPTS += Int64(frameSize)
        let status = avcodec_send_frame(context, frame)
        guard status >= 0 else { throw .processorFailed(name: "AAC encoder", reason: FFmpegError.describe(status)) }
        return try receive()
    }

    private func receive() throws(DaguerreError) -> [[UInt8]] {
        var units: [[UInt8]] = []
        try session.receivePackets(failure: { .processorFailed(name: "AAC encoder", reason: $0) }) { packet in
            if let data = packet.pointee.data, packet.pointee.size > 0 {
                units.append(Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))))
            }
        }
        return units
    }
}
