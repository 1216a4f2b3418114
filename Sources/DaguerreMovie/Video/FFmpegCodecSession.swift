// One libavcodec codec context with the packet and frame it reuses, freed together, and the
// send-and-receive loops every libavcodec decoder and encoder here runs.
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// A libavcodec codec context, its packet and its frame: made together, freed together (or at
/// once when making them fails), so a codec class holds one of these instead of three pointers
/// and their error paths. ``decoder(_:extradata:what:decoderName:refused:)`` opens a decoder the way every
/// decoder here does; ``send(_:presentationTime:tooLarge:rejected:)`` and
/// ``receiveFrames(failure:_:)`` are its loop, ``receivePackets(failure:_:)`` an encoder's.
/// Used by ``VideoDecoder``, ``AACDecoder``, ``HEVCEncoder`` and ``AACEncoder``.
///
/// Not thread-safe: one session per codec.
///
/// ```swift
/// let session = try FFmpegCodecSession.decoder(AV_CODEC_ID_AAC, extradata: config, what: "AAC", decoderName: "aac") {
///     .corruptData(format: "AAC", detail: "the decoder refused the AudioSpecificConfig (\($0))", path: nil)
/// }
/// try session.send(unit, tooLarge: .tooLarge(what: "AAC access unit", value: unit.count, limit: 0)) { .corruptData(format: "AAC", detail: $0, path: nil) }
/// try session.receiveFrames(failure: { .corruptData(format: "AAC", detail: $0, path: nil) }) { frame in use(frame) }
/// ```
final class FFmpegCodecSession {
    /// The context; nil once closed (drained or abandoned).
    private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>

    /// Takes `context`, which is freed with the session, or at once when the packet or frame
    /// cannot be made (`.tooLarge` naming "`what` buffers").
    init(context: UnsafeMutablePointer<AVCodecContext>, what: String) throws(DaguerreError) {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        guard let madePacket = packet, let madeFrame = frame else {
            av_packet_free(&packet)
            av_frame_free(&frame)
            avcodec_free_context(&owned)
            throw .tooLarge(what: "\(what) buffers", value: 0, limit: 0)
        }
        self.context = context
        self.packet = madePacket
        self.frame = madeFrame
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }

    var isOpen: Bool { context != nil }

    /// Frees the context now (the packet and frame go with the session).
    func close() { avcodec_free_context(&context) }

    /// A decoder for `id`, its extradata copied with libavcodec's input padding, on one thread
    /// or on `frameThreads` frame threads (successive frames decoded at once; libavcodec's
    /// decoders give the same pixels either way, so results are the same on every run);
    /// `refused` makes the error for a failed open from libavcodec's message. A missing
    /// decoder is `.unsupported` naming `what`.
    static func decoder(
        _ id: AVCodecID, extradata: [UInt8], what: String, decoderName: String, frameThreads: Int = 1,
        refused: (String) -> DaguerreError
    ) throws(DaguerreError) -> FFmpegCodecSession {
        try FFmpegError.requireLibraries(for: "\(what) decoding")
        dag_av_log_quiet()
        guard let codec = avcodec_find_decoder(id) else {
            throw .unsupported(
                feature: "\(what) decoding", hint: "Install libavcodec with its \(decoderName) decoder (apt-get install libavcodec-dev).")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw .tooLarge(what: "\(what) decoder context", value: 0, limit: 0) }
        var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
        let padding = Int(dag_av_input_padding())
        guard let buffer = av_mallocz(extradata.count + padding)?.assumingMemoryBound(to: UInt8.self) else {
            avcodec_free_context(&owned)
            throw .tooLarge(what: "\(what) extradata", value: extradata.count, limit: 0)
        }
        extradata.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.update(from: base, count: extradata.count) } }
        ctx.pointee.extradata = buffer
        ctx.pointee.extradata_size = Int32(extradata.count)
        ctx.pointee.thread_count = Int32(max(1, frameThreads))
        if frameThreads > 1 { ctx.pointee.thread_type = dag_av_thread_frame() }
        let status = avcodec_open2(ctx, codec, nil)
        guard status >= 0 else {
            avcodec_free_context(&owned)
            throw refused(FFmpegError.describe(status))
        }
        return try FFmpegCodecSession(context: ctx, what: "\(what) decoder")
    }

    /// Sends one compressed unit to the decoder. `tooLarge` is thrown when libavcodec cannot
    /// make a packet of its size; `rejected` makes the error when the decoder refuses it.
    func send(
        _ bytes: [UInt8], presentationTime: Int64? = nil, tooLarge: DaguerreError, rejected: (String) -> DaguerreError
    ) throws(DaguerreError) {
        guard let context else { return }
        guard bytes.count < Int(Int32.max) - 64, av_new_packet(packet, Int32(bytes.count)) >= 0, let data = packet.pointee.data else {
            throw tooLarge
        }
        bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { data.update(from: base, count: bytes.count) } }
        if let presentationTime {
            packet.pointee.pts = presentationTime
            packet.pointee.dts = dag_av_nopts_value()
        }
        let status = avcodec_send_packet(context, packet)
        av_packet_unref(packet)
        guard status >= 0 || status == FFmpegError.again else { throw rejected(FFmpegError.describe(status)) }
    }

    /// Calls `body` with every frame the decoder has ready, in order (each unreferenced after);
    /// `failure` makes the error when decoding fails.
    func receiveFrames(
        failure: (String) -> DaguerreError, _ body: (UnsafeMutablePointer<AVFrame>) throws(DaguerreError) -> Void
    ) throws(DaguerreError) {
        guard let context else { return }
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == FFmpegError.again || status == FFmpegError.endOfFile { break }
            guard status >= 0 else { throw failure(FFmpegError.describe(status)) }
            defer { av_frame_unref(frame) }
            try body(frame)
        }
    }

    /// Calls `body` with every packet the encoder has ready, in order (each unreferenced
    /// after); `failure` makes the error when encoding fails.
    func receivePackets(
        failure: (String) -> DaguerreError, _ body: (UnsafeMutablePointer<AVPacket>) throws(DaguerreError) -> Void
    ) throws(DaguerreError) {
        guard let context else { return }
        while true {
            let status = avcodec_receive_packet(context, packet)
            if status == FFmpegError.again || status == FFmpegError.endOfFile { break }
            guard status >= 0 else { throw failure(FFmpegError.describe(status)) }
            defer { av_packet_unref(packet) }
            try body(packet)
        }
    }

    /// Signals the end of the stream, passes the frames still held to `body`, and closes.
    func drain(
        failure: (String) -> DaguerreError, _ body: (UnsafeMutablePointer<AVFrame>) throws(DaguerreError) -> Void
    ) throws(DaguerreError) {
        guard let context else { return }
        _ = avcodec_send_packet(context, nil)
        try receiveFrames(failure: failure, body)
        close()
    }
}
