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

    /// Runs `body(worker, item)` for every `item` in `0..<items` on `workers` threads (the
    /// caller and up to `workers − 1` Dispatch threads), each with its own `worker` index
    /// (0..<workers, for per-worker workspaces), claiming items from a shared counter.
    ///
    /// A static split (worker k takes items k, k + workers, …) makes the slowest worker set the
    /// time: on a 2-core machine the engine's own thread (packing, encoding) shares a core with
    /// one of them, so the other one waited at the end of every band. Claiming keeps both busy
    /// until the last item. Which worker runs an item never changes what the item computes.
    ///
    /// ```swift
    /// SharedWork.run(workers: 2, items: 6) { worker, block in demosaic(block, in: workspaces[worker]) }
    /// ```
    static func run(workers: Int, items: Int, _ body: @escaping @Sendable (_ worker: Int, _ item: Int) -> Void) {
        let claimed = Counter()
        run(iterations: min(workers, items)) { worker in
            while true {
                let item = claimed.next.add(1, ordering: .relaxed).oldValue
                guard item < items else { return }
                body(worker, item)
            }
        }
    }

    private final class Counter: Sendable { let next = Atomic<Int>(0) }

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
