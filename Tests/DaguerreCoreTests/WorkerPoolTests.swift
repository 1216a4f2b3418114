import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DaguerreCore

/// WorkerPool's assistance (SPEC X7: the develop's speed): a thread that would wait for a
/// develop runs the items of its parallel loops instead. Each item must still run exactly once,
/// and the assisting thread must get a worker index of its own.
@Suite struct WorkerPoolTests {
    @Test("An assisting thread runs items of the offered loop, as worker `workers`; every item runs once; help() returns after finish()")
    func assistanceRunsItemsOnce() {
        let assistance = WorkerPool.Assistance()
        let ran = Mutex<[(worker: Int, item: Int)]>([])
        // Item 0 waits until item 1 has run on another thread. With one worker the only other
        // thread is the assisting one, so the loop finishes in time only if it takes items.
        let itemOneRan = DispatchSemaphore(value: 0)
        let helped = DispatchSemaphore(value: 0)
        WorkerPool.startThread {
            assistance.help()
            helped.signal()
        }
        let waitedOut = Atomic<Bool>(false)
        WorkerPool.share(workers: 1, items: 32, assistance: assistance) { worker, item in
            if item == 0, itemOneRan.wait(timeout: .now() + 20) == .timedOut { waitedOut.store(true, ordering: .relaxed) }
            if item == 1 { itemOneRan.signal() }
            ran.withLock { $0.append((worker, item)) }
        }
        assistance.finish()
        #expect(helped.wait(timeout: .now() + 20) == .success, "help() did not return after finish()")
        let timedOut = waitedOut.load(ordering: .relaxed)
        #expect(!timedOut, "no other thread ran item 1")
        let record = ran.withLock { $0 }
        #expect(record.map(\.item).sorted() == Array(0..<32))
        #expect(Set(record.map(\.worker)).isSubset(of: [0, 1]))
        let first = record.first { $0.item == 0 }?.worker
        let second = record.first { $0.item == 1 }?.worker
        #expect(
            first != second && [first, second].contains(1),
            "items 0 and 1 ran on workers \(String(describing: first)), \(String(describing: second))")
    }

    @Test("Without an assisting thread, or after finish(), a loop with assistance runs every item on its own workers")
    func assistanceIsOptional() {
        let assistance = WorkerPool.Assistance()
        assistance.finish()
        assistance.help()  // returns at once
        let count = Atomic<Int>(0)
        WorkerPool.share(workers: 2, items: 100, assistance: assistance) { worker, _ in
            #expect(worker >= 0 && worker <= 2)
            count.add(1, ordering: .relaxed)
        }
        let total = count.load(ordering: .relaxed)
        #expect(total == 100)
    }
}
