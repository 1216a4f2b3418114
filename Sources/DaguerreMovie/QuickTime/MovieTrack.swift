// One track of a movie as read: its kind, format, timing, sample tables and references.
import DaguerreCore
import DaguerreFormats

/// A track of a movie read by ``MovieReader`` (AVAssetTrack): what it holds, its format
/// details, its timing (media timescale, edit list) and its sample table.
///
/// ```swift
/// let video = reader.tracks.first { $0.mediaType == .video }!
/// print(video.codec, video.width ?? 0, video.sampleCount, video.transform.rotation ?? 0)
/// ```
public struct MovieTrack: Sendable, Hashable {
    /// One entry of the edit list ('elst'): `duration` in the movie timescale; `mediaTime` -1
    /// for an empty edit (the track starts later).
    public struct Edit: Sendable, Hashable {
        public var duration: Int64
        public var mediaTime: Int64
        public var rate: Double
    }

    public var id: Int
    public var mediaType: MediaType
    /// The media handler type ('vide', 'soun', 'meta', …).
    public var handler: FourCC
    /// The first sample description's format ('avc1', 'sowt', 'mebx', 'jpeg', …).
    public var codec: FourCC
    /// Coded frame size from the video sample description.
    public var width: Int?
    public var height: Int?
    /// The track header's display size (16.16 fixed point, as points).
    public var displayWidth: Double
    public var displayHeight: Double
    /// The track header's display matrix: how players turn the frames (``TrackTransform/rotation``).
    public var transform: TrackTransform
    public var enabled: Bool
    /// Media ticks per second.
    public var timescale: Int32
    /// The media's length (mdhd), in the media timescale.
    public var mediaDuration: MediaTime
    /// The track's length on the movie timeline (tkhd), edits included.
    public var duration: MediaTime
    public var language: String?
    public var edits: [Edit]
    /// Track references ('tref'): 'cdsc' lists the tracks a metadata track describes.
    public var references: [FourCC: [Int]]
    /// Video colour tags ('colr' 'nclx' or 'nclc').
    public var colorProperties: VideoColorProperties?
    /// The parameter sets of an H.264 ('avcC' of 'avc1'/'avc3') or HEVC ('hvcC' of
    /// 'hvc1'/'hev1') track; nil for other codecs, which ``MovieReader`` does not decode.
    public var decoderConfiguration: VideoDecoderConfiguration?
    public var sampleRate: Double?
    public var channels: Int?
    public var bitsPerSample: Int?
    /// The AAC decoder configuration (ISO 14496-3 AudioSpecificConfig): the DecoderSpecificInfo
    /// of the `esds` descriptor of an 'mp4a' track, found in the sample description or in its
    /// QuickTime `wave` atom.
    public var audioSpecificConfig: [UInt8]?
    /// The format flags of a QuickTime version-2 'lpcm' sound description (Core Audio's
    /// kAudioFormatFlagIsFloat 1, IsBigEndian 2, IsSignedInteger 4, …); nil for other descriptions.
    public var audioFormatFlags: UInt32?
    /// Keys of a timed metadata ('mebx') track.
    public var timedMetadataKeys: [TimedMetadataKey]
    public var sampleTable: SampleTable
    /// The movie timescale the edit durations use.
    public var movieTimescale: Int32

    public var sampleCount: Int { sampleTable.sampleCount }

    public func sample(at index: Int) -> MovieSample? { sampleTable.sample(at: index) }

    /// When the media starts on the movie timeline: the total of the leading empty edits.
    public var startTime: MediaTime {
        var t: Int64 = 0
        for e in edits { if e.mediaTime == -1 { t &+= e.duration } else { break } }
        return MediaTime(value: t, timescale: movieTimescale)
    }

    /// Maps a media time (e.g. a sample's presentation time) to the movie timeline through the
    /// edit list; nil when no edit shows that media time. Without an edit list, media time is
    /// movie time. The result is in the media timescale.
    public func presentationTime(ofMediaTime t: Int64) -> MediaTime? {
        guard !edits.isEmpty else { return MediaTime(value: t, timescale: timescale) }
        var start: Int64 = 0  // movie ticks
        for e in edits {
            defer { start &+= e.duration }
            guard e.mediaTime >= 0 else { continue }
            let span = MediaTime(value: e.duration, timescale: movieTimescale).converted(to: timescale).value
            // A zero-length edit still shows its first media instant (a one-tick sample of a metadata track).
            if t >= e.mediaTime, t < e.mediaTime &+ max(1, span) {
                let startMedia = MediaTime(value: start, timescale: movieTimescale).converted(to: timescale).value
                return MediaTime(value: startMedia &+ (t - e.mediaTime), timescale: timescale)
            }
        }
        return nil
    }
}
