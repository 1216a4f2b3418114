// Pipeline version 7's pilot for DCT4-2S's Wiener stage (SPEC X3): one hard-thresholding pass
// over the four Bayer planes together, in non-overlapping 4×4 blocks. Each block's four planes
// are transformed by the 4×4 DCT-II and then across the planes by the orthonormal 2×2 Haar
// transform of the Bayer cell (sum, horizontal, vertical and diagonal differences), so the
// threshold sees what the planes share once instead of four times. It replaces version 6's
// per-plane pass at every other block (four blocks over each sample) with one block over each
// sample. The idea is the colour decorrelation of CBM3D (Dabov et al. 2007) applied to the CFA
// cell; our own code, as no Debian library denoises raw CFA planes.
import DaguerreCore

/// Makes the pilot of the four stabilized Bayer planes of a strip, a band of block rows at a
/// time.
///
/// A block row covers plane rows `start ..< start + 4` of every plane; rows past a plane's ends
/// are whole-sample mirrored, and the rows it reads already hold their columns mirrored past the
/// end (``DCT4PlaneDenoiser/extendInputColumns(rows:columns:)``). Every coefficient at or under the threshold
/// `T = 2.5·a·s` (``DCT4PlaneDenoiser/threshold``, the amount `a`, the detail and contrast
/// controls' scale `s` per DCT coefficient) is set to 0, except the DC of the planes' sum; the
/// blocks do not overlap, so the inverse is the pilot itself.
///
/// Each vector holds 8 adjacent columns of a row, two blocks side by side: the DCT down the
/// blocks' columns is lane-wise across four rows, and the DCT along their rows is a sum of four
/// products with the row's samples broadcast within each block's four lanes (one in-lane
/// shuffle each), so rows go in and out in column order, with no transposition.
///
/// ```swift
/// JointCFAPilot.make(blockRows: 0..<8, gridOrigin: 0, rows: rows, columns: columns, amount: 1,
///                    noiseScales: scales, input: { k, r in UnsafePointer(planes[k].inputRow(r)) },
///                    output: { k, r in planes[k].pilotRow(r) })
/// ```
enum JointCFAPilot {
    typealias V = SIMD8<Float>

    /// The pilot of block rows `blockRows` (block row b covers plane rows `gridOrigin + 4b ..<
    /// gridOrigin + 4b + 4`, −3 ≤ `gridOrigin` ≤ 0) of four planes of `rows[k]` × `columns[k]`
    /// samples (each at least 5 × 5, and differing by at most one). `input(k, r)` is plane k's
    /// stabilized row r, readable up to the widest plane's column count rounded up to a
    /// multiple of 8 (its own columns mirrored by 4, then finite values); `output(k, r)` is
    /// where plane k's pilot row r goes.
    static func make(
        blockRows: Range<Int>, gridOrigin: Int, rows: SIMD4<Int>, columns: SIMD4<Int>, amount: Float, noiseScales: SIMD16<Float>,
        input: (_ plane: Int, _ row: Int) -> UnsafePointer<Float>,
        output: (_ plane: Int, _ row: Int) -> UnsafeMutablePointer<Float>
    ) {
        // The constants (13 vectors) and a block column's coefficients (16), on the stack: read
        // as memory operands in the loop, and out of reach of the stores through the rows.
        withUnsafeTemporaryAllocation(of: V.self, capacity: 29) { scratch in
            let constants = scratch.baseAddress!
            // Per coefficient row u, lane 4g + v: the negated threshold −2.5·a·s of coefficient
            // 4u + v (as DCT4PlaneDenoiser's first stage computes it); [4] is row 0's with the
            // DC lanes at +∞, for the planes' sum, whose DC is always kept.
            for u in 0..<4 {
                var l = V()
                for lane in 0..<8 { l[lane] = DCT4PlaneDenoiser.negativeThreshold(amount: amount, scale: noiseScales[4 * u + (lane & 3)]) }
                constants[u] = l
            }
            constants[4] = constants[0]
            constants[4][0] = .infinity
            constants[4][4] = .infinity
            // The row transforms' weights: [5 + q] forward, [9 + q] inverse (``rowTransform``).
            for q in 0..<4 {
                var f = V()
                var b = V()
                for lane in 0..<8 {
                    f[lane] = DCT4PlaneDenoiser.matrix[lane & 3][q]
                    b[lane] = DCT4PlaneDenoiser.matrix[q][lane & 3]
                }
                constants[5 + q] = f
                constants[9 + q] = b
            }
            // Plane k's row i of the block row: in at rowsIn[4k + i], out at rowsOut[4k + i]
            // (nil outside the plane).
            withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: 16) { rowsIn in
                withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>?.self, capacity: 16) { rowsOut in
                    for block in blockRows {
                        let start = gridOrigin + 4 * block
                        for k in 0..<4 {
                            for i in 0..<4 {
                                rowsIn[4 * k + i] = input(k, WholeSampleMirror.index(start + i, rows[k]))
                                rowsOut[4 * k + i] = start + i >= 0 && start + i < rows[k] ? output(k, start + i) : nil
                            }
                        }
                        blockRow(
                            rowsIn.baseAddress!, rowsOut.baseAddress!, columns: columns, constants: UnsafePointer(constants),
                            coefficients: constants + 13)
                    }
                }
            }
        }
    }

    /// One block row: every pair of blocks (8 columns) of the four planes through the forward
    /// transforms, the threshold and the inverse transforms.
    @inline(__always) private static func blockRow(
        _ rowsIn: UnsafePointer<UnsafePointer<Float>>, _ rowsOut: UnsafePointer<UnsafeMutablePointer<Float>?>, columns: SIMD4<Int>,
        constants: UnsafePointer<V>, coefficients c: UnsafeMutablePointer<V>
    ) {
        let forwardWeights = constants + 5
        let inverseWeights = constants + 9
        let zero = V.zero
        let widest = max(max(columns[0], columns[1]), max(columns[2], columns[3]))
        var j = 0
        while j < widest {
            // c[4k + u]: plane k's coefficient row u; after `haar`, component k's.
            for k in 0..<4 {
                let row = rowsIn + 4 * k
                let (u0, u1, u2, u3) = DCT4PlaneDenoiser.forward(
                    rowTransform(DCT4PlaneDenoiser.load(row[0] + j), forwardWeights),
                    rowTransform(DCT4PlaneDenoiser.load(row[1] + j), forwardWeights),
                    rowTransform(DCT4PlaneDenoiser.load(row[2] + j), forwardWeights),
                    rowTransform(DCT4PlaneDenoiser.load(row[3] + j), forwardWeights))
                c[4 * k] = u0
                c[4 * k + 1] = u1
                c[4 * k + 2] = u2
                c[4 * k + 3] = u3
            }
            haar(c)
            for h in 0..<4 {
                for u in 0..<4 {
                    let x = c[4 * h + u]
                    let bound = h == 0 && u == 0 ? constants[4] : constants[u]
                    c[4 * h + u] = zero.replacing(with: x, where: DCT4PlaneDenoiser.negativeMagnitude(x) .< bound)
                }
            }
            haar(c)
            for k in 0..<4 {
                let n = columns[k]
                guard j < n else { continue }
                (c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]) = DCT4PlaneDenoiser.inverse(
                    c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3])
                for i in 0..<4 {
                    guard let out = rowsOut[4 * k + i] else { continue }
                    let v = rowTransform(c[4 * k + i], inverseWeights)
                    if j + 8 <= n {
                        UnsafeMutableRawPointer(out + j).storeBytes(of: v, as: V.self)
                    } else {
                        for l in 0..<(n - j) { out[j + l] = v[l] }
                    }
                }
            }
            j += 8
        }
    }

    /// Lane 4g + q of each of the row's two blocks broadcast to the block's four lanes.
    @inline(__always) private static func broadcast(_ x: V, _ q: Int) -> V {
        V(x[q], x[q], x[q], x[q], x[4 + q], x[4 + q], x[4 + q], x[4 + q])
    }

    /// A 4-point transform of each of the row's two blocks: lane 4g + p = Σ_q w[q][p]·x[4g + q]
    /// (w[q] lane 4g + v = D[v][q] for the DCT, lane 4g + q' = D[q][q'] for its inverse).
    @inline(__always) private static func rowTransform(_ x: V, _ w: UnsafePointer<V>) -> V {
        var y = w[0] * broadcast(x, 0)
        y.addProduct(w[1], broadcast(x, 1))
        y.addProduct(w[2], broadcast(x, 2))
        y.addProduct(w[3], broadcast(x, 3))
        return y
    }

    /// The orthonormal Haar transform of the 2×2 Bayer cell across the planes (positions
    /// (0,0), (0,1), (1,0), (1,1)): `c[4h + u]` becomes component h (sum, horizontal, vertical
    /// and diagonal difference) of coefficient row u. It is its own inverse.
    @inline(__always) private static func haar(_ c: UnsafeMutablePointer<V>) {
        let half = V(repeating: 0.5)
        for u in 0..<4 {
            let (a, b, p, q) = (c[u], c[4 + u], c[8 + u], c[12 + u])
            let s0 = a + b
            let s1 = a - b
            let s2 = p + q
            let s3 = p - q
            c[u] = half * (s0 + s2)
            c[4 + u] = half * (s1 + s3)
            c[8 + u] = half * (s0 - s2)
            c[12 + u] = half * (s1 - s3)
        }
    }
}
