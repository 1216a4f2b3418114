// What a camera knew about the moment a frame was exposed (SPEC C4; consumed later by scene
// monitoring S2–S3, still stabilization P13 and Live Photo auto-trim L9).

/// The per-frame facts a camera attaches to every frame (the CMSampleBuffer attachments and
/// timing of the seeds' world).
///
/// ```swift
/// output.setSampleBufferHandler(queue: queue) { frame, _ in
///     print(frame.metadata.timestamp, frame.metadata.iso, frame.metadata.luxEstimate ?? 0)
/// }
/// ```
public struct CaptureFrameMetadata: Sendable, Hashable {
    /// Presentation time in seconds on the clock the device streams against.
    public var timestamp: Double
    /// The frame's index in its stream (0, 1, 2...): gaps show frames the device skipped.
    public var sequenceNumber: Int64
    /// Seconds.
    public var exposureDuration: Double
    public var iso: Double
    /// Sensor gain as a multiple of the base ISO's.
    public var gain: Double
    /// The scene's estimated illuminance in lux, when the device measures it.
    public var luxEstimate: Double?
    public var whiteBalanceGains: CaptureWhiteBalanceGains
    public var motion: CaptureMotion?

    public init(
        timestamp: Double, sequenceNumber: Int64 = 0, exposureDuration: Double = 1.0 / 60, iso: Double = 100,
        gain: Double = 1, luxEstimate: Double? = nil, whiteBalanceGains: CaptureWhiteBalanceGains = .identity,
        motion: CaptureMotion? = nil
    ) {
        self.timestamp = timestamp
        self.sequenceNumber = sequenceNumber
        self.exposureDuration = exposureDuration
        self.iso = iso
        self.gain = gain
        self.luxEstimate = luxEstimate
        self.whiteBalanceGains = whiteBalanceGains
        self.motion = motion
    }
}
