// The live preview: the newest frame and its colour space, observable (SPEC C2's preview sink,
// the PreviewLayer analog; W3 counts it as photography-compatible).
import DaguerreCore
import Synchronization

/// Keeps the newest video frame for display (AVCaptureVideoPreviewLayer, without the layer):
/// read ``latestFrame`` when drawing, or iterate ``frames()`` to be told of each new one (a slow
/// reader sees only the newest, like a display that cannot keep up).
///
/// A photo output with a preview sink still gets Display P3 automatically (W3); the sink's
/// ``colorSpace`` says what the frames are in, so a colour-managed view can show them right.
///
/// ```swift
/// let preview = PreviewSink()
/// try session.addOutput(preview)
/// Task { for await frame in preview.frames() { show(frame, in: frame.colorSpace) } }
/// ```
public final class PreviewSink: CaptureOutput, @unchecked Sendable {
    private struct State: Sendable {
        var latest: SampleBuffer?
        var count = 0
        var nextID: UInt64 = 0
        var observers: [UInt64: AsyncStream<SampleBuffer>.Continuation] = [:]
    }

    private let state = Mutex(State())

    public init() {
        super.init(role: .preview, acceptedMediaTypes: [.video])
    }

    /// The newest frame, or nil before the first.
    public var latestFrame: SampleBuffer? { state.withLock { $0.latest } }
    /// The colour space of the newest frame.
    public var colorSpace: CaptureColorSpace? { state.withLock { $0.latest?.captureColorSpace } }
    /// Frames received so far.
    public var frameCount: Int { state.withLock { $0.count } }

    /// A stream of new frames, buffering only the newest. Ends when the caller stops iterating.
    public func frames() -> AsyncStream<SampleBuffer> {
        let (stream, continuation) = AsyncStream.makeStream(of: SampleBuffer.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.observers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    override func deliver(frame: SampleBuffer, from connection: CaptureConnection) {
        let observers = state.withLock { s in
            s.latest = frame
            s.count += 1
            return Array(s.observers.values)
        }
        for observer in observers { observer.yield(frame) }
    }
}
