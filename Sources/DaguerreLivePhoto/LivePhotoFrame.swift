// What a Live Photo edit's frame processor is given (SPEC E3, E4; PhotoKit's PHLivePhotoFrame).
import DaguerreCore
import DaguerreImage
import DaguerreMovie

/// One frame of a Live Photo being rendered: the still or a frame of the movie, upright.
///
/// `renderScale` is the frame's size relative to the full-size still: 1 for the saved still, the
/// movie's size over the still's for the movie's frames, less for a playback preview. Effects
/// whose size is in pixels scale by it, so that the photo and the video look the same.
///
/// ```swift
/// context.frameProcessor = { frame in
///     let blurred = try frame.image.applyingFilter("GaussianBlur", parameters: ["inputRadius": .number(20 * frame.renderScale)])
///     return frame.type == .photo ? blurred.composited(over: logo) : blurred
/// }
/// ```
public struct LivePhotoFrame: Sendable {
    /// Which part of the Live Photo the frame is.
    public enum FrameType: Sendable, Hashable {
        case photo
        case video
    }

    /// The frame, upright, its extent starting at the origin.
    public let image: Image
    public let type: FrameType
    /// The frame's time from the start of the movie (the still's: the photo time).
    public let time: MediaTime
    /// The frame's size relative to the full-size still.
    public let renderScale: Double
}
