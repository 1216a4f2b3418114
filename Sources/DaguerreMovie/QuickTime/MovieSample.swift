// Where one sample of a track is and when it plays.
import DaguerreCore
import DaguerreFormats

/// One sample of a track as the sample tables describe it (what AVSampleCursor reports).
///
/// Times are in the track's media timescale; ``MovieTrack/presentationTime(ofMediaTime:)``
/// maps them to the movie timeline through the edit list.
///
/// ```swift
/// let s = track.sample(at: 0)!
/// print(s.offset ?? 0, s.size, s.decodeTime, s.isSync)
/// ```
public struct MovieSample: Sendable, Hashable {
    public var index: Int
    /// Byte offset of the sample in the file; nil when the file lists no chunk offsets (its
    /// media data was stripped).
    public var offset: UInt64?
    public var size: Int
    public var decodeTime: Int64
    /// Decode time plus the composition offset.
    public var presentationTime: Int64
    public var duration: Int64
    /// Decoding can start here (listed in 'stss', or every sample when there is no 'stss').
    public var isSync: Bool
}
