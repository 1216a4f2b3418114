// Parallel loops that stay parallel inside the engine (SPEC X7: develop speed). The engine pulls
// the develop source's rows from a background task of its own `concurrentPerform`, and
// libdispatch runs an apply nested in another apply on one thread; this shares the iterations
// with Dispatch's worker threads instead. Our own code (a few lines over Dispatch).
import Dispatch
import Synchronization

/// Runs `body(i)` for every `i` in `0..<iterations` on the calling thread and on up to
/// `iterations − 1` Dispatch worker threads, which claim iterations from a shared counter as
/// they become free.
///
/// The caller works too and only waits for iterations that another thread has already started,
/// so a busy thread pool slows it down but cannot deadlock it. Each iteration index runs once,
/// on one thread.
///
/// ```swift
/// SharedWork.run(iterations: 2) { worker in denoisePlanes(of: worker) }
/// ```
enum SharedWork {
    private final class State: Sendable {
        let iterations: Int
        let next = Atomic<Int>(0)
        let doneByHelpers = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let body: @Sendable (Int) -> Void
        init(iterations: Int, body: @escaping @Sendable (Int) -> Void) { self.iterations = iterations; self.body = body }

        /// Runs iterations until none is left; returns how many this thread ran.
        func work(signalling: Bool) -> Int {
            var ran = 0
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < iterations else { return ran }
                body(i)
                ran += 1
                if signalling { doneByHelpers.add(1, ordering: .releasing); finished.signal() }
            }
        }
    }

    static func run(iterations: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        let state = State(iterations: iterations, body: body)
        for _ in 1..<iterations { DispatchQueue.global().async { _ = state.work(signalling: true) } }
        let mine = state.work(signalling: false)
        // Every iteration is claimed now; wait for those other threads are running.
        for _ in 0..<(iterations - mine) { state.finished.wait() }
    }
}
