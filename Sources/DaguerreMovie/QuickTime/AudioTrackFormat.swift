// The sample description of an audio track: 16-bit PCM ('sowt') or AAC ('mp4a' with esds).
import DaguerreCore
import DaguerreFormats

/// An audio track for ``MovieWriter``.
///
/// - ``Codec/linearPCM16``: signed 16-bit little-endian PCM, interleaved, as a QuickTime
///   version-0 sound description with format 'sowt' (which FFmpeg names pcm_s16le). Each
///   sample of the track is one frame (one value per channel) lasting one tick of the
///   sample-rate timescale, so `stts` is a single run and `stsz` one fixed size (QuickTime File
///   Format "Sound sample descriptions"). SPEC L2: 44.1 kHz, mono or stereo. QuickTime only.
/// - ``Codec/aac(audioSpecificConfig:averageBitRate:)``: AAC access units of 1024 frames with
///   an `esds` descriptor (ISO 14496-14 §5.6, 14496-1 §7.2.6). MPEG-4 only (for Motion Photo).
///
/// ```swift
/// let audio = try writer.addAudioTrack(AudioTrackFormat(codec: .linearPCM16, sampleRate: 44_100, channels: 1))
/// ```
public struct AudioTrackFormat: Sendable, Hashable {
    public enum Codec: Sendable, Hashable {
        case linearPCM16
        /// `audioSpecificConfig` is the decoder configuration from the AAC encoder (extradata).
        case aac(audioSpecificConfig: [UInt8], averageBitRate: Int)
    }

    public var codec: Codec
    public var sampleRate: Int
    public var channels: Int

    public init(codec: Codec, sampleRate: Int = 44_100, channels: Int = 1) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The media timescale: the sample rate.
    var timescale: Int32 { Int32(clamping: sampleRate) }
    /// Bytes per PCM frame.
    var bytesPerFrame: Int { 2 * channels }

    var fourCC: FourCC {
        switch codec {
        case .linearPCM16: return "sowt"
        case .aac: return "mp4a"
        }
    }

    func validate(for fileType: MovieFileType) throws(DaguerreError) {
        // The version-0 sound description holds the rate as 16.16 fixed point.
        guard (1000...65535).contains(sampleRate), (1...8).contains(channels) else {
            throw .invalidArgument(
                what: "Audio \(sampleRate) Hz, \(channels) channels",
                problem: "the rate must be 1000–65535 Hz and there must be 1–8 channels")
        }
        switch (codec, fileType) {
        case (.linearPCM16, .mpeg4):
            throw .unsupported(
                feature: "PCM audio in an MPEG-4 file", hint: "Write a QuickTime movie, or encode the audio to AAC (AACEncoder).")
        case (.aac, .quickTimeMovie):
            throw .unsupported(feature: "AAC audio in a QuickTime movie", hint: "Use 16-bit PCM in QuickTime movies, AAC in MPEG-4 files.")
        case (.aac(let config, _), .mpeg4) where config.isEmpty || config.count > 64:
            throw .invalidArgument(
                what: "AAC AudioSpecificConfig of \(config.count) bytes", problem: "it must be 1–64 bytes (from the encoder's extradata)")
        default: break
        }
    }

    func sampleEntry() -> [UInt8] {
        var w = ByteWriter()
        w.box(fourCC) { w in
            w.zeros(6)
            w.u16(1)  // reserved, data reference index
            w.u16(0)
            w.u16(0)
            w.u32(0)  // version 0, revision, vendor
            w.u16(UInt16(channels))
            w.u16(16)  // channels, bits per sample
            w.u16(0)
            w.u16(0)  // compression ID, packet size
            w.u32(UInt32(sampleRate) << 16)  // 16.16 sample rate
            if case .aac(let config, let bitRate) = codec {
                w.fullBox("esds") { w in
                    AudioTrackFormat.descriptor(0x03, into: &w) { es in
                        es.u16(0)
                        es.u8(0)  // ES_ID, flags
                        AudioTrackFormat.descriptor(0x04, into: &es) { dc in
                            dc.u8(0x40)  // objectTypeIndication: MPEG-4 audio
                            dc.u8(0x15)  // streamType audio (5) << 2 | reserved 1
                            dc.u24(UInt32(1536 * channels))  // decoder buffer size
                            dc.u32(UInt32(clamping: bitRate))
                            dc.u32(UInt32(clamping: bitRate))
                            AudioTrackFormat.descriptor(0x05, into: &dc) { $0.append(config) }
                        }
                        AudioTrackFormat.descriptor(0x06, into: &es) { $0.u8(0x02) }  // SLConfig: predefined MP4
                    }
                }
            }
        }
        return w.bytes
    }

    /// An MPEG-4 systems descriptor: tag, variable-length size (7 bits per byte), body.
    static func descriptor(_ tag: UInt8, into w: inout ByteWriter, _ body: (inout ByteWriter) -> Void) {
        var inner = ByteWriter()
        body(&inner)
        w.u8(tag)
        var size = inner.bytes.count
        var lengthBytes: [UInt8] = [UInt8(size & 0x7F)]
        size >>= 7
        while size > 0 {
            lengthBytes.insert(UInt8(0x80 | (size & 0x7F)), at: 0)
            size >>= 7
        }
        w.append(lengthBytes)
        w.append(inner.bytes)
    }
}
