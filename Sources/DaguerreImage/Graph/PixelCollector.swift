import DaguerreCore
import Synchronization

/// Every pixel of a small render, in reading order.
final class PixelCollector: GatheringSink, Sendable {
    let rect: IntRect
    let state: Mutex<[SIMD4<Float>]>

    init(rect: IntRect) {
        self.rect = rect
        state = Mutex([SIMD4<Float>](repeating: .zero, count: rect.width * rect.height))
    }

    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        guard y >= rect.y, y < rect.maxY, x >= rect.x, x + count <= rect.maxX else { return }
        state.withLock { all in
            for i in 0..<count { all[(y - rect.y) * rect.width + x - rect.x + i] = pixels[i] }
        }
    }

    func pixels() -> [SIMD4<Float>] { state.withLock { $0 } }
}
