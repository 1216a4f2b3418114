import DaguerreCore
import Synchronization

/// Every pixel of a small render, in reading order.
final class PixelCollector: RenderSink, Sendable {
    let rect: IntRect
    let state: Mutex<[SIMD4<Float>]>

    init(rect: IntRect) {
        self.rect = rect
        state = Mutex([SIMD4<Float>](repeating: .zero, count: rect.width * rect.height))
    }

    func beginBand(_ band: IntRect) {}
    func backgroundTask() -> (@Sendable () -> Void)? { nil }
    func endBand(_ band: IntRect) throws(DaguerreError) {}
    func finish() throws(DaguerreError) {}
    func abort() {}

    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        state.withLock { all in
            for i in 0..<count { all[(y - rect.y) * rect.width + x - rect.x + i] = pixels[i] }
        }
    }

    func pixels() -> [SIMD4<Float>] { state.withLock { $0 } }
}
