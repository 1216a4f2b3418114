// Global motion between two frames, estimated from the frames themselves (SPEC L9, L10): each
// frame's luma is summed into row and column profiles over a 4×3 grid of blocks; the shift of
// each block's profiles against the previous frame's is the one with the least mean absolute
// difference (refined to a fraction of a pixel by a parabola), and the frame's motion is the
// median over the blocks, so that an object moving through a few blocks does not count.
//
// Written here: vid.stab (Debian's libvidstab) estimates motion as the first pass of a
// two-pass clip filter with its own warping; a Live Photo is stabilized while its frames
// arrive, warped by the engine's resampler, and needs only the global translation, which the
// projections give in about a millisecond a frame.
import DaguerreCore

/// A frame's motion signature: its blocks' luma profiles and its mean level.
///
/// ```swift
/// let a = FrameSignature(luma: frame0.luma, width: 1600, height: 1200)
/// let b = FrameSignature(luma: frame1.luma, width: 1600, height: 1200)
/// let shift = b.motion(since: a)       // (dx, dy) in pixels: where the picture moved
/// ```
struct FrameSignature: Sendable {
    static let blocksX = 4
    static let blocksY = 3
    /// The largest shift looked for, in pixels a frame (larger motion reads as this).
    static let searchRadius = 64

    let width: Int
    let height: Int
    /// Per block: the mean luma of each of its columns, and of each of its rows.
    let columns: [[Float]]
    let rows: [[Float]]
    /// Mean luma, 0...255.
    let meanLevel: Double

    init(luma: [UInt8], width: Int, height: Int) {
        self.width = width
        self.height = height
        let bw = max(1, width / Self.blocksX)
        let bh = max(1, height / Self.blocksY)
        var columns = [[Float]](repeating: [Float](repeating: 0, count: bw), count: Self.blocksX * Self.blocksY)
        var rows = [[Float]](repeating: [Float](repeating: 0, count: bh), count: Self.blocksX * Self.blocksY)
        var total = 0
        luma.withUnsafeBufferPointer { p in
            for by in 0..<Self.blocksY {
                for y in 0..<bh where by * bh + y < height {
                    let row = (by * bh + y) * width
                    for bx in 0..<Self.blocksX {
                        let block = by * Self.blocksX + bx
                        var sum = 0
                        columns[block].withUnsafeMutableBufferPointer { c in
                            for x in 0..<bw {
                                let v = Int(p[row + bx * bw + x])
                                c[x] += Float(v)
                                sum += v
                            }
                        }
                        rows[block][y] = Float(sum) / Float(bw)
                        total += sum
                    }
                }
            }
        }
        for b in columns.indices { for x in columns[b].indices { columns[b][x] /= Float(bh) } }
        self.columns = columns
        self.rows = rows
        meanLevel = Double(total) / Double(max(1, bw * bh * Self.blocksX * Self.blocksY))
    }

    /// How far the picture moved from `previous` to this frame, in pixels (positive: right, down).
    func motion(since previous: FrameSignature) -> SIMD2<Double> {
        guard previous.width == width, previous.height == height else { return .zero }
        var dx: [Double] = []
        var dy: [Double] = []
        for b in columns.indices {
            dx.append(Self.shift(from: previous.columns[b], to: columns[b]))
            dy.append(Self.shift(from: previous.rows[b], to: rows[b]))
        }
        return SIMD2(Self.median(dx), Self.median(dy))
    }

    /// The shift `s` for which `b[i + s]` best matches `a[i]`: the least mean absolute
    /// difference of the profiles (each less its mean, so a change of light does not move it)
    /// over their overlap, refined by a parabola through the neighbours.
    static func shift(from a: [Float], to b: [Float]) -> Double {
        let n = min(a.count, b.count)
        let radius = min(searchRadius, n / 3)
        guard radius > 0 else { return 0 }
        let ma = a.reduce(0, +) / Float(n)
        let mb = b.reduce(0, +) / Float(n)
        var costs = [Float](repeating: .infinity, count: 2 * radius + 1)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                for s in -radius...radius {
                    let lo = max(0, -s)
                    let hi = min(n, n - s)
                    var sum: Float = 0
                    for i in lo..<hi { sum += abs((pa[i] - ma) - (pb[i + s] - mb)) }
                    costs[s + radius] = sum / Float(hi - lo)
                }
            }
        }
        var best = 0
        for i in costs.indices where costs[i] < costs[best] { best = i }
        var fraction = 0.0
        if best > 0, best < costs.count - 1 {
            let (l, c, r) = (Double(costs[best - 1]), Double(costs[best]), Double(costs[best + 1]))
            let curvature = l - 2 * c + r
            if curvature > 0 { fraction = min(0.5, max(-0.5, 0.5 * (l - r) / curvature)) }
        }
        return Double(best - radius) + fraction
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let m = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }
}
