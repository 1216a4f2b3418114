// The merge of an aligned burst (SPEC P13), the spatial counterpart of HDR+'s robust merge
// (Hasinoff et al. 2016, §5): each tile of the reference is averaged with the same tile of every
// other frame, displaced as the alignment found it, photosite by photosite and colour by colour;
// a frame's block counts less, down to not at all, where its local means differ from the
// reference's by more than the noise explains (motion the alignment could not follow, or a
// misalignment), so moving things are not doubled (no ghost) and stay as the reference shows
// them. Half-overlapping tiles are blended with raised-cosine windows that sum to one, so a
// change of displacement from one tile to the next leaves no seam. Where frames agree the result
// is their plain mean: the signal scale of one frame, the noise of N. This file holds the maths
// of one row of blocks; BurstMergeSchedule decides which rows run where. Our own code (see
// BurstMerge).
import DaguerreCore

/// The weight of a frame's block against the reference, from their local means.
///
/// With the noise variance σ² of one normalized sample, the difference of two means of nine
/// samples has variance 2σ²/9 per colour; `chiSquare` sums the four colours' squared
/// differences in those units (a χ² with four degrees of freedom where nothing moved).
///
/// ```swift
/// let robustness = MergeRobustness(noise: noise, threshold: 2)
/// let inverse = robustness.inverseVariance(reference: refMeans)
/// let w = robustness.weight(reference: refMeans, alternate: altMeans, inverseVariance: inverse)   // 0...1
/// ```
struct MergeRobustness: Sendable {
    let noise: BurstNoise
    /// χ² at and below which the block gets full weight (4 T²), and the slope to zero weight at
    /// twice that.
    let fullWeight: Float
    let slope: Float

    init(noise: BurstNoise, threshold: Double) {
        self.noise = noise
        fullWeight = Float(4 * threshold * threshold)
        slope = 1 / fullWeight
    }

    /// Per colour, 1 / the variance of a difference of two local means at the reference's level.
    @inline(__always)
    func inverseVariance(reference: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4<Float>(repeating: 4.5) / noise.variance(of: reference)
    }

    @inline(__always)
    func weight(reference: SIMD4<Float>, alternate: SIMD4<Float>, inverseVariance: SIMD4<Float>) -> Float {
        let d = alternate - reference
        let chiSquare = (d * d * inverseVariance).sum()
        return min(max(2 - chiSquare * slope, 0), 1)
    }
}

/// Merges one row of 2×2 blocks (two rows of photosites) into raw sample values, not yet
/// rounded. The row lies in two rows of tiles and each block in two columns of them: it gets the
/// four tiles' merges blended by their windows, or one merge where every frame moves the four
/// tiles alike. Frames are taken one at a time along the whole row, so each is read as three
/// sequential streams (its local means and its two rows of photosites).
///
/// ```swift
/// let rows = RobustTileMerge(inputs: inputs, scratch: RobustTileMerge.Scratch(width: layout.quadWidth))
/// rows.merge(row: qy, into: values)   // values[qx] for every block qx of the row
/// ```
struct RobustTileMerge {
    /// Everything the rows of one merge share, read-only.
    struct Inputs: @unchecked Sendable {
        // Safety: pointers into the frames' samples, their local means, the alignment fields
        // and the window, all kept alive and unchanged by the schedule while rows are merged.
        let frames: [UnsafePointer<UInt16>]
        let means: [UnsafePointer<SIMD4<Float16>>]
        let fields: [UnsafePointer<SIMD2<Int32>>]
        let reference: Int
        let layout: BurstLayout
        let grid: TileGrid
        let robustness: MergeRobustness
        /// The raised-cosine window over a tile's 16 pixels.
        let window: UnsafePointer<Float>
    }

    /// One worker's workspace for rows of `width` blocks.
    struct Scratch {
        let width: Int
        let referenceSamples: UnsafeMutablePointer<SIMD4<Float>>
        let referenceMeans: UnsafeMutablePointer<SIMD4<Float>>
        let inverseVariance: UnsafeMutablePointer<SIMD4<Float>>
        /// Per tile of the four over a block (2 × tile row + tile column), the weighted sums of
        /// samples and of weights, `width` each.
        let sums: UnsafeMutablePointer<SIMD4<Float>>
        let weights: UnsafeMutablePointer<Float>
        /// Per cell of 8 blocks, whether all four tiles move alike in every frame.
        let alike: UnsafeMutablePointer<Bool>

        init(width: Int) {
            self.width = width
            referenceSamples = .allocate(capacity: width)
            referenceMeans = .allocate(capacity: width)
            inverseVariance = .allocate(capacity: width)
            sums = .allocate(capacity: 4 * width)
            weights = .allocate(capacity: 4 * width)
            alike = .allocate(capacity: width / TileGrid.step + 1)
        }

        func deallocate() {
            for p in [referenceSamples, referenceMeans, inverseVariance, sums] { p.deallocate() }
            weights.deallocate()
            alike.deallocate()
        }
    }

    let inputs: Inputs
    let scratch: Scratch

    /// Writes the merged values of block row `qy` into `values` (one per block).
    func merge(row qy: Int, into values: UnsafeMutablePointer<SIMD4<Float>>) {
        let n = TileGrid.step
        let layout = inputs.layout
        let qw = layout.quadWidth
        let qh = layout.quadHeight
        let stride = layout.width
        let s = scratch
        let grid = inputs.grid
        let robustness = inputs.robustness
        let cells = (qw + n - 1) / n
        // The tile rows over this block row: cy (its second half) and cy + 1 (its first half).
        let cy = qy / n
        let by = qy % n
        // The reference, counted with weight 1 in every tile.
        let r0 = inputs.frames[inputs.reference] + 2 * qy * stride
        let refMeans = inputs.means[inputs.reference] + qy * qw
        for qx in 0..<qw {
            let block = LocalMeans.block(r0, r0 + stride, 2 * qx)
            let m = SIMD4<Float>(refMeans[qx])
            s.referenceSamples[qx] = block
            s.referenceMeans[qx] = m
            s.inverseVariance[qx] = robustness.inverseVariance(reference: m)
            for t in 0..<4 {
                s.sums[t * qw + qx] = block
                s.weights[t * qw + qx] = 1
            }
        }
        for cx in 0..<cells {
            let first = cy * grid.columns + cx
            let below = grid.columns
            s.alike[cx] = (0..<inputs.frames.count).allSatisfy { f in
                let d = inputs.fields[f]
                return d[first] == d[first + 1] && d[first] == d[first + below] && d[first] == d[first + below + 1]
            }
        }
        for f in 0..<inputs.frames.count where f != inputs.reference {
            let frame = inputs.frames[f]
            let means = inputs.means[f]
            let field = inputs.fields[f]
            for cx in 0..<cells {
                let qx0 = cx * n
                let columns = min(n, qw - qx0)
                for t in 0..<(s.alike[cx] ? 1 : 4) {
                    let d = field[(cy + (t >> 1)) * grid.columns + cx + (t & 1)]
                    let dx = Int(d.x)
                    let ay = qy + Int(d.y)
                    guard ay >= 0, ay < qh else { continue }
                    // The displaced blocks that fall inside the frame.
                    let bx0 = max(0, -(qx0 + dx))
                    let bx1 = min(columns, qw - (qx0 + dx))
                    guard bx0 < bx1 else { continue }
                    let a0 = frame + 2 * ay * stride + 2 * (qx0 + dx)
                    let a1 = a0 + stride
                    let meanRow = means + ay * qw + qx0 + dx
                    let sums = s.sums + t * qw + qx0
                    let weights = s.weights + t * qw + qx0
                    let referenceMeans = s.referenceMeans + qx0
                    let inverseVariance = s.inverseVariance + qx0
                    for bx in bx0..<bx1 {
                        let w = robustness.weight(
                            reference: referenceMeans[bx], alternate: SIMD4<Float>(meanRow[bx]), inverseVariance: inverseVariance[bx])
                        sums[bx] = sums[bx].addingProduct(LocalMeans.block(a0, a1, 2 * bx), w)
                        weights[bx] += w
                    }
                }
            }
        }
        // Blend the tiles' merges by their windows (across: tile cx is the second half, cx + 1
        // the first; down likewise).
        let wyTop = inputs.window[by + n]
        let wyBottom = inputs.window[by]
        for qx in 0..<qw {
            let cx = qx / n
            if s.alike[cx] {
                values[qx] = s.sums[qx] / s.weights[qx]
                continue
            }
            let bx = qx % n
            let wxLeft = inputs.window[bx + n]
            let wxRight = inputs.window[bx]
            var v = s.sums[qx] * (wxLeft * wyTop / s.weights[qx])
            v = v.addingProduct(s.sums[qw + qx], wxRight * wyTop / s.weights[qw + qx])
            v = v.addingProduct(s.sums[2 * qw + qx], wxLeft * wyBottom / s.weights[2 * qw + qx])
            v = v.addingProduct(s.sums[3 * qw + qx], wxRight * wyBottom / s.weights[3 * qw + qx])
            values[qx] = v
        }
    }
}
