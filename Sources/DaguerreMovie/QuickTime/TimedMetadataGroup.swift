// One sample of a timed metadata track, decoded: its time range and items.
import DaguerreCore
import DaguerreFormats

/// The items of one timed metadata sample and when they apply (AVTimedMetadataGroup).
///
/// For a Live Photo movie the still-image-time track has one group: at the still's time, with
/// one item `com.apple.quicktime.still-image-time` = -1 (SPEC L4).
///
/// ```swift
/// for group in try reader.timedMetadata(track: meta.id) { print(group.time.seconds, group.items) }
/// ```
public struct TimedMetadataGroup: Sendable, Hashable {
    /// When the sample starts on the movie timeline (edit list applied), in the media timescale.
    public var time: MediaTime
    public var duration: MediaTime
    public var items: [MetadataItem]
}
