// What a session's outputs need of a camera's frames (SPEC L1, L2, C6): no pixels (metering
// only), every frame at the format's size, or smaller frames at a lower rate (a Live Photo's
// buffer needs 4:3 frames a little larger than its movie, 15 a second, not the photo format's
// 12 MP at 30).

/// What a camera's outputs need of its frames' pixels.
///
/// ```swift
/// let a = FramePixelDemand.reduced(dimensions: CaptureDimensions(width: 1600, height: 1200), frameRate: 15)
/// a.combined(with: .none)            // a
/// a.combined(with: .full)            // .full
/// ```
public enum FramePixelDemand: Sendable, Hashable {
    /// No output looks at pixels: the camera may only meter its frames.
    case none
    /// Every frame at the active format's size.
    case full
    /// Frames fitted into `dimensions` (the format's aspect kept), at most `frameRate` a second;
    /// the frames in between may be metered only.
    case reduced(dimensions: CaptureDimensions, frameRate: Double)

    /// What serves both demands: the larger of two reduced demands, and at the higher rate.
    public func combined(with other: FramePixelDemand) -> FramePixelDemand {
        switch (self, other) {
        case (.none, let x), (let x, .none): return x
        case (.full, _), (_, .full): return .full
        case (.reduced(let a, let ra), .reduced(let b, let rb)):
            return .reduced(
                dimensions: CaptureDimensions(width: max(a.width, b.width), height: max(a.height, b.height)), frameRate: max(ra, rb))
        }
    }

    /// Whether any pixels are wanted.
    public var wantsPixels: Bool { self != .none }
}
