// A clock that moves only when a test says so, running every due action in deadline order on
// the advancing thread: seconds of capture run in milliseconds, with the same frames and
// timestamps every time (SPEC C1 streams; DESIGN "deterministic when seeded; a virtual clock").
import Foundation
import Synchronization

/// Test time. ``now`` stays put until ``advance(by:)`` or ``advance(to:)``; advancing runs, on
/// the calling thread and in deadline order (ties in scheduling order), every action whose
/// deadline falls within the step, with ``now`` equal to that action's deadline while it runs.
/// Actions scheduled by actions run in the same step when they fall within it, so a device
/// that schedules its next frame from each frame produces every frame of the step.
///
/// An action whose deadline has already passed runs at the next advance (`advance(by: 0)`
/// runs such actions). Advancing from inside an action is allowed and runs the nested step
/// first. Concurrent advances from different threads take turns.
///
/// ```swift
/// let clock = VirtualClock()
/// let session = CaptureSession(clock: clock)
/// try session.startRunning()
/// clock.advance(by: 1.0)     // one second of 30 fps capture: 30 frames, in a few milliseconds
/// ```
public final class VirtualClock: CaptureClock {
    private struct Pending: Sendable {
        let deadline: Double
        let order: UInt64
        let timer: CaptureClockTimer
        let action: @Sendable () -> Void
    }

    private struct State: Sendable {
        var now: Double
        var nextOrder: UInt64 = 0
        /// Sorted by (deadline, order).
        var pending: [Pending] = []
    }

    private let state: Mutex<State>
    /// Serializes advances across threads; recursive so an action may advance.
    private let advancing = NSRecursiveLock()

    public init(now: Double = 0) { state = Mutex(State(now: now)) }

    public var now: Double { state.withLock { $0.now } }

    /// Actions scheduled and neither run nor cancelled yet.
    public var pendingActionCount: Int { state.withLock { $0.pending.filter { !$0.timer.isCancelled }.count } }

    /// The deadline of the earliest pending action.
    public var nextDeadline: Double? { state.withLock { $0.pending.first { !$0.timer.isCancelled }?.deadline } }

    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping @Sendable () -> Void) -> CaptureClockTimer {
        let timer = CaptureClockTimer(deadline: deadline)
        state.withLock { s in
            let item = Pending(deadline: deadline.isNaN ? s.now : deadline, order: s.nextOrder, timer: timer, action: action)
            s.nextOrder += 1
            // Insert after every item that is not later (stable for equal deadlines).
            var lo = 0
            var hi = s.pending.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if s.pending[mid].deadline <= item.deadline { lo = mid + 1 } else { hi = mid }
            }
            s.pending.insert(item, at: lo)
        }
        return timer
    }

    /// Moves time forward by `seconds` (negative and NaN steps count as zero), running every
    /// action due within the step.
    public func advance(by seconds: Double) {
        let step = seconds.isNaN ? 0 : max(0, seconds)
        advance(to: now + step)
    }

    /// Moves time forward to `time` (never backward), running every action due by then.
    public func advance(to time: Double) {
        advancing.lock()
        defer { advancing.unlock() }
        while true {
            let next: Pending? = state.withLock { s in
                guard let first = s.pending.first, first.deadline <= time else {
                    if time > s.now { s.now = time }
                    return nil
                }
                s.pending.removeFirst()
                if first.deadline > s.now { s.now = first.deadline }
                return first
            }
            guard let next else { return }
            if next.timer.claimForFiring() { next.action() }
        }
    }
}
