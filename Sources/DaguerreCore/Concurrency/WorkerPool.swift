// Every parallel loop in Daguerre runs through this file, as libvips's threadpool does: the
// engine's tiles, the RAW develop's items and chunks, codec tiles, the virtual camera's rows.
// The threads are libdispatch's global pool (the calling thread works too); what differs between
// the loops below is only how items are handed out. Our own code (a few lines over Dispatch).
//
// Not here: the direct file's write-behind thread (C, `direct_file.c`: it only writes staged
// bytes), and capture's serial delivery queues (ordering, not parallel work).
import Dispatch
import Foundation
import Synchronization

/// Runs work items on the calling thread and on the threads of libdispatch's global pool.
///
/// - ``forEach(_:_:)``: a fork-join loop over every core (`concurrentPerform`), for outermost
///   loops (the renderer's bands of tiles, codec tiles, the virtual camera's rows). Nested in
///   another such loop it runs on one thread, as libdispatch does.
/// - ``share(workers:items:assistance:_:)``: items claimed from a shared counter by the caller and
///   by pool threads as they become free, for loops that run inside the renderer's loop (the RAW
///   develop runs on one of its iterations): they stay parallel where a nested ``forEach`` would
///   not, and the caller never waits for a thread that has not started.
/// - ``startThread(_:)``: a thread of its own for work that blocks while it waits (the RAW
///   develop's chunk ahead), so it never holds a pool thread.
///
/// ```swift
/// WorkerPool.forEach(tiles.count) { i in render(tiles[i]) }
/// WorkerPool.share(workers: 2, items: 6) { worker, block in demosaic(block, in: workspaces[worker]) }
/// WorkerPool.share(iterations: 2) { half in linearize(half) }
/// ```
package enum WorkerPool {
    /// The number of cores the process may use: how many workers a loop should have.
    package static var processorCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Runs `body(i)` for every `i` in `0..<iterations` on every core, and returns when all
    /// have run. Each iteration runs once, on one thread.
    package static func forEach(_ iterations: Int, _ body: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
    }

    /// Starts `body` on a new thread of its own and returns at once.
    package static func startThread(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread(body)
    }

    fileprivate final class State: Sendable {
        let items: Int
        let next = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let body: @Sendable (_ worker: Int, _ item: Int) -> Void
        init(items: Int, body: @escaping @Sendable (Int, Int) -> Void) {
            self.items = items
            self.body = body
        }

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
    /// caller, worker 0, and up to `workers − 1` pool threads), each with its own `worker`
    /// index (0..<workers, for per-worker workspaces), claiming items from a shared counter.
    ///
    /// A static split (worker k takes items k, k + workers, …) makes the slowest worker set the
    /// time: on a 2-core machine the engine's own thread (packing, encoding) shares a core with
    /// one of them, so the other one waited at the end of every band. Claiming keeps both busy
    /// until the last item. Which worker runs an item never changes what the item computes.
    ///
    /// With `assistance`, the run is also offered to the thread that waits on it (see
    /// ``Assistance``), as worker `workers`: a body that keeps per-worker state needs
    /// `workers + 1` of it then.
    ///
    /// ```swift
    /// WorkerPool.share(workers: 2, items: 6) { worker, block in demosaic(block, in: workspaces[worker]) }
    /// ```
    package static func share(
        workers: Int, items: Int, assistance: Assistance? = nil,
        _ body: @escaping @Sendable (_ worker: Int, _ item: Int) -> Void
    ) {
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

    /// ``share(workers:items:assistance:_:)`` with one thread per item: `body(i)` for every `i`
    /// in `0..<iterations`.
    package static func share(iterations: Int, _ body: @escaping @Sendable (Int) -> Void) {
        share(workers: iterations, items: iterations) { _, i in body(i) }
    }

    /// Lets a thread that would wait for another thread's work run that work's items instead.
    ///
    /// The RAW develop works a chunk ahead on its own thread while the engine reads the current
    /// one. When the engine is done with its chunk first, its thread used to block until the
    /// next chunk was ready, and at the end of each parallel loop of that develop one core then
    /// had nothing to do (a 24 MP develop ran at about 1.65 cores of 2). Now the waiting thread
    /// calls ``help()``: it takes items from whichever loop the develop posts, as one more
    /// worker, until the develop calls ``finish()``. An item still runs once, on one thread,
    /// with the same inputs: the results do not depend on who runs it.
    ///
    /// ```swift
    /// let assistance = WorkerPool.Assistance()
    /// WorkerPool.startThread { develop(assistance); assistance.finish() }   // its loops pass `assistance:`
    /// assistance.help()                                                     // returns after finish()
    /// ```
    package final class Assistance: Sendable {
        private let current = Mutex<(state: State, worker: Int)?>(nil)
        private let wakeup = DispatchSemaphore(value: 0)
        private let finished = Atomic<Bool>(false)

        package init() {}

        fileprivate func offer(_ state: State, worker: Int) {
            current.withLock { $0 = (state, worker) }
            wakeup.signal()
        }

        fileprivate func withdraw(_ state: State) {
            current.withLock { if $0?.state === state { $0 = nil } }
        }

        /// No more loops will be offered: ``help()`` returns.
        package func finish() {
            finished.store(true, ordering: .releasing)
            wakeup.signal()
        }

        /// Runs items of the offered loops until ``finish()``.
        package func help() {
            while !finished.load(ordering: .acquiring) {
                if let (state, worker) = current.withLock({ $0 }) { _ = state.work(worker: worker, signalling: true) }
                wakeup.wait()
            }
        }
    }
}
