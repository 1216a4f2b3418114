// The statistics an image signal processor's 3A block gathers from each raw frame (SPEC C4):
// per-cell means of the red, green and blue photosites above black, on a coarse grid, which
// auto-exposure and auto-white-balance read instead of the full frame.
import DaguerreCore
import DaguerreFormats

/// Per-cell linear means (0...1 of the range above black) on a `columns` × `rows` grid.
///
/// ```swift
/// let stats = FrameStatistics(frame.mosaic)
/// print(stats.meanGreen, stats.clippedFraction)
/// ```
public struct FrameStatistics: Sendable {
    public let columns: Int, rows: Int
    /// Cell means of (R, G, B), row-major.
    public let cells: [SIMD3<Double>]
    /// The share of sampled photosites at or above 98% of white.
    public let clippedFraction: Double

    public init(_ m: BayerImage, columns: Int = 32, rows: Int = 24) {
        self.columns = columns
        self.rows = rows
        let black = m.blackLevel.reduce(0, +) / 4
        let range = max(1, Double(m.whiteLevel) - black)
        let cfa = SensorFilterColors(pattern: m.pattern, xTrans: m.xTrans)
        var cells = [SIMD3<Double>](repeating: .zero, count: columns * rows)
        var clipped = 0
        var total = 0
        let cw = max(2, m.width / columns)
        let ch = max(2, m.height / rows)
        for cy in 0..<rows {
            for cx in 0..<columns {
                var sum = SIMD3<Double>.zero
                var n = SIMD3<Double>.zero
                // One 2×2 quad in four each way: a sixteenth of the photosites, plenty for 3A (on
                // X-Trans the quads' places cycle through the 6×6 block, so every colour is read).
                for y in stride(from: cy * ch & ~1, to: min(m.height - 1, (cy + 1) * ch), by: 8) {
                    for x in stride(from: cx * cw & ~1, to: min(m.width - 1, (cx + 1) * cw), by: 8) {
                        for k in 0..<4 {
                            let v = Double(m.samples[(y + k / 2) * m.width + x + k % 2])
                            let c = cfa.color(x: x + k % 2, y: y + k / 2)
                            sum[c] += (v - black) / range
                            n[c] += 1
                            if v >= Double(m.whiteLevel) * 0.98 { clipped += 1 }
                            total += 1
                        }
                    }
                }
                cells[cy * columns + cx] = sum / SIMD3(max(n.x, 1), max(n.y, 1), max(n.z, 1))
            }
        }
        self.cells = cells
        clippedFraction = total == 0 ? 0 : Double(clipped) / Double(total)
    }

    /// Centre-weighted mean of the green cells (the centre half counts double).
    public var meanGreen: Double {
        var sum = 0.0
        var weight = 0.0
        for cy in 0..<rows {
            for cx in 0..<columns {
                let central =
                    abs(Double(cx) + 0.5 - Double(columns) / 2) < Double(columns) / 4
                    && abs(Double(cy) + 0.5 - Double(rows) / 2) < Double(rows) / 4
                let w = central ? 2.0 : 1.0
                sum += cells[cy * columns + cx].y * w
                weight += w
            }
        }
        return sum / weight
    }
}
