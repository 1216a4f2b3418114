// Decoding beside rendering (SPEC E6, E7): a movie's frames are decoded and shrunk on a thread of
// their own, a few frames ahead, while the frame processor's render of the previous frame keeps
// the cores busy; the two used to take turns on one thread.
import DaguerreCore
import Dispatch
import Synchronization

/// Runs a producer on its own thread and hands what it makes to one consumer, in order, with at
/// most `depth` items waiting. A consumer that stops early (an error, a cancellation) ends the
/// producer at its next item.
///
/// ```swift
/// let frames = FrameHandoff<(Int, PixelBuffer)>(depth: 3) { (give) throws(DaguerreError) in
///     try movie.decodeFrames(track: id, range: 0..<count) { (k, buffer) throws(DaguerreError) in try give((k, buffer)) }
/// }
/// defer { frames.stop() }
/// while let (k, buffer) = try frames.next() { … }
/// ```
final class FrameHandoff<Item: Sendable>: Sendable {
    private enum Entry: Sendable {
        case item(Item)
        case end
        case failure(DaguerreError)
    }

    private struct State: Sendable {
        var queue: [Entry] = []
        var stopped = false
    }

    private let state = Mutex(State())
    /// Free places in the queue (the producer waits on it).
    private let free: DispatchSemaphore
    /// Entries in the queue (the consumer waits on it).
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let depth: Int

    /// Starts `producer` on a new thread; it passes each item to the function it is given,
    /// which throws a cancellation once the consumer has stopped.
    init(
        depth: Int,
        producer: @escaping @Sendable (_ give: (Item) throws(DaguerreError) -> Void) throws(DaguerreError) -> Void
    ) {
        self.depth = max(1, depth)
        free = DispatchSemaphore(value: self.depth)
        WorkerPool.startThread {
            let last: Entry
            do throws(DaguerreError) {
                try producer { (item) throws(DaguerreError) in try self.put(item) }
                last = .end
            } catch {
                last = .failure(error)
            }
            self.state.withLock { $0.queue.append(last) }
            self.ready.signal()
            self.finished.signal()
        }
    }

    private func put(_ item: Item) throws(DaguerreError) {
        free.wait()
        let stopped = state.withLock { s in
            if !s.stopped { s.queue.append(.item(item)) }
            return s.stopped
        }
        if stopped { throw .cancelled(what: "A stage of the frame pipeline whose consumer stopped") }
        ready.signal()
    }

    /// The next item, nil after the last; rethrows the producer's error.
    func next() throws(DaguerreError) -> Item? {
        ready.wait()
        // At most depth + 1 entries: taking the first from an array is cheap.
        let entry = state.withLock { $0.queue.removeFirst() }
        switch entry {
        case .item(let item):
            free.signal()
            return item
        case .end:
            // Put back, so that every later call sees the end too.
            state.withLock { $0.queue.append(.end) }
            ready.signal()
            return nil
        case .failure(let error):
            state.withLock { $0.queue.append(.failure(error)) }
            ready.signal()
            throw error
        }
    }

    /// Ends the producer at its next item and waits for its thread to return. Call it once,
    /// when the consumer is done (also after the last item).
    func stop() {
        state.withLock { $0.stopped = true }
        // Wakes a producer waiting for a free place; it sees `stopped` and ends.
        // One more than the depth: the semaphore then ends at or above its starting value, as
        // libdispatch requires when it is freed, even when the producer was waiting on a full queue.
        for _ in 0...depth { free.signal() }
        finished.wait()
        finished.signal()
    }
}
