import DaguerreCore

/// Rows already computed for a tile (a node that works on the whole tile at once), handed out
/// one by one.
final class BufferProducer: RowProducer {
    let rect: IntRect
    let pixels: [SIMD4<Float>]
    init(rect: IntRect, pixels: [SIMD4<Float>]) {
        self.rect = rect
        self.pixels = pixels
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress, y >= rect.y, y < rect.maxY else { return }
            out.update(from: base + (y - rect.y) * rect.width, count: rect.width)
        }
    }
}
