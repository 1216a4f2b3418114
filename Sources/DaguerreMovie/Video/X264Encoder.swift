// H.264 encoding through libx264's own API (x264_param_default_preset, x264_encoder_open,
// x264_encoder_encode, x264_encoder_headers); the container is Daguerre's MovieWriter.
import CX264
import DaguerreCore
import DaguerreFormats

/// Encodes planar Y'CbCr 4:2:0 frames to H.264 with libx264 (SPEC L2: 1440×1080, 15 fps, about
/// 7 Mbit/s): the default ``H264EncoderChoice``. libx264 is GPL-2 (see the choice for what that
/// means).
///
/// Settings chosen for a 2-core machine shared with other work (measured here; see
/// Benchmarks/README.md): the `ultrafast` preset by default (CAVLC, 4×4 transforms, no
/// deblocking: a Constrained Baseline stream), no B-frames, no lookahead and no macroblock tree
/// (both need future frames; a Live Photo movie is written while frames arrive), frame-parallel
/// threads (2 by default), average bit rate with a VBV cap of 1.25× the target over one second.
/// For 45 frames of 1440×1080 with two other processes busy on the two cores, x264 `veryfast`
/// took 2.2–2.4 s (TOOLCHAIN.md), `superfast` 1.6–1.9 s and `ultrafast` about 0.9 s; on idle
/// cores `superfast` takes about 1.2 s end to end and compresses better (CABAC, 8×8 transforms,
/// deblocking; High profile), so pass it when the CPU allows.
///
/// Parameter sets go only into ``decoderConfiguration`` (`avcC`), not in-band; every sample is
/// length-prefixed (TOOLCHAIN.md). The VUI carries the same colour tags as the `colr` atom
/// (W5). Times are in `timescale` ticks (600 by default, like Apple's video tracks).
///
/// Not thread-safe: one encoder belongs to one recording.
///
/// ```swift
/// let encoder = try X264Encoder(settings: .init(width: 1440, height: 1080, frameRate: 15, bitRate: 7_000_000))
/// var samples = try encoder.encode(frame, presentationTime: 0)
/// samples += try encoder.finish()
/// ```
public final class X264Encoder {
    public let settings: H264EncoderSettings
    /// SPS and PPS for the `avcC` box.
    public let decoderConfiguration: AVCDecoderConfiguration
    private var handle: OpaquePointer?
    private var picture = x264_picture_t()

    public init(settings: H264EncoderSettings) throws(DaguerreError) {
        try settings.validate(maxFrameRate: 240)
        try FFmpegError.requireX264(for: "H.264 encoding")
        self.settings = settings
        var p = x264_param_t()
        guard x264_param_default_preset(&p, settings.preset, nil) == 0 else {
            throw .invalidArgument(
                what: "x264 preset '\(settings.preset)'",
                problem: "x264 knows ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo")
        }
        p.i_log_level = X264_LOG_NONE
        p.i_width = Int32(settings.width)
        p.i_height = Int32(settings.height)
        p.i_csp = X264_CSP_I420
        p.i_fps_num = UInt32(settings.frameRate)
        p.i_fps_den = 1
        p.i_timebase_num = 1
        p.i_timebase_den = UInt32(settings.timescale)
        // Frames carry their own times (a Live Photo's are uneven: an iPhone's movie mixes 1/15
        // and 1/30 s steps), so rate control follows them, and the stream's timing information
        // states the timescale without a fixed rate. With a fixed rate the SPS would claim the
        // movie's average (17 fps for an iPhone 6s movie), and ffmpeg, which then trusts that
        // rate over the container's, collides frames on its coarser clock.
        p.b_vfr_input = 1
        p.i_threads = Int32(settings.threads)
        p.i_bframe = 0
        p.i_sync_lookahead = 0
        p.rc.i_lookahead = 0
        p.rc.b_mb_tree = 0
        p.i_keyint_max = Int32(settings.keyFrameDistance)
        p.rc.i_rc_method = X264_RC_ABR
        let kbps = Int32(settings.bitRate / 1000)
        p.rc.i_bitrate = kbps
        p.rc.i_vbv_max_bitrate = kbps + kbps / 4
        p.rc.i_vbv_buffer_size = kbps
        p.b_repeat_headers = 0
        p.b_annexb = 1
        p.vui.i_sar_width = 1
        p.vui.i_sar_height = 1
        p.vui.b_fullrange = settings.colorProperties.fullRange ? 1 : 0
        p.vui.i_colorprim = Int32(settings.colorProperties.primaries)
        p.vui.i_transfer = Int32(settings.colorProperties.transfer)
        p.vui.i_colmatrix = Int32(settings.colorProperties.matrix)
        _ = x264_param_apply_profile(&p, "high")
        guard let h = dag_x264_encoder_open(&p) else {
            throw .invalidArgument(
                what:
                    "x264 settings (\(settings.preset), \(settings.width)×\(settings.height), \(settings.frameRate) fps, \(settings.bitRate) bit/s)",
                problem: "x264_encoder_open refused them")
        }
        handle = h
        // Parameter sets for avcC.
        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        let size = x264_encoder_headers(h, &nals, &count)
        var units: [[UInt8]] = []
        if size > 0, let nals {
            for i in 0..<Int(max(0, count)) {
                let nal = nals[i]
                guard let payload = nal.p_payload, nal.i_payload > 0 else { continue }
                units += AnnexB.nalUnits(in: Array(UnsafeBufferPointer(start: payload, count: Int(nal.i_payload))))
            }
        }
        do {
            decoderConfiguration = try AVCDecoderConfiguration(headerUnits: units)
        } catch {
            x264_encoder_close(h)
            handle = nil
            throw .processorFailed(name: "x264 encoder", reason: "it produced no usable SPS/PPS headers")
        }
        x264_picture_init(&picture)
        picture.img.i_csp = X264_CSP_I420
        picture.img.i_plane = 3
        picture.img.i_stride = (Int32(settings.width), Int32(settings.width / 2), Int32(settings.width / 2), 0)
    }

    deinit {
        if let handle { x264_encoder_close(handle) }
    }

    /// Encodes one frame shown at `presentationTime` (ticks of the settings' timescale,
    /// increasing). Returns the samples x264 finished, in decode order: with frame threads the
    /// first few calls return none, and ``finish()`` returns the rest.
    public func encode(_ frame: PlanarYCbCr420Buffer, presentationTime: Int64) throws(DaguerreError) -> [EncodedVideoSample] {
        guard frame.width == settings.width, frame.height == settings.height else {
            throw .invalidArgument(
                what: "Frame of \(frame.width)×\(frame.height)", problem: "the encoder was set up for \(settings.width)×\(settings.height)")
        }
        return try frame.luma.withUnsafeBufferPointer { (y) throws(DaguerreError) -> [EncodedVideoSample] in
            try frame.cb.withUnsafeBufferPointer { (cb) throws(DaguerreError) -> [EncodedVideoSample] in
                try frame.cr.withUnsafeBufferPointer { (cr) throws(DaguerreError) -> [EncodedVideoSample] in
                    try encode(y: y.baseAddress, cb: cb.baseAddress, cr: cr.baseAddress, presentationTime: presentationTime)
                }
            }
        }
    }

    /// Encodes planes of `width × height` (luma) and `width/2 × height/2` (chroma), rows packed.
    /// x264 copies the planes before returning, so the caller may reuse them.
    func encode(
        y: UnsafePointer<UInt8>?, cb: UnsafePointer<UInt8>?, cr: UnsafePointer<UInt8>?,
        presentationTime: Int64
    ) throws(DaguerreError) -> [EncodedVideoSample] {
        guard let handle, let y, let cb, let cr else {
            throw .invalidArgument(what: "H.264 encoder", problem: "it is finished or the frame has no planes")
        }
        picture.img.plane = (UnsafeMutablePointer(mutating: y), UnsafeMutablePointer(mutating: cb), UnsafeMutablePointer(mutating: cr), nil)
        picture.i_pts = presentationTime
        picture.i_type = X264_TYPE_AUTO
        var output = x264_picture_t()
        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        let size = x264_encoder_encode(handle, &nals, &count, &picture, &output)
        picture.img.plane = (nil, nil, nil, nil)
        return try collect(size: size, nals: nals, count: count, output: output)
    }

    /// Drains the frames x264 still holds; the encoder cannot be used afterwards.
    public func finish() throws(DaguerreError) -> [EncodedVideoSample] {
        guard let handle else { return [] }
        var samples: [EncodedVideoSample] = []
        // Bounded: x264 holds at most its thread and lookahead depth of frames.
        var guardCount = 0
        while x264_encoder_delayed_frames(handle) > 0, guardCount < 1024 {
            guardCount += 1
            var output = x264_picture_t()
            var nals: UnsafeMutablePointer<x264_nal_t>?
            var count: Int32 = 0
            let size = x264_encoder_encode(handle, &nals, &count, nil, &output)
            samples += try collect(size: size, nals: nals, count: count, output: output)
        }
        x264_encoder_close(handle)
        self.handle = nil
        return samples
    }

    /// Closes the encoder without draining the frames it still holds (for a cancelled recording).
    public func close() {
        if let handle { x264_encoder_close(handle) }
        handle = nil
    }

    private func collect(
        size: Int32, nals: UnsafeMutablePointer<x264_nal_t>?, count: Int32,
        output: x264_picture_t
    ) throws(DaguerreError) -> [EncodedVideoSample] {
        guard size >= 0 else { throw .processorFailed(name: "x264 encoder", reason: "x264_encoder_encode returned \(size)") }
        guard size > 0, let nals, count > 0, let first = nals[0].p_payload else { return [] }
        // x264 guarantees the payloads of one call are contiguous in memory.
        let stream = Array(UnsafeBufferPointer(start: first, count: Int(size)))
        let units = AnnexB.nalUnits(in: stream).filter { ![7, 8, 9].contains(AnnexB.type(of: $0)) }
        return [
            EncodedVideoSample(
                data: AnnexB.lengthPrefixed(units), presentationTime: output.i_pts,
                decodeTime: output.i_dts, isKeyFrame: output.b_keyframe != 0)
        ]
    }
}
