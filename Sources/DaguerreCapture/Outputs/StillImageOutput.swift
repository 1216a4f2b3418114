// The output photos were taken with before iOS 10 (SPEC P14): kept only so that old code finds
// it, deprecated in favour of PhotoOutput, and refused beside a PhotoOutput in one session.
import DaguerreCore

/// The deprecated still-image output (AVCaptureStillImageOutput). It can join a session, so old
/// code compiles and its configuration is checked, but it takes no pictures: use
/// ``PhotoOutput``, which does everything it did and more (SPEC P14). A session refuses a
/// StillImageOutput beside a PhotoOutput.
///
/// ```swift
/// let photoOutput = PhotoOutput()          // instead of StillImageOutput()
/// try session.addOutput(photoOutput)
/// ```
@available(*, deprecated, message: "Use PhotoOutput and capturePhoto(with:delegate:) (SPEC P14).")
public final class StillImageOutput: CaptureOutput, @unchecked Sendable {
    public init() {
        super.init(role: .stillImage, acceptedMediaTypes: [.video])
    }

    /// Always throws: still images are taken with ``PhotoOutput``.
    public func captureStillImage() throws(DaguerreError) -> SampleBuffer {
        throw .unsupported(
            feature: "StillImageOutput capture (deprecated since iOS 10)",
            hint: "Use PhotoOutput.capturePhoto(with:delegate:), which replaces it (SPEC P14).")
    }
}
