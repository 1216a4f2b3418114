// A Live Photo as files: a JPEG and a QuickTime movie that share a content identifier (SPEC L3).
import DaguerreCore
import DaguerreFormats
import Foundation

/// A still and a movie paired by one UUID: the JPEG's Apple MakerNote tag 0x0011
/// (Apple:MediaGroupUUID) and the movie's `com.apple.quicktime.content.identifier` (SPEC L3).
///
/// ```swift
/// let pair = try LivePhotoPair.write(still: photoSampleBuffer, preview: previewSampleBuffer,
///                                    stillPath: "IMG_0001.JPG", moviePath: "IMG_0001.MOV",
///                                    movie: settings) { recorder in
///     for (i, frame) in frames.enumerated() { try recorder.append(frame: frame, at: MediaTime(value: Int64(i), timescale: 15)) }
/// }
/// let again = try LivePhotoPair.read(still: "IMG_0001.JPG", movie: "IMG_0001.MOV")
/// ```
public struct LivePhotoPair: Sendable, Equatable {
    public var stillPath: String
    public var moviePath: String
    public var contentIdentifier: String
    /// When the still was taken, on the movie's timeline.
    public var stillImageTime: MediaTime?

    /// Writes the JPEG and the movie with one new identifier. `record` feeds the movie's frames
    /// and audio; the recorder is finished (or cancelled on error) here. Both files appear
    /// together (an ``AtomicFileGroup``); if either fails, neither is left behind.
    public static func write(
        still: SampleBuffer, preview: SampleBuffer?, stillPath: String, moviePath: String,
        movie settings: MovieSettings, contentIdentifier: String = UUID().uuidString,
        record: (MovieRecorder) throws(DaguerreError) -> Void
    ) throws(DaguerreError) -> LivePhotoPair {
        var photo = still
        photo.photoMetadata.livePhotoContentIdentifier = contentIdentifier
        let jpeg = try PhotoDataRepresentation.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: preview)
        var movieSettings = settings
        movieSettings.contentIdentifier = contentIdentifier
        let group = try AtomicFileGroup(destinations: [moviePath, stillPath])
        let recorder = try MovieRecorder(destination: moviePath, settings: movieSettings)
        do { try record(recorder) } catch {
            recorder.cancel()  // nothing reached moviePath: a file already there stays
            throw error
        }
        let info = try recorder.finish()  // cancels itself on failure; held for the group
        try AtomicFile.write(jpeg, to: stillPath)
        try group.commit()
        return LivePhotoPair(
            stillPath: stillPath, moviePath: moviePath, contentIdentifier: contentIdentifier,
            stillImageTime: info.stillImageTime)
    }

    /// Reads both files and checks that they pair: both carry an identifier, and it is the same.
    public static func read(still stillPath: String, movie moviePath: String) throws(DaguerreError) -> LivePhotoPair {
        guard let stillID = try JPEGFileMetadata(path: stillPath).metadata?.livePhotoContentIdentifier else {
            throw .corruptData(
                format: "Live Photo still", detail: "the JPEG has no content identifier (Apple MakerNote 0x0011)", path: stillPath)
        }
        let movie = try MovieReader(path: moviePath)
        guard let movieID = movie.contentIdentifier else {
            throw .corruptData(
                format: "Live Photo movie", detail: "the movie has no com.apple.quicktime.content.identifier", path: moviePath)
        }
        guard stillID == movieID else {
            throw .corruptData(
                format: "Live Photo pair", detail: "the still's identifier \(stillID) differs from the movie's \(movieID)", path: stillPath)
        }
        return LivePhotoPair(
            stillPath: stillPath, moviePath: moviePath, contentIdentifier: stillID, stillImageTime: try movie.stillImageTime())
    }

    /// The pair as one Motion Photo (SPEC L6): the still's JPEG with the movie as an MP4 after
    /// it, the presentation timestamp at the still's time.
    public func motionPhoto(includeAudio: Bool = true) throws(DaguerreError) -> [UInt8] {
        let bytes = try ImageSource.readFile(stillPath)
        let mp4 = try MotionPhotoVideo.mp4(fromLivePhotoMovie: moviePath, includeAudio: includeAudio)
        let micros = Int64(((stillImageTime?.seconds ?? 0) * 1_000_000).rounded())
        return try MotionPhoto.make(primary: bytes, video: mp4, presentationTimestampUs: micros)
    }
}
