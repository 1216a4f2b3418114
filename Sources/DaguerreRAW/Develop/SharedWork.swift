// Parallel loops that stay parallel inside the engine (SPEC X7: develop speed). The engine pulls
// the develop source's rows from a background task of its own `concurrentPerform`, and
// libdispatch runs an apply nested in another apply on one thread; this shares the iterations
// with Dispatch's worker threads instead. Our own code (a few lines over Dispatch).
import Dispatch
import Synchronization

/// Runs work items on the calling thread and on Dispatch worker threads, which claim items from
/// a shared counter as they become free.
///
/// The caller works too and only waits for items that another thread has already started, so a
/// busy thread pool slows it down but cannot deadlock it. Each item runs once, on one thread.
///
/// ```swift
/// SharedWork.run(iterations: 2) { half in linearize(half) }
/// SharedWork.run(workers: 2, items: 4) { worker, plane in denoise(plane, in: workspaces[worker]) }
/// ```
enum SharedWork {
    fileprivate final class State: Sendable {
        let items: Int
        let next = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let body: @Sendable (_ worker: Int, _ item: Int) -> Void
        init(items: Int, body: @escaping @Sendable (Int, Int) -> Void) { self.items = items; self.body = body }

        /// Runs items as worker `worker` until none is left; returns how many this thread ran.
        func work(worker: Int, signalling: Bool) -> Int {
            var ran = 0
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < items else { return ran }
                body(worker, i)
                ran += 1
                if signalling { finished.signal() }
            }
        }
    }

    /// Runs `body(worker, item)` for every `item` in `0..<items` on `workers` threads (the
    /// caller, worker 0, and up to `workers − 1` Dispatch threads), each with its own `worker`
    /// index (0..<workers, for per-worker workspaces), claiming items from the shared counter.
    ///
    /// A static split (worker k takes items k, k + workers, …) makes the slowest worker set the
    /// time: on a 2-core machine the engine's own thread (packing, encoding) shares a core with
    /// one of them, so the other one waited at the end of every band. Claiming keeps both busy
    /// until the last item. Which worker runs an item never changes what the item computes.
    ///
    /// ```swift
    /// SharedWork.run(workers: 2, items: 6) { worker, block in demosaic(block, in: workspaces[worker]) }
    /// ```
    ///
    /// With `assistance`, the run is also offered to the thread that waits on it (see
    /// ``Assistance``), as worker `workers`: a body that keeps per-worker state needs
    /// `workers + 1` of it then.
    static func run(workers: Int, items: Int, assistance: Assistance? = nil, _ body: @escaping @Sendable (_ worker: Int, _ item: Int) -> Void) {
        let threads = min(workers, items)
        guard threads > 1 || (assistance != nil && items > 1) else {
            for i in 0..<max(0, items) { body(0, i) }
            return
        }
        let state = State(items: items, body: body)
        assistance?.offer(state, worker: workers)
        for worker in 1..<max(1, threads) { DispatchQueue.global().async { _ = state.work(worker: worker, signalling: true) } }
        let mine = state.work(worker: 0, signalling: false)
        // Every item is claimed now; wait for those other threads are running.
        for _ in 0..<(items - mine) { state.finished.wait() }
        assistance?.withdraw(state)
    }

    /// Lets a thread that would wait for another thread's work run that work's items instead.
    ///
    /// The develop works a chunk ahead on its own thread while the engine reads the current one
    /// (``RAWDevelopDecoder``). When the engine is done with its chunk first, its thread used to
    /// block until the next chunk was ready, and at the end of each parallel loop of that
    /// develop one core then had nothing to do (a 24 MP develop ran at about 1.65 cores of 2).
    /// Now the waiting thread calls ``help()``: it takes items from whichever loop the develop
    /// posts, as one more worker, until the develop calls ``finish()``. An item still runs once,
    /// on one thread, with the same inputs: the pixels do not depend on who runs it.
    ///
    /// ```swift
    /// let assistance = SharedWork.Assistance()
    /// Thread.detachNewThread { develop(assistance); assistance.finish() }   // its loops pass `assistance:`
    /// assistance.help()                                                        // returns after finish()
    /// ```
    final class Assistance: Sendable {
        private let current = Mutex<(state: State, worker: Int)?>(nil)
        private let wakeup = DispatchSemaphore(value: 0)
        private let finished = Atomic<Bool>(false)

        init() {}

        fileprivate func offer(_ state: State, worker: Int) {
            current.withLock { $0 = (state, worker) }
            wakeup.signal()
        }

        fileprivate func withdraw(_ state: State) {
            current.withLock { if $0?.state === state { $0 = nil } }
        }

        /// No more loops will be offered: ``help()`` returns.
        func finish() {
            finished.store(true, ordering: .releasing)
            wakeup.signal()
        }

        /// Runs items of the offered loops until ``finish()``.
        func help() {
            while !finished.load(ordering: .acquiring) {
                if let (state, worker) = current.withLock({ $0 }) { _ = state.work(worker: worker, signalling: true) }
                wakeup.wait()
            }
        }
    }

    /// ``run(workers:items:)`` with one thread per item: `body(i)` for every `i` in
    /// `0..<iterations`.
    static func run(iterations: Int, _ body: @escaping @Sendable (Int) -> Void) {
        run(workers: iterations, items: iterations) { _, i in body(i) }
    }
}
