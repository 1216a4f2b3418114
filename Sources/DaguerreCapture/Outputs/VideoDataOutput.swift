import DaguerreCore
// Frames to app code through a callback on the app's queue, with late-frame dropping (SPEC C2:
// "VideoDataOutput (buffers to a callback)"; session 511: streaming outputs).
import Dispatch
import Synchronization

/// Receives a ``VideoDataOutput``'s frames (AVCaptureVideoDataOutputSampleBufferDelegate). Both
/// methods run on the queue given with the delegate; ``captureOutput(_:didDrop:reason:from:)``
/// has a default that does nothing.
///
/// ```swift
/// final class Analyzer: VideoDataOutputSampleBufferDelegate {
///     func captureOutput(_ output: VideoDataOutput, didOutput frame: SampleBuffer, from connection: CaptureConnection) {
///         print(frame.metadata.timestamp, frame.colorSpace)
///     }
/// }
/// ```
public protocol VideoDataOutputSampleBufferDelegate: AnyObject, Sendable {
    func captureOutput(_ output: VideoDataOutput, didOutput frame: SampleBuffer, from connection: CaptureConnection)
    func captureOutput(
        _ output: VideoDataOutput, didDrop frame: CaptureFrameMetadata, reason: CaptureFrameDropReason,
        from connection: CaptureConnection)
}

extension VideoDataOutputSampleBufferDelegate {
    public func captureOutput(
        _ output: VideoDataOutput, didDrop frame: CaptureFrameMetadata, reason: CaptureFrameDropReason,
        from connection: CaptureConnection
    ) {}
}

/// Why a frame never reached the callback (kCMSampleBufferDroppedFrameReason).
///
/// ```swift
/// output.setSampleBufferHandler(queue: queue) { _, _ in } didDrop: { metadata, reason, _ in
///     if reason == .frameWasLate { print("the callback is too slow for", metadata.timestamp) }
/// }
/// ```
public enum CaptureFrameDropReason: String, Sendable, Hashable {
    /// The callback was still busy and a newer frame replaced this one
    /// (``VideoDataOutput/alwaysDiscardsLateVideoFrames``).
    case frameWasLate
    /// Frames were being kept for a busy callback and the queue was full.
    case outOfBuffers
}

/// Delivers every video frame to app code (AVCaptureVideoDataOutput): a delegate or a closure,
/// called on a serial `DispatchQueue` of the caller's.
///
/// With ``alwaysDiscardsLateVideoFrames`` (the default) a callback that is still busy when
/// frames arrive gets only the newest one when it returns: each waiting frame is replaced by the
/// next and reported as dropped (`.frameWasLate`). Without it, frames queue up to
/// ``maximumQueuedFrameCount`` and later ones are dropped (`.outOfBuffers`). Drops are counted
/// in ``droppedFrameCount`` and reported to the drop callback on the same queue.
///
/// Frames arrive in the camera's format and colour space (W4: P3 frames flow here when the
/// camera streams P3; check `frame.colorSpace`).
///
/// ```swift
/// let output = VideoDataOutput()
/// output.setSampleBufferHandler(queue: DispatchQueue(label: "frames")) { frame, connection in
///     analyze(frame)
/// } didDrop: { metadata, reason, _ in
///     print("dropped frame at", metadata.timestamp, reason)
/// }
/// try session.addOutput(output)
/// ```
public final class VideoDataOutput: CaptureOutput, @unchecked Sendable {
    private enum Target: Sendable {
        case delegate(WeakDelegate)
        case closures(
            didOutput: @Sendable (SampleBuffer, CaptureConnection) -> Void,
            didDrop: (@Sendable (CaptureFrameMetadata, CaptureFrameDropReason, CaptureConnection) -> Void)?)
    }

    private struct WeakDelegate: Sendable {
        weak var delegate: (any VideoDataOutputSampleBufferDelegate)?
    }

    private struct Item: Sendable {
        let frame: SampleBuffer
        let connection: CaptureConnection
    }

    private struct State: Sendable {
        var target: Target?
        var queue: DispatchQueue?
        var alwaysDiscardsLateVideoFrames = true
        var maximumQueuedFrameCount = 8
        var busy = false
        var waiting: [Item] = []
        var delivered = 0
        var dropped = 0
    }

    private let state = Mutex(State())

    public init() {
        super.init(role: .videoData, acceptedMediaTypes: [.video])
    }

    /// Default true: a busy callback gets only the newest frame when it returns.
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { state.withLock { $0.alwaysDiscardsLateVideoFrames } }
        set { state.withLock { $0.alwaysDiscardsLateVideoFrames = newValue } }
    }

    /// How many frames wait for a busy callback when late frames are not discarded (default 8,
    /// at least 1).
    public var maximumQueuedFrameCount: Int {
        get { state.withLock { $0.maximumQueuedFrameCount } }
        set { state.withLock { $0.maximumQueuedFrameCount = max(1, newValue) } }
    }

    /// Frames handed to the callback so far.
    public var deliveredFrameCount: Int { state.withLock { $0.delivered } }
    /// Frames dropped so far.
    public var droppedFrameCount: Int { state.withLock { $0.dropped } }

    /// Sets the delegate (held weakly) and the serial queue its methods run on; nil stops
    /// delivery. A delegate without a queue is refused, as AVFoundation refuses it.
    public func setSampleBufferDelegate(_ delegate: (any VideoDataOutputSampleBufferDelegate)?, queue: DispatchQueue?) throws(DaguerreError)
    {
        guard let delegate else {
            state.withLock {
                $0.target = nil
                $0.queue = nil
                $0.waiting = []
            }
            return
        }
        guard let queue else {
            throw .invalidArgument(
                what: "A sample buffer delegate without a queue", problem: "pass the serial DispatchQueue its methods should run on")
        }
        state.withLock {
            $0.target = .delegate(WeakDelegate(delegate: delegate))
            $0.queue = queue
        }
    }

    /// Sets closures (held strongly) and the serial queue they run on.
    public func setSampleBufferHandler(
        queue: DispatchQueue,
        didOutput: @escaping @Sendable (SampleBuffer, CaptureConnection) -> Void,
        didDrop: (@Sendable (CaptureFrameMetadata, CaptureFrameDropReason, CaptureConnection) -> Void)? = nil
    ) {
        state.withLock {
            $0.target = .closures(didOutput: didOutput, didDrop: didDrop)
            $0.queue = queue
        }
    }

    /// Stops delivery and forgets frames waiting for the callback.
    public func removeSampleBufferHandler() {
        state.withLock {
            $0.target = nil
            $0.queue = nil
            $0.waiting = []
        }
    }

    override func deliver(frame: SampleBuffer, from connection: CaptureConnection) {
        let item = Item(frame: frame, connection: connection)
        enum Action {
            case none
            case start(DispatchQueue)
            case drop(Item, CaptureFrameDropReason, DispatchQueue)
        }
        let action: Action = state.withLock { s in
            guard s.target != nil, let queue = s.queue else { return .none }
            if !s.busy {
                s.busy = true
                s.waiting = [item]
                return .start(queue)
            }
            if s.alwaysDiscardsLateVideoFrames {
                let old = s.waiting.last
                s.waiting = [item]
                if let old {
                    s.dropped += 1
                    return .drop(old, .frameWasLate, queue)
                }
                return .none
            }
            if s.waiting.count >= s.maximumQueuedFrameCount {
                s.dropped += 1
                return .drop(item, .outOfBuffers, queue)
            }
            s.waiting.append(item)
            return .none
        }
        switch action {
        case .none: break
        case .start(let queue): queue.async { self.drain() }
        case .drop(let dropped, let reason, let queue): queue.async { self.reportDrop(dropped, reason) }
        }
    }

    /// Runs on the callback queue: hands over waiting frames one at a time until none is left.
    private func drain() {
        while true {
            let next: (Item, Target)? = state.withLock { s in
                guard let target = s.target, !s.waiting.isEmpty else {
                    s.busy = false
                    s.waiting = []
                    return nil
                }
                s.delivered += 1
                return (s.waiting.removeFirst(), target)
            }
            guard let (item, target) = next else { return }
            switch target {
            case .delegate(let box): box.delegate?.captureOutput(self, didOutput: item.frame, from: item.connection)
            case .closures(let didOutput, _): didOutput(item.frame, item.connection)
            }
        }
    }

    private func reportDrop(_ item: Item, _ reason: CaptureFrameDropReason) {
        switch state.withLock({ $0.target }) {
        case .delegate(let box)?: box.delegate?.captureOutput(self, didDrop: item.frame.metadata, reason: reason, from: item.connection)
        case .closures(_, let didDrop)?: didDrop?(item.frame.metadata, reason, item.connection)
        case nil: break
        }
    }
}
