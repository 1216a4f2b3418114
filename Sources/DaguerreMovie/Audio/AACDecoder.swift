// AAC decoding through FFmpeg's libavcodec native "aac" decoder, fed the track's
// AudioSpecificConfig; its float planes interleaved to 16-bit PCM in Swift (libswresample is
// not used).
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// Decodes AAC access units (the samples of an 'mp4a' track, as iPhone movies and Motion Photo
/// MP4s carry them) to interleaved signed 16-bit PCM with libavcodec's native `aac` decoder.
///
/// The AudioSpecificConfig from the track's `esds` (``MovieTrack/audioSpecificConfig``) is the
/// decoder's extradata, so samples go in exactly as the file stores them. Each access unit
/// gives its frames (1024 for AAC-LC, 2048 with SBR) the moment it is decoded; the decoder
/// keeps no frames back, so the output lines up with the media timeline sample for sample. The
/// encoder's priming (2112 frames from Apple's encoder, 1024 from FFmpeg's) is in that output:
/// the track's edit list says where the sound starts, and ``MovieReader/pcm16Samples(track:applyingEdits:)``
/// applies it.
///
/// Float output is converted as FFmpeg's libswresample converts it (× 32768, rounded to
/// nearest, clipped), so the samples equal `ffmpeg -f s16le` output. Channel counts and frame
/// sizes are checked before any buffer is allocated; damaged data is a typed error, and
/// libavcodec's logging is silenced.
///
/// Not thread-safe (one decoding session).
///
/// ```swift
/// let decoder = try AACDecoder(audioSpecificConfig: track.audioSpecificConfig!)
/// var pcm: [Int16] = []
/// for i in 0..<track.sampleCount { pcm += try decoder.decode(reader.sampleData(track: track.id, index: i)) }
/// pcm += try decoder.flush()
/// ```
public final class AACDecoder {
    /// Channels of the stream (1–8), from the configuration; decoded frames must keep it.
    public let channels: Int
    /// Frames per second of the output: the AudioSpecificConfig's sampling frequency until a
    /// frame is decoded, then the decoder's (which doubles it for implicitly signalled SBR).
    public private(set) var sampleRate: Int

    /// Most frames one access unit may decode to (AAC: 960, 1024, 2048 with SBR; 4096 leaves room).
    public static let maxFramesPerUnit = 4096
    /// Most channels accepted (Live Photo and Motion Photo audio is mono or stereo; 7.1 is 8).
    public static let maxChannels = 8

    private let session: FFmpegCodecSession

    public init(audioSpecificConfig config: [UInt8]) throws(DaguerreError) {
        guard (2...64).contains(config.count) else {
            throw .corruptData(
                format: "AAC", detail: "the AudioSpecificConfig has \(config.count) bytes (2–64 expected)", path: nil)
        }
        session = try FFmpegCodecSession.decoder(AV_CODEC_ID_AAC, extradata: config, what: "AAC", decoderName: "native aac") {
            .corruptData(format: "AAC", detail: "the decoder refused the AudioSpecificConfig (\($0))", path: nil)
        }
        guard let ctx = session.context else { throw .corruptData(format: "AAC", detail: "the decoder did not open", path: nil) }
        let channels = Int(ctx.pointee.ch_layout.nb_channels)
        // libavcodec 59 leaves the context's rate 0 until the first frame: the configuration says it.
        let rate = ctx.pointee.sample_rate > 0 ? Int(ctx.pointee.sample_rate) : AACDecoder.samplingFrequency(config) ?? 0
        guard (1...AACDecoder.maxChannels).contains(channels), (1000...384_000).contains(rate) else {
            if channels > AACDecoder.maxChannels {
                throw .tooLarge(what: "AAC channels", value: channels, limit: AACDecoder.maxChannels)
            }
            throw .corruptData(
                format: "AAC", detail: "the AudioSpecificConfig gives \(channels) channels at \(rate) Hz", path: nil)
        }
        self.channels = channels
        self.sampleRate = rate
    }

    /// Decodes one access unit; returns the interleaved samples that became ready
    /// (frames × ``channels`` values).
    public func decode(_ unit: [UInt8]) throws(DaguerreError) -> [Int16] {
        guard session.isOpen else { throw .invalidArgument(what: "AAC decoder", problem: "it was already flushed") }
        guard !unit.isEmpty else { return [] }
        // An AAC access unit holds at most 6144 bits per channel (ISO 14496-3 §4.5.3.2).
        let limit = 768 * AACDecoder.maxChannels * 2
        let tooLarge = DaguerreError.tooLarge(what: "AAC access unit in bytes", value: unit.count, limit: limit)
        guard unit.count <= limit else { throw tooLarge }
        try session.send(unit, tooLarge: tooLarge) {
            .corruptData(format: "AAC", detail: "the decoder rejected an access unit (\($0))", path: nil)
        }
        var out: [Int16] = []
        try session.receiveFrames(failure: Self.decodingFailed) { (f) throws(DaguerreError) in try append(f, to: &out) }
        return out
    }

    /// Signals the end of the stream and returns the samples still held (none for AAC, whose
    /// decoder holds no frames back; drained all the same).
    public func flush() throws(DaguerreError) -> [Int16] {
        var out: [Int16] = []
        try session.drain(failure: Self.decodingFailed) { (f) throws(DaguerreError) in try append(f, to: &out) }
        return out
    }

    private static func decodingFailed(_ reason: String) -> DaguerreError {
        .corruptData(format: "AAC", detail: "decoding failed (\(reason))", path: nil)
    }

    /// Interleaves one decoded frame onto `out`, converting it to Int16.
    private func append(_ f: UnsafeMutablePointer<AVFrame>, to out: inout [Int16]) throws(DaguerreError) {
        let frames = Int(f.pointee.nb_samples)
        let frameChannels = Int(f.pointee.ch_layout.nb_channels)
        guard frames >= 0, frames <= AACDecoder.maxFramesPerUnit else {
            throw .tooLarge(what: "Frames in one decoded AAC access unit", value: frames, limit: AACDecoder.maxFramesPerUnit)
        }
        // A stream may not change its channel count midway (a program config element could say so).
        guard frameChannels == channels else {
            throw .corruptData(
                format: "AAC", detail: "an access unit decoded to \(frameChannels) channels in a \(channels)-channel stream", path: nil)
        }
        guard frames > 0 else { return }
        let rate = Int(f.pointee.sample_rate)
        if rate > 0 {
            guard rate <= 384_000 else { throw .corruptData(format: "AAC", detail: "a frame decoded at \(rate) Hz", path: nil) }
            sampleRate = rate
        }
        guard let planes = f.pointee.extended_data else {
            throw .corruptData(format: "AAC", detail: "the decoder returned a frame without data", path: nil)
        }
        let format = AVSampleFormat(rawValue: f.pointee.format)
        let planar = format == AV_SAMPLE_FMT_FLTP || format == AV_SAMPLE_FMT_S16P || format == AV_SAMPLE_FMT_S32P
        guard
            [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_S32]
                .contains(format)
        else {
            throw .unsupported(
                feature: "AAC decoder output in sample format \(f.pointee.format)",
                hint: "Use FFmpeg's native aac decoder, which gives 32-bit float planes.")
        }
        var pointers: [UnsafeMutablePointer<UInt8>] = []
        for c in 0..<(planar ? channels : 1) {
            guard let p = planes[c] else {
                throw .corruptData(format: "AAC", detail: "the decoded frame has no data for channel \(c)", path: nil)
            }
            pointers.append(p)
        }
        let base = out.count
        out.append(contentsOf: repeatElement(0, count: frames * channels))
        out.withUnsafeMutableBufferPointer { dst in
            for c in 0..<channels {
                // Planar: one plane per channel, stride 1; packed: one plane, stride `channels`.
                let plane = UnsafeRawPointer(pointers[planar ? c : 0])
                let first = planar ? 0 : c
                let step = planar ? 1 : channels
                var o = base + c
                switch format {
                case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT:
                    let s = plane.assumingMemoryBound(to: Float.self)
                    for i in 0..<frames {
                        dst[o] = AACDecoder.int16(s[first + i * step])
                        o += channels
                    }
                case AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_S32:
                    let s = plane.assumingMemoryBound(to: Int32.self)
                    for i in 0..<frames {
                        dst[o] = Int16(truncatingIfNeeded: s[first + i * step] >> 16)  // as libswresample: the top 16 bits
                        o += channels
                    }
                default:
                    let s = plane.assumingMemoryBound(to: Int16.self)
                    for i in 0..<frames {
                        dst[o] = s[first + i * step]
                        o += channels
                    }
                }
            }
        }
    }

    /// The sampling frequency of an AudioSpecificConfig (ISO 14496-3 §1.6.2.1): a 5-bit object
    /// type (31: 6 more bits), then a 4-bit index into the standard rates (15: 24 explicit bits).
    static func samplingFrequency(_ config: [UInt8]) -> Int? {
        var bit = 0
        func read(_ n: Int) -> Int? {
            guard bit + n <= config.count * 8 else { return nil }
            var v = 0
            for _ in 0..<n {
                v = v << 1 | Int(config[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
                bit += 1
            }
            return v
        }
        guard let type = read(5), type != 31 || read(6) != nil, let index = read(4) else { return nil }
        let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8000, 7350]
        if index == 15 { return read(24) }
        return index < rates.count ? rates[index] : nil
    }

    /// A float sample (full scale ±1) as Int16, the way libswresample converts: × 32768, rounded
    /// to nearest (ties to even, as lrintf), clipped to −32768…32767; NaN is 0.
    @inline(__always)
    static func int16(_ x: Float) -> Int16 {
        let scaled = (x * 32768).rounded(.toNearestOrEven)
        guard scaled == scaled else { return 0 }
        return Int16(max(-32768, min(32767, scaled)))
    }
}
