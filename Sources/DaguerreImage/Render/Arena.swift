import DaguerreCore
import Synchronization

/// Per-worker scratch memory for one tile: a bump allocator reset after each tile.
///
/// Tiles need short-lived buffers (a blur's input with its margin, a row of each extra input);
/// allocating them from the heap per tile would dominate small tiles. Each worker owns one
/// arena at a time (taken from ``ArenaPool``), so no locking is needed inside.
final class Arena {
    private var chunks: [(UnsafeMutableRawPointer, Int)] = []
    private var current = 0  // index into chunks
    private var offset = 0

    init(initialBytes: Int = 1 << 20) { addChunk(initialBytes) }

    private func addChunk(_ bytes: Int) {
        chunks.append((UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64), bytes))
    }

    /// Uninitialised memory for `count` values of `T`, 64-byte aligned.
    func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = (max(count, 1) * MemoryLayout<T>.stride + 63) & ~63
        while true {
            let (base, size) = chunks[current]
            if offset + bytes <= size {
                let p = base + offset
                offset += bytes
                return p.bindMemory(to: T.self, capacity: count)
            }
            current += 1
            offset = 0
            if current == chunks.count { addChunk(max(bytes, chunks[current - 1].1 * 2)) }
        }
    }

    /// Frees everything allocated since the last reset (memory is kept for the next tile).
    func reset() {
        current = 0
        offset = 0
    }

    deinit { for (p, _) in chunks { p.deallocate() } }
}

/// Arenas shared by the workers of a context: take one per tile, give it back after.
final class ArenaPool: Sendable {
    private let free = Mutex<[UnsafeTransferArena]>([])

    struct UnsafeTransferArena: @unchecked Sendable { let arena: Arena }  // owned by one worker at a time

    func withArena<R, E: Error>(_ body: (Arena) throws(E) -> R) throws(E) -> R {
        let a = free.withLock { $0.popLast()?.arena } ?? Arena()
        defer {
            a.reset()
            free.withLock { $0.append(UnsafeTransferArena(arena: a)) }
        }
        return try body(a)
    }
    /// Drops idle arenas (after a render, so a 400 MP render's scratch does not linger).
    func trim() { free.withLock { $0.removeAll() } }
}
