// A device's one stream (SPEC C1, C4): the CaptureDevice contract says startStreaming throws
// while the device already streams. A device has one handler; had a second start replaced it,
// the session that started first would silently stop getting frames, and its stopRunning()
// would then stop the other session's stream. Public, next to ControlledCaptureDevice, so that
// every device (the virtual camera and microphone, a test fake, a real camera later) keeps the
// rule with this one guard instead of its own copy.
import DaguerreCore
import Synchronization

/// The ticker of a device's stream: at most one runs at a time.
///
/// ```swift
/// private let stream = ExclusiveStream()
/// try stream.start(ticker, deviceName: localizedName)   // throws while one is running
/// stream.stop()                                         // idempotent
/// ```
public final class ExclusiveStream: Sendable {
    private let ticker = Mutex<CaptureClockTicker?>(nil)

    public init() {}

    /// Starts `next`, or throws (and `next` never ticks) when a stream is already running.
    public func start(_ next: CaptureClockTicker, deviceName: String) throws(DaguerreError) {
        try ticker.withLock { (running) throws(DaguerreError) in
            guard running == nil else {
                throw .captureConfiguration(
                    problem: "\(deviceName) is already streaming (another running session uses it, or its stream was started twice)",
                    fix:
                        "Stop the other session with stopRunning() (or call stopStreaming()) first: a device streams to one session at a time."
                )
            }
            running = next
            // Started under the lock so that a concurrent stop() stops this ticker rather than
            // leaving it running unowned. start() only schedules the first tick; none runs here.
            next.start()
        }
    }

    /// Stops the stream, if any, and returns whether one was running (so a device can count
    /// real stops). The ticker is stopped outside the lock: stop() waits for a tick in progress
    /// on another thread, which must not hold up start() meanwhile.
    @discardableResult
    public func stop() -> Bool {
        let old = ticker.withLock { running -> CaptureClockTicker? in
            defer { running = nil }
            return running
        }
        old?.stop()
        return old != nil
    }
}
