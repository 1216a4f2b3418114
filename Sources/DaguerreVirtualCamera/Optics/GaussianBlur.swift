// The lens point-spread function as a separable Gaussian, applied once when an optical image is
// rendered (not per frame). Plain scalar code: it runs once per scene and mode, and is cached.
import DaguerreCore
import Dispatch
import Foundation

enum GaussianBlur {
    /// Blurs a `width` × `height` plane in place with standard deviation `sigma` (pixels);
    /// edges are clamped. Does nothing for sigma below 0.05.
    static func apply(_ plane: UnsafeMutablePointer<Float>, width: Int, height: Int, sigma: Double) {
        guard sigma >= 0.05, width > 0, height > 0 else { return }
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var w = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
        let total = w.reduce(0, +)
        w = w.map { $0 / total }
        let weights = w
        // Safety: the workers write disjoint rows (first pass) or disjoint column bands (second
        // pass) of a plane that outlives the `WorkerPool.forEach` calls.
        let p = UnsafeTransfer(plane)
        // Rows.
        WorkerPool.forEach(height) { y in
            let row = p.value + y * width
            var line = [Float](repeating: 0, count: width)
            for x in 0..<width {
                var acc: Float = 0
                for k in -radius...radius { acc += weights[k + radius] * row[min(max(x + k, 0), width - 1)] }
                line[x] = acc
            }
            line.withUnsafeBufferPointer { row.update(from: $0.baseAddress!, count: width) }
        }
        // Columns, in bands of 64 columns so rows are read contiguously.
        let bands = (width + 63) / 64
        WorkerPool.forEach(bands) { band in
            let x0 = band * 64
            let x1 = min(width, x0 + 64)
            let n = x1 - x0
            var column = [Float](repeating: 0, count: height * n)
            for y in 0..<height { for x in 0..<n { column[y * n + x] = p.value[y * width + x0 + x] } }
            for y in 0..<height {
                for x in 0..<n {
                    var acc: Float = 0
                    for k in -radius...radius { acc += weights[k + radius] * column[min(max(y + k, 0), height - 1) * n + x] }
                    p.value[y * width + x0 + x] = acc
                }
            }
        }
    }
}
