// Burst alignment (SPEC P13) as HDR+ does it (Hasinoff et al. 2016, §4): a coarse-to-fine
// search over the grey pyramids. At each level every 16×16 tile of the reference looks for the
// integer displacement of an alternate frame that matches it best, within a small radius of a
// guess taken from the level above; the guess is the best of the three nearest coarse tiles'
// displacements, scaled up (HDR+'s remedy for tiles that straddle two motions). Coarse levels
// compare by the sum of squared differences, level 0 by the sum of absolute differences, which
// noise sways less. Level 0 is one pixel per 2×2 Bayer block, so displacements are whole
// blocks and the CFA phase is kept; HDR+ also stops at whole pixels there. Our own code: no
// Debian or SwiftPM library does HDR+-style raw burst merging.
import DaguerreCore

/// The coarse-to-fine tile search.
///
/// ```swift
/// let fields = TileAlignment.align(pyramids, reference: 0, radii: [1, 2, 2, 4], noise: noise)
/// fields[3][tile]   // where frame 3 shows what tile `tile` of the reference shows, in 2×2 blocks
/// ```
enum TileAlignment {
    /// The search radius of `level` when the pyramid has `levelCount` levels: the coarsest
    /// level present takes the last radius given, the others their own (``BurstMerge/Options/searchRadii``).
    /// How many standard deviations of noise a displacement must win by to replace the first guess.
    static let marginDeviations: Float = 2

    static func radius(level: Int, levelCount: Int, radii: [Int]) -> Int {
        level == levelCount - 1 ? radii[radii.count - 1] : radii[min(level, radii.count - 1)]
    }

    /// For every frame, the displacement of each tile of level 0's ``TileGrid``, in level-0
    /// pixels (whole 2×2 blocks): frame(p + d) ≈ reference(p). The reference's are zero.
    static func align(_ pyramids: [GreyPyramid], reference: Int, radii: [Int], noise: BurstNoise) -> [[SIMD2<Int32>]] {
        let levelCount = pyramids.map(\.levels.count).min() ?? 1
        let alternates = (0..<pyramids.count).filter { $0 != reference }
        var above: [[SIMD2<Int32>]] = []
        var aboveGrid: TileGrid?
        for level in stride(from: levelCount - 1, through: 0, by: -1) {
            let plane = pyramids[reference].levels[level]
            let grid = TileGrid(width: plane.width, height: plane.height)
            let radius = radius(level: level, levelCount: levelCount, radii: radii)
            let factor = level == levelCount - 1 ? 1 : GreyPyramid.factor(above: level)
            let squared = level > 0
            let reduction = (0..<level).reduce(1) { $0 * GreyPyramid.factor(above: $1) }
            let varianceScale = 1 / Float(4 * reduction * reduction)
            let previous = above
            let previousGrid = aboveGrid
            let fields = [SIMD2<Int32>](unsafeUninitializedCapacity: alternates.count * grid.count) { out, count in
                let dst = UnsafeTransfer(out.baseAddress!)
                // Safety: item (a, row) writes only row `row` of alternate a's field; the pyramids
                // and the level above are read-only and outlive the loop.
                WorkerPool.share(workers: WorkerPool.processorCount, items: alternates.count * grid.rows) { _, item in
                    let a = item / grid.rows
                    let row = item % grid.rows
                    pyramids[reference].levels[level].pixels.withUnsafeBufferPointer { ref in
                        pyramids[alternates[a]].levels[level].pixels.withUnsafeBufferPointer { alt in
                            let search = LevelSearch(
                                reference: ref.baseAddress!, alternate: alt.baseAddress!, width: plane.width, height: plane.height,
                                squared: squared, noise: noise, pixelVarianceScale: varianceScale)
                            let out = dst.value + a * grid.count + row * grid.columns
                            for column in 0..<grid.columns {
                                let guesses =
                                    previousGrid.map { Guesses(column: column, row: row, factor: factor, above: previous[a], grid: $0) }
                                    ?? Guesses(.zero)
                                out[column] = search.best(x0: grid.origin(column), y0: grid.origin(row), guesses: guesses, radius: radius)
                            }
                        }
                    }
                }
                count = alternates.count * grid.count
            }
            above = (0..<alternates.count).map { a in Array(fields[(a * grid.count)..<((a + 1) * grid.count)]) }
            aboveGrid = grid
        }
        var result = [[SIMD2<Int32>]](repeating: [SIMD2<Int32>](repeating: .zero, count: aboveGrid?.count ?? 0), count: pyramids.count)
        for (a, frame) in alternates.enumerated() { result[frame] = above[a] }
        return result
    }
}

/// Up to three candidate displacements for a tile, from the level above (no allocation).
struct Guesses {
    private(set) var first: SIMD2<Int32>
    private(set) var second: SIMD2<Int32>
    private(set) var third: SIMD2<Int32>
    private(set) var count: Int

    init(_ only: SIMD2<Int32>) {
        first = only
        second = only
        third = only
        count = 1
    }

    /// The displacements of the three coarse tiles nearest to tile (column, row) of the finer
    /// level, scaled by `factor`: the nearest one and its neighbours across and down on the side
    /// nearer to the tile's centre (HDR+'s remedy for tiles that straddle two motions).
    init(column: Int, row: Int, factor: Int, above: [SIMD2<Int32>], grid: TileGrid) {
        // A tile's centre is at 8·index, so a fine tile sits at coarse index index / factor.
        func near(_ index: Int, _ count: Int) -> (Int, Int) {
            let twice = 2 * index  // compare index / factor with its rounding in integers
            let nearest = min(max((twice + factor) / (2 * factor), 0), count - 1)
            let other = twice >= 2 * nearest * factor ? nearest + 1 : nearest - 1
            return (nearest, min(max(other, 0), count - 1))
        }
        let (cx, ox) = near(column, grid.columns)
        let (cy, oy) = near(row, grid.rows)
        let f = Int32(factor)
        self.init(above[cy * grid.columns + cx] &* f)
        add(above[cy * grid.columns + ox] &* f)
        add(above[oy * grid.columns + cx] &* f)
    }

    private mutating func add(_ g: SIMD2<Int32>) {
        if g == first || (count > 1 && g == second) { return }
        if count == 1 { second = g } else { third = g }
        count += 1
    }

    subscript(i: Int) -> SIMD2<Int32> { i == 0 ? first : i == 1 ? second : third }
}

/// One level's tile search between the reference and one alternate.
struct LevelSearch {
    let reference: UnsafePointer<Float>
    let alternate: UnsafePointer<Float>
    let width: Int
    let height: Int
    /// Sum of squared differences (coarse levels) or of absolute differences (level 0).
    let squared: Bool
    /// The frames' noise, and the share of one sample's variance left in a pixel of this level:
    /// 1 / (4 f²) for a level whose pixels average f × f grey pixels of 2×2 blocks.
    let noise: BurstNoise
    let pixelVarianceScale: Float

    /// The displacement within `radius` of the best guess that matches the tile at (x0, y0) best,
    /// or the first guess (the nearest coarse tile's) when nothing beats it by more than noise
    /// explains: in a flat tile the best match of noise against noise is a random displacement,
    /// and neighbouring tiles that moved at random would blend unrelated samples.
    func best(x0: Int, y0: Int, guesses: Guesses, radius: Int) -> SIMD2<Int32> {
        let prior = guesses[0]
        let priorCost = cost(x0: x0, y0: y0, dx: Int(prior.x), dy: Int(prior.y))
        var best = prior
        var bestCost = priorCost
        for i in 1..<guesses.count {
            let g = guesses[i]
            let c = cost(x0: x0, y0: y0, dx: Int(g.x), dy: Int(g.y))
            if c < bestCost {
                bestCost = c
                best = g
            }
        }
        let centre = best
        for dy in -radius...radius {
            for dx in -radius...radius where dx != 0 || dy != 0 {
                let d = centre &+ SIMD2(Int32(dx), Int32(dy))
                let c = cost(x0: x0, y0: y0, dx: Int(d.x), dy: Int(d.y))
                if c < bestCost {
                    bestCost = c
                    best = d
                }
            }
        }
        guard best != prior else { return prior }
        return bestCost > priorCost - margin(x0: x0, y0: y0) ? prior : best
    }

    /// How much a displacement's cost must undercut the first guess's to be taken: twice the
    /// standard deviation of the difference of two costs of a flat tile under noise alone, for
    /// 256 pixels of variance v (per-sample variance over 4·f² samples averaged): for the sum of
    /// absolute differences √(2·256·(1 − 2/π)·2v) ≈ 19.3√v, for the sum of squares √(2·256·8)·v = 64v.
    func margin(x0: Int, y0: Int) -> Float {
        let level = meanLevel(x0: x0, y0: y0)
        let v = noise.variance(of: SIMD4(repeating: level)).sum() * 0.25 * pixelVarianceScale
        return TileAlignment.marginDeviations * (squared ? 64 * v : 19.3 * v.squareRoot())
    }

    /// The mean of the reference tile at (x0, y0), over its pixels inside the image.
    func meanLevel(x0: Int, y0: Int) -> Float {
        let n = TileGrid.size
        if x0 >= 0, y0 >= 0, x0 + n <= width, y0 + n <= height {
            var acc = SIMD16<Float>()
            for y in y0..<y0 + n { acc += UnsafeRawPointer(reference + y * width + x0).loadUnaligned(as: SIMD16<Float>.self) }
            return Self.sum(acc) / Float(n * n)
        }
        var sum: Float = 0
        var count = 0
        for y in max(y0, 0)..<min(y0 + n, height) {
            let row = reference + y * width
            for x in max(x0, 0)..<min(x0 + n, width) { sum += row[x] }
            count += max(0, min(x0 + n, width) - max(x0, 0))
        }
        return count > 0 ? sum / Float(count) : 0
    }

    /// How far the alternate, displaced by (dx, dy), is from the reference's tile at (x0, y0),
    /// over the tile's pixels inside the image (the alternate's edges are extended).
    @inline(__always)
    func cost(x0: Int, y0: Int, dx: Int, dy: Int) -> Float {
        let n = TileGrid.size
        if x0 >= 0, y0 >= 0, x0 + n <= width, y0 + n <= height, x0 + dx >= 0, y0 + dy >= 0, x0 + dx + n <= width, y0 + dy + n <= height {
            return squared ? inside(x0: x0, y0: y0, dx: dx, dy: dy, squared: true) : inside(x0: x0, y0: y0, dx: dx, dy: dy, squared: false)
        }
        var sum: Float = 0
        for y in max(y0, 0)..<min(y0 + n, height) {
            let ay = min(max(y + dy, 0), height - 1)
            for x in max(x0, 0)..<min(x0 + n, width) {
                let ax = min(max(x + dx, 0), width - 1)
                let d = reference[y * width + x] - alternate[ay * width + ax]
                sum += squared ? d * d : abs(d)
            }
        }
        return sum
    }

    /// The cost of a tile that lies inside the image at both ends: one 16-lane row at a time.
    @inline(__always)
    private func inside(x0: Int, y0: Int, dx: Int, dy: Int, squared: Bool) -> Float {
        let rowBytes = width * MemoryLayout<Float>.stride
        var r = UnsafeRawPointer(reference + y0 * width + x0)
        var a = UnsafeRawPointer(alternate + (y0 + dy) * width + x0 + dx)
        var acc = SIMD16<Float>()
        for _ in 0..<TileGrid.size {
            let d = r.loadUnaligned(as: SIMD16<Float>.self) - a.loadUnaligned(as: SIMD16<Float>.self)
            // |d| by clearing the sign bits (pointwiseMax and selects do not vectorize here).
            acc =
                squared
                ? acc.addingProduct(d, d)
                : acc + unsafeBitCast(unsafeBitCast(d, to: SIMD16<UInt32>.self) & 0x7FFF_FFFF, to: SIMD16<Float>.self)
            r += rowBytes
            a += rowBytes
        }
        return Self.sum(acc)
    }

    /// The sum of the lanes, halves added (the generic `sum()` does not vectorize).
    @inline(__always)
    static func sum(_ v: SIMD16<Float>) -> Float {
        let a = v.lowHalf + v.highHalf
        let b = a.lowHalf + a.highHalf
        let c = b.lowHalf + b.highHalf
        return c.x + c.y
    }
}
