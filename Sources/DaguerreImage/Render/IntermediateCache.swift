import Collections
import DaguerreCore
import Synchronization

/// Materialized intermediates kept between renders, keyed by node digest, rectangle and format,
/// bounded in bytes, evicting the least recently used (I6, K2).
///
/// This is what makes the seed's variable box blur interactive: while the mask moves, the
/// integral image's digest does not change, so its buffer is found here and not recomputed.
final class IntermediateCache: Sendable {
    struct Key: Hashable, Sendable {
        let digest: Digest
        let rect: IntRect
        let format: PixelFormat
    }

    let limitBytes: Int
    private let state = Mutex<(entries: OrderedDictionary<Key, UnsafeTransfer<MaterializedBuffer>>, bytes: Int)>((OrderedDictionary(), 0))

    init(limitBytes: Int) { self.limitBytes = limitBytes }

    func get(_ key: Key) -> MaterializedBuffer? {
        state.withLock { s in
            guard let v = s.entries.removeValue(forKey: key) else { return nil }
            s.entries[key] = v  // most recently used goes last
            return v.value
        }
    }

    func put(_ key: Key, _ value: MaterializedBuffer) {
        guard value.byteCount <= limitBytes else { return }
        state.withLock { s in
            if let old = s.entries.removeValue(forKey: key) { s.bytes -= old.value.byteCount }
            s.entries[key] = UnsafeTransfer(value)
            s.bytes += value.byteCount
            while s.bytes > limitBytes, let first = s.entries.elements.first {
                s.entries.removeValue(forKey: first.key)
                s.bytes -= first.value.value.byteCount
            }
        }
    }

    var byteCount: Int { state.withLock { $0.bytes } }
    func removeAll() { state.withLock { $0 = (OrderedDictionary(), 0) } }
}
