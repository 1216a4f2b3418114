// A frame as the virtual sensor delivers it (SPEC C4, R1): the Bayer mosaic and what the camera
// knew when it took it.
import DaguerreCore
import DaguerreFormats

/// Per-frame metadata: the facts a capture pipeline attaches to each buffer.
public struct FrameMetadata: Sendable, Equatable {
    /// Index in the camera's sequence, and the exposure's start on the camera's clock (seconds).
    public var index: UInt64
    public var timestamp: Double
    public var exposureDuration: Double
    public var iso: Double
    public var analogGain: Double
    /// The scene's light level as the camera estimates it from its exposure and metering.
    public var luxEstimate: Double
    /// White-balance gains (R, G, B; G = 1) in force for this frame.
    public var whiteBalanceGains: SIMD3<Double>
    /// Image displacement at the frame's start and its speed during the exposure, in
    /// full-resolution pixels and pixels per second.
    public var motion: SIMD2<Double>
    public var motionSpeed: Double
    /// Whether the flash fired for this frame.
    public var flashFired: Bool
}

/// A raw frame: mosaic plus metadata.
///
/// ```swift
/// let frame = try camera.captureRAW(mode: camera.profile.modes[1], at: 0)
/// print(frame.mosaic.width, frame.metadata.iso)
/// ```
public struct RawFrame: Sendable {
    public var mosaic: BayerImage
    public var metadata: FrameMetadata
}
