// What the burst merge compares to tell motion from noise (SPEC P13): for every 2×2 Bayer
// block, the mean of each CFA position over the 3×3 blocks around it, black subtracted and
// normalized to 0...1. Nine samples a colour make the comparison three times less noisy than one
// photosite's, and comparing each colour on its own sees a red object move over a green one of
// the same brightness, which a grey comparison would not. Our own code (see BurstMerge).
import DaguerreCore

/// A frame's local means: one `SIMD4<Float16>` per 2×2 block (positions row-major), half
/// precision because they only decide weights (an 11-bit significand is far finer than the
/// noise of nine samples).
///
/// ```swift
/// LocalMeans.fill(rows: 0..<layout.quadHeight, samples: pointer, layout: layout, into: means)
/// means[qy * layout.quadWidth + qx]   // R, G, G, B (for RGGB) around block (qx, qy)
/// ```
enum LocalMeans {
    /// Means of the block rows `rows` of a frame (an outer loop hands out the rows).
    static func fill(
        rows: Range<Int>, samples: UnsafePointer<UInt16>, layout: BurstLayout, into out: UnsafeMutablePointer<SIMD4<Float16>>
    ) {
        let w = layout.quadWidth
        let h = layout.quadHeight
        let stride = layout.width
        let scale = layout.normalize * (1.0 / 9)
        let bias = layout.black * layout.normalize
        let columnSums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: w)
        defer { columnSums.deallocate() }
        for qy in rows {
            // Sums down three block rows (the edge rows repeated).
            for x in 0..<w { columnSums[x] = .zero }
            for dy in -1...1 {
                let by = min(max(qy + dy, 0), h - 1)
                let r0 = samples + 2 * by * stride
                let r1 = r0 + stride
                for x in 0..<w {
                    columnSums[x] += Self.block(r0, r1, 2 * x)
                }
            }
            // Then across three blocks.
            let row = out + qy * w
            for x in 0..<w {
                let sum = columnSums[max(x - 1, 0)] + columnSums[x] + columnSums[min(x + 1, w - 1)]
                row[x] = SIMD4<Float16>(sum * scale - bias)
            }
        }
    }

    /// The four samples of the block whose top-left photosite is column `x` of rows `r0`, `r1`.
    @inline(__always)
    static func block(_ r0: UnsafePointer<UInt16>, _ r1: UnsafePointer<UInt16>, _ x: Int) -> SIMD4<Float> {
        SIMD4<Float>(SIMD4<UInt16>(r0[x], r0[x + 1], r1[x], r1[x + 1]))
    }
}
