// Real time for capture: a monotonic clock whose timers run on Dispatch (SPEC C1 streaming at
// the device's frame rate).
import Dispatch

/// The machine's monotonic clock, in seconds since the clock was made. Actions run on a global
/// Dispatch queue when their deadline comes (a late deadline runs at once).
///
/// ```swift
/// let session = CaptureSession(clock: HostClock.shared)   // the default
/// ```
public final class HostClock: CaptureClock {
    /// The clock sessions use unless given another.
    public static let shared = HostClock()

    private let origin: UInt64

    public init() { origin = DispatchTime.now().uptimeNanoseconds }

    public var now: Double { Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1e9 }

    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping @Sendable () -> Void) -> CaptureClockTimer {
        let timer = CaptureClockTimer(deadline: deadline)
        let delay = deadline - now
        let work: @Sendable () -> Void = { if timer.claimForFiring() { action() } }
        if delay.isFinite, delay > 0 {
            // Cap absurd deadlines at a day: Dispatch converts to nanoseconds.
            DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + min(delay, 86_400), execute: work)
        } else {
            DispatchQueue.global(qos: .userInitiated).async(execute: work)
        }
        return timer
    }
}
