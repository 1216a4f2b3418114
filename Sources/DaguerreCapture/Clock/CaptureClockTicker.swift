// Periodic frame timing for device implementations: tick n happens at start + n × interval on
// any CaptureClock, without drift, and stopping is clean (SPEC C1 streams; the VirtualClock's
// determinism carries through to every device built on this).
import DaguerreCore
import Foundation
import Synchronization

/// Calls `tick(index, time)` at `start + index × interval` on a clock until stopped: the
/// heartbeat of a device's stream.
///
/// Times are computed by multiplication, so they never drift. On a ``VirtualClock`` every tick
/// runs exactly at its time; on a ``HostClock`` a tick that comes more than one interval late
/// skips the ticks it missed (a camera drops frames it had no time to read out), so indices
/// can jump.
///
/// ``stop()`` is clean: once it returns no tick begins, and it waits for a tick running on
/// another thread to finish. (Called from inside a tick, it returns at once.)
///
/// ```swift
/// let ticker = try CaptureClockTicker(clock: clock, interval: 1.0 / 30) { index, time in
///     handler(.video(makeFrame(index: index, time: time)))
/// }
/// ticker.start()
/// // ...
/// ticker.stop()
/// ```
public final class CaptureClockTicker: Sendable {
    private struct State: Sendable {
        var running = false
        var generation: UInt64 = 0
        var start: Double = 0
        var timer: CaptureClockTimer?
    }

    public let clock: any CaptureClock
    public let interval: Double
    private let tick: @Sendable (Int64, Double) -> Void
    private let state = Mutex(State())
    /// Held while a tick runs, so stop() can wait for it; recursive so a tick may call stop().
    private let tickLock = NSRecursiveLock()

    /// Throws unless `interval` is positive and finite.
    public init(clock: any CaptureClock, interval: Double, tick: @escaping @Sendable (_ index: Int64, _ time: Double) -> Void)
        throws(DaguerreError)
    {
        guard interval.isFinite, interval > 0 else {
            throw .invalidArgument(what: "Ticker interval \(interval) s", problem: "must be positive and finite")
        }
        self.clock = clock
        self.interval = interval
        self.tick = tick
    }

    public var isRunning: Bool { state.withLock { $0.running } }

    /// Starts ticking with tick 0 at `start` (default: the clock's current time). Restarts
    /// from 0 if already running.
    public func start(at start: Double? = nil) {
        stop()
        let origin = start ?? clock.now
        let generation: UInt64 = state.withLock { s in
            s.running = true
            s.generation &+= 1
            s.start = origin
            return s.generation
        }
        schedule(index: 0, generation: generation)
    }

    /// Stops ticking; see the type's notes on what is guaranteed.
    public func stop() {
        let timer: CaptureClockTimer? = state.withLock { s in
            s.running = false
            s.generation &+= 1
            defer { s.timer = nil }
            return s.timer
        }
        timer?.cancel()
        // Wait for a tick in progress on another thread (re-entrant on the ticking thread).
        tickLock.lock()
        tickLock.unlock()
    }

    private func schedule(index: Int64, generation: UInt64) {
        let deadline: Double? = state.withLock { s in
            guard s.running, s.generation == generation else { return nil }
            return s.start + Double(index) * interval
        }
        guard let deadline else { return }
        let timer = clock.schedule(at: deadline) { [weak self] in self?.fire(index: index, time: deadline, generation: generation) }
        let keep = state.withLock { s -> Bool in
            guard s.running, s.generation == generation else { return false }
            s.timer = timer
            return true
        }
        if !keep { timer.cancel() }
    }

    private func fire(index: Int64, time: Double, generation: UInt64) {
        tickLock.lock()
        let current = state.withLock { $0.running && $0.generation == generation }
        if current { tick(index, time) }
        tickLock.unlock()
        guard current else { return }
        // Skip ticks whose time has fully passed (a late host clock); a virtual clock is never late.
        let origin = state.withLock { $0.start }
        let behind = Int64(((clock.now - origin) / interval).rounded(.down))
        let next = behind > index + 1 ? behind : index + 1
        schedule(index: next, generation: generation)
    }
}
