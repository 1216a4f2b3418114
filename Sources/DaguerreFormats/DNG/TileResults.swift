// Results of DNG tiles encoded or decoded in parallel, collected in tile order.
import DaguerreCore
import Synchronization

/// Per-tile results filled from parallel workers (`WorkerPool.forEach`): each worker sets its
/// own slot; ``collect()`` returns them in order, or the first failure.
///
/// ```swift
/// let results = TileResults<[UInt8]>(count: tiles)
/// WorkerPool.forEach(tiles) { i in results.set(i, Result { try encode(i) }) }
/// let encoded = try results.collect()
/// ```
package final class TileResults<Value: Sendable>: Sendable {
    private let slots: Mutex<[Result<Value, DaguerreError>?]>
    package init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
    package func set(_ i: Int, _ r: Result<Value, DaguerreError>) { slots.withLock { $0[i] = r } }
    package func collect() throws(DaguerreError) -> [Value] {
        let all = slots.withLock { $0 }
        var out: [Value] = []
        out.reserveCapacity(all.count)
        for s in all {
            switch s {
            case .success(let b)?: out.append(b)
            case .failure(let e)?: throw e
            case nil: throw .processorFailed(name: "DNG tile", reason: "a tile was not produced")
            }
        }
        return out
    }
}
