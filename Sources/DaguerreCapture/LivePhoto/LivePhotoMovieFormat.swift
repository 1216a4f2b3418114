// The Live Photo movie's shape (SPEC L1, L2): 1.5 s each side of the still, 15 frames a second,
// 1440×1080 for a 4:3 camera (its aspect fitted into 1440×1080, and at most nine tenths of the
// stream, for others), read from a stream a ninth larger so that stabilization (L10) has a
// margin to move the crop in.
import DaguerreCore

/// The size, rate and span of a camera's Live Photo movies.
///
/// ```swift
/// let f = LivePhotoMovieFormat(streamFormat: CaptureDimensions(width: 4032, height: 3024))
/// f.movieDimensions        // 1440×1080
/// f.bufferDimensions       // 1600×1200: the frames the camera reads out for the buffer
/// ```
public struct LivePhotoMovieFormat: Sendable, Hashable {
    /// Seconds of movie before and after the still (L1).
    public static let span = 1.5
    /// Movie frames per second (L2).
    public static let frameRate = 15
    /// The largest movie (L2).
    public static let largest = CaptureDimensions(width: 1440, height: 1080)
    /// The share of a buffered frame's width and height the movie's crop covers; the rest is
    /// the stabilization margin.
    public static let cropShare = 0.9

    public let movieDimensions: CaptureDimensions
    /// The frames the buffer keeps: the movie's size over ``cropShare``, at most the stream's.
    public let bufferDimensions: CaptureDimensions

    public init(streamFormat: CaptureDimensions) {
        let box = CaptureDimensions(
            width: min(Self.largest.width, Int(Double(streamFormat.width) * Self.cropShare)),
            height: min(Self.largest.height, Int(Double(streamFormat.height) * Self.cropShare)))
        let fitted = streamFormat.fitted(into: box)
        movieDimensions = CaptureDimensions(width: max(2, fitted.width & ~1), height: max(2, fitted.height & ~1))
        let w = min(streamFormat.width, Int((Double(movieDimensions.width) / Self.cropShare).rounded()))
        let h = min(streamFormat.height, Int((Double(movieDimensions.height) / Self.cropShare).rounded()))
        bufferDimensions = CaptureDimensions(width: max(2, w & ~1), height: max(2, h & ~1))
    }

    /// The frames a Live Photo buffer asks the camera for.
    public var demand: FramePixelDemand { .reduced(dimensions: bufferDimensions, frameRate: Double(Self.frameRate)) }
}
