// What a finished movie file holds: the result of MovieWriter.finish and MovieRecorder.finish.
import DaguerreCore
import DaguerreFormats

/// A summary of a movie that was just written (the information AVCapturePhotoCaptureDelegate's
/// `didFinishProcessingLivePhotoToMovieFileAt` gives, L7, plus what tests check).
///
/// ```swift
/// let info = try recorder.finish()
/// print(info.path ?? "-", info.duration.seconds, info.tracks.map(\.mediaType))
/// ```
public struct MovieFileInfo: Sendable, Hashable {
    /// One track of the written movie.
    public struct Track: Sendable, Hashable {
        public var id: Int
        public var mediaType: MediaType
        /// The sample entry's format: 'avc1', 'sowt', 'mp4a', 'mebx'.
        public var codec: FourCC
        public var sampleCount: Int
        /// Where the track's media starts in the movie (an empty edit before it).
        public var startTime: MediaTime
        /// How long the media plays, in the media timescale.
        public var duration: MediaTime
        public var dataBytes: UInt64
    }

    /// The file written; nil for a movie written to memory.
    public var path: String?
    public var fileType: MovieFileType
    public var byteCount: UInt64
    /// The movie's duration (the longest track, edits included).
    public var duration: MediaTime
    public var tracks: [Track]
    /// Video frame size, when there is a video track.
    public var width: Int?
    public var height: Int?
    /// The Live Photo content identifier written, if any (L3).
    public var contentIdentifier: String?
    /// The still-image time written, if any (L4).
    public var stillImageTime: MediaTime?
}
