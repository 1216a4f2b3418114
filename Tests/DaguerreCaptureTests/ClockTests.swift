import DaguerreCapture
import DaguerreCore
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("Clocks: the virtual clock runs capture deterministically and faster than real time", .hangGuard)
struct ClockTests {
    @Test("VirtualClock runs due actions in deadline order (ties in scheduling order), at their deadline, and skips cancelled ones")
    func orderAndCancellation() {
        let clock = VirtualClock()
        let log = Locked<[String]>([])
        clock.schedule(at: 0.3) { log.mutate { $0.append("c@\(clock.now)") } }
        clock.schedule(at: 0.1) { log.mutate { $0.append("a@\(clock.now)") } }
        clock.schedule(at: 0.1) { log.mutate { $0.append("b@\(clock.now)") } }
        let cancelled = clock.schedule(at: 0.2) { log.mutate { $0.append("cancelled") } }
        clock.schedule(at: 0.5) { log.mutate { $0.append("late") } }
        cancelled.cancel()
        // An action that schedules another inside the step: it runs in the same advance.
        clock.schedule(at: 0.25) { clock.schedule(at: 0.28) { log.mutate { $0.append("chained@\(clock.now)") } } }

        clock.advance(by: 0.4)
        #expect(log.value == ["a@0.1", "b@0.1", "chained@0.28", "c@0.3"])
        #expect(clock.now == 0.4)
        #expect(clock.pendingActionCount == 1 && clock.nextDeadline == 0.5)
        clock.advance(to: 0.2)
        #expect(clock.now == 0.4, "time never goes back")
    }

    @Test("sleep(until:) returns only once the clock is advanced past the deadline")
    func sleepReturnsWhenAdvanced() {
        let clock = VirtualClock()
        let woke = Locked(false)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            clock.sleep(until: 0.5)
            woke.mutate { $0 = true }
            finished.signal()
        }
        // The sleeper registers its wake-up on the clock; wait until it has.
        while clock.pendingActionCount == 0 { usleep(1000) }
        clock.advance(by: 0.4)
        #expect(!woke.value, "0.4 s is before the deadline: the only way to wake is the clock's action")
        clock.advance(by: 0.2)
        #expect(wait(finished, "the sleeper"))
        #expect(woke.value)
    }

    @Test("waitUntil (async) resumes only once the clock reaches the deadline")
    func asyncWait() async {
        let clock = VirtualClock()
        let resumed = Locked(false)
        async let waiter: Void = Self.waitThenFlag(clock, until: 2, resumed)
        while clock.pendingActionCount == 0 { await Task.yield() }
        clock.advance(by: 1.5)
        #expect(!resumed.value, "the only way to resume is the clock's action at t = 2")
        clock.advance(by: 1)
        await waiter
        #expect(resumed.value)
    }

    private static func waitThenFlag(_ clock: VirtualClock, until deadline: Double, _ flag: Locked<Bool>) async {
        await clock.waitUntil(deadline)
        flag.mutate { $0 = true }
    }

    @Test("The host clock is monotonic and runs its timers in real time")
    func hostClock() async {
        let clock = HostClock()
        let start = clock.now
        await clock.waitUntil(start + 0.02)
        #expect(clock.now >= start + 0.02)
    }

    @Test("A ticker stamps tick n at start + n/rate, with no drift, and no tick begins after stop()")
    func tickerTimes() throws {
        let clock = VirtualClock(now: 10)
        let ticks = Locked<[(Int64, Double)]>([])
        let ticker = try CaptureClockTicker(clock: clock, interval: 1.0 / 30) { index, time in
            ticks.mutate { $0.append((index, time)) }
        }
        ticker.start()
        clock.advance(by: 0.99)
        let seen = ticks.value
        #expect(seen.count == 30)
        #expect(seen.map(\.0) == Array(0..<30))
        #expect(seen.allSatisfy { abs($0.1 - (10 + Double($0.0) / 30)) < 1e-12 })
        ticker.stop()
        clock.advance(by: 1)
        #expect(ticks.value.count == 30)
        #expect(throws: DaguerreError.self) { try CaptureClockTicker(clock: clock, interval: 0) { _, _ in } }
    }

    /// One second of a session with a camera and a VideoDataOutput; returns what arrived.
    private func runOneSecond() throws -> [(Int64, Double, UInt8)] {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let camera = try FakeCamera.small()
        let output = VideoDataOutput()
        output.alwaysDiscardsLateVideoFrames = false
        output.maximumQueuedFrameCount = 1000
        let frames = FrameLog(output)
        try session.addInput(input(camera))
        try session.addOutput(output)
        try session.startRunning()
        for _ in 0..<10 { clock.advance(by: 0.1 - 1e-9) }
        session.stopRunning()
        return frames.all.map { ($0.metadata.sequenceNumber, $0.metadata.timestamp, $0.yCbCrBuffer?.luma[0] ?? 0) }
    }

    @Test("VirtualClock determinism: the same second of capture twice gives the same frames, timestamps and pixels")
    func deterministicCapture() throws {
        let first = try runOneSecond()
        let second = try runOneSecond()
        #expect(first.count == 30)
        #expect(first.map(\.0) == Array(0..<30))
        #expect(first.map(\.1) == second.map(\.1))
        #expect(first.map(\.0) == second.map(\.0) && first.map(\.2) == second.map(\.2))
        #expect(first.map(\.2) == (0..<30).map { FakeCamera.luma(Int64($0)) })
    }
}
