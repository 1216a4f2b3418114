// A minimal photo output: only the two options that shape the capture pipeline, so the session
// can enforce C6 (changing them while running rebuilds the pipeline), L5 (no Live Photo beside a
// movie output) and W3 (a photo output is what makes the session choose wide colour). The photo
// output proper (P1–P14) is a later issue and will grow this class.
import DaguerreCore
import Synchronization

/// The photo output, so far only its pipeline-shaping opt-ins (AVCapturePhotoOutput's
/// `isHighResolutionCaptureEnabled` and `isLivePhotoCaptureEnabled`).
///
/// Opt in before ``CaptureSession/startRunning()`` (C6, Q7): setting either while the session
/// runs makes it tear down and rebuild its pipeline, reported as
/// ``CaptureSessionEvent/pipelineRebuilt(_:)``. Setters throw where the seeds' API raised:
/// Live Photo capture with a ``MovieFileOutput`` in the session or without the `photo` preset
/// (L5). Inside `beginConfiguration()`/`commitConfiguration()` a change is staged with the rest
/// of the configuration (C3): the output shows its committed options until the commit checks
/// and applies them all at once, and a failed commit leaves them as they were.
///
/// Capturing photos is not built yet: ``capturePhoto()`` throws `.unsupported`.
///
/// ```swift
/// let photoOutput = PhotoOutput()
/// try session.addOutput(photoOutput)
/// try photoOutput.setHighResolutionCaptureEnabled(true)   // before startRunning
/// ```
public final class PhotoOutput: CaptureOutput, @unchecked Sendable {
    /// The options that shape the capture pipeline.
    ///
    /// ```swift
    /// photoOutput.pipelineOptions.isLivePhotoCaptureEnabled   // false until opted in
    /// ```
    public struct PipelineOptions: Sendable, Hashable {
        public var isHighResolutionCaptureEnabled = false
        public var isLivePhotoCaptureEnabled = false
        public init(isHighResolutionCaptureEnabled: Bool = false, isLivePhotoCaptureEnabled: Bool = false) {
            self.isHighResolutionCaptureEnabled = isHighResolutionCaptureEnabled
            self.isLivePhotoCaptureEnabled = isLivePhotoCaptureEnabled
        }

        /// Names of the options that differ between two values.
        func changedNames(from other: PipelineOptions) -> [String] {
            var names: [String] = []
            if isHighResolutionCaptureEnabled != other.isHighResolutionCaptureEnabled { names.append("isHighResolutionCaptureEnabled") }
            if isLivePhotoCaptureEnabled != other.isLivePhotoCaptureEnabled { names.append("isLivePhotoCaptureEnabled") }
            return names
        }
    }

    private let options = Mutex(PipelineOptions())

    public init() {
        super.init(role: .photo, acceptedMediaTypes: [.video])
    }

    /// Whether stills larger than the stream (C5) may be captured.
    public var isHighResolutionCaptureEnabled: Bool { pipelineOptions.isHighResolutionCaptureEnabled }
    /// Whether Live Photos may be captured (L5).
    public var isLivePhotoCaptureEnabled: Bool { pipelineOptions.isLivePhotoCaptureEnabled }
    /// Both options.
    public var pipelineOptions: PipelineOptions { options.withLock { $0 } }

    /// Opts in or out of high-resolution stills. While running, rebuilds the pipeline (C6).
    public func setHighResolutionCaptureEnabled(_ enabled: Bool) throws(DaguerreError) {
        try change { $0.isHighResolutionCaptureEnabled = enabled }
    }

    /// Opts in or out of Live Photo capture. Throws with a MovieFileOutput in the session or
    /// without the photo preset (L5). While running, rebuilds the pipeline (C6).
    public func setLivePhotoCaptureEnabled(_ enabled: Bool) throws(DaguerreError) {
        try change { $0.isLivePhotoCaptureEnabled = enabled }
    }

    /// Not built yet: photo capture (PhotoSettings, the delegate and its callbacks) is the next
    /// issue. Always throws `.unsupported`.
    public func capturePhoto() throws(DaguerreError) {
        throw .unsupported(
            feature: "PhotoOutput.capturePhoto",
            hint:
                "This PhotoOutput models only the pipeline options (isHighResolutionCaptureEnabled, isLivePhotoCaptureEnabled); photo capture with PhotoSettings and delegate callbacks comes with the PhotoOutput issue."
        )
    }

    private func change(_ mutate: @Sendable (inout PipelineOptions) -> Void) throws(DaguerreError) {
        if let session {
            try session.changePipelineOptions(of: self, mutate)
        } else {
            options.withLock { mutate(&$0) }
        }
    }

    /// Sets the options without asking the session (the session calls this when it commits them).
    func setOptionsUnchecked(_ new: PipelineOptions) {
        options.withLock { $0 = new }
    }
}
