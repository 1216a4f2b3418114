// The time source devices stream against, so the same capture can run in real time (HostClock)
// or as fast as the CPU allows under a test's control (VirtualClock) with identical results
// (DESIGN "a virtual clock lets tests run faster than real time"; SPEC C1 streams).
import Dispatch
import Synchronization

/// A time source with timers: devices ask it for the time to stamp frames with and schedule their
/// next frame on it.
///
/// ``schedule(at:_:)`` is the primitive: actions run once ``now`` reaches their deadline, in
/// deadline order. ``sleep(until:)`` (blocking) and ``waitUntil(_:)`` (async) are built on it.
///
/// ```swift
/// let clock = VirtualClock()
/// clock.schedule(at: 1.0) { print("one second in") }
/// clock.advance(by: 1.5)          // prints, at once
/// ```
public protocol CaptureClock: AnyObject, Sendable {
    /// Seconds since the clock's origin.
    var now: Double { get }
    /// Runs `action` once ``now`` reaches `deadline`; the returned timer cancels it.
    @discardableResult
    func schedule(at deadline: Double, _ action: @escaping @Sendable () -> Void) -> CaptureClockTimer
}

/// A scheduled action's handle: ``cancel()`` stops it from running if it has not started.
///
/// Clock implementations call ``claimForFiring()`` just before running the action and skip it
/// when that returns false.
///
/// ```swift
/// let timer = clock.schedule(at: clock.now + 0.5) { print("late") }
/// timer.cancel()
/// ```
public final class CaptureClockTimer: Sendable {
    private enum State { case pending, fired, cancelled }
    public let deadline: Double
    private let state = Mutex<State>(.pending)

    public init(deadline: Double) { self.deadline = deadline }

    /// Stops the action from running; no effect once it has started.
    public func cancel() {
        state.withLock { if $0 == .pending { $0 = .cancelled } }
    }

    public var isCancelled: Bool { state.withLock { $0 == .cancelled } }

    /// For clocks: marks the timer fired and returns true, unless it was cancelled.
    public func claimForFiring() -> Bool {
        state.withLock { s in
            guard s == .pending else { return false }
            s = .fired
            return true
        }
    }
}

extension CaptureClock {
    /// Blocks the calling thread until ``now`` reaches `deadline`. On a ``VirtualClock`` it
    /// returns when another thread advances the clock that far; never call it from a clock
    /// action or from the thread that advances the clock.
    public func sleep(until deadline: Double) {
        let done = DispatchSemaphore(value: 0)
        schedule(at: deadline) { done.signal() }
        done.wait()
    }

    /// Suspends the calling task until ``now`` reaches `deadline`.
    public func waitUntil(_ deadline: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            schedule(at: deadline) { continuation.resume() }
        }
    }
}
