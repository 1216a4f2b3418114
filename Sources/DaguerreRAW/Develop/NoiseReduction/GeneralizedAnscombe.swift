// The variance-stabilizing transform of raw noise reduction (SPEC X3; REPORT §3 steps 0 and 3 of
// the project's noise research): the generalized Anscombe transform (Starck, Murtagh and
// Bijaoui; Mäkitalo and Foi) maps Poisson–Gaussian data with variance S·x + O to data whose
// noise has standard deviation ≈ 1 at every signal level, so one fixed threshold and one Wiener
// noise power serve the whole image. Our own code (no Debian library has it).
import DaguerreImage

/// The forward transform and its asymptotically unbiased inverse for one noise model, in Float32.
///
/// ```swift
/// let vst = GeneralizedAnscombe(NoiseModel(scale: 6e-4, offset: 3.6e-6))
/// let y = vst.forward(0.18)      // noise σ ≈ 1 around here
/// let x = vst.inverse(y)         // ≈ 0.18
/// ```
struct GeneralizedAnscombe: Sendable {
    /// y = k·sqrt(max(S·x + c, 0)) with k = 2/S, c = 3/8·S² + O; or y = x/σ in the Gaussian limit.
    private let s: Float, c: Float, k: Float
    /// Inverse: x = S·((z/2)² − 1/8) − O/S; or x = σ·z in the Gaussian limit.
    private let oOverS: Float, sigma: Float
    /// True when the shot-noise part is negligible against the read noise over the whole range
    /// (S < O/1000): the transform is then the affine x/σ, which Float32 evaluates without the
    /// cancellation the square-root form suffers when 2/S is huge.
    let isGaussian: Bool

    init(_ model: NoiseModel) {
        let s = max(model.scale, 0)
        let o = model.offset
        isGaussian = s < max(o, 0) * 1e-3
        self.s = Float(s)
        c = Float(0.375 * s * s + o)
        k = s > 0 ? Float(2 / s) : 0
        oOverS = s > 0 ? Float(o / s) : 0
        sigma = Float(max(o, 0).squareRoot())
    }

    /// The transform's Float constants (s, c, k, O/S, σ, Gaussian as 0 or 1), for a kernel that
    /// receives them as arguments instead of rebuilding the transform per pixel.
    var constants: [Float] { [s, c, k, oOverS, sigma, isGaussian ? 1 : 0] }

    /// The same from kernel arguments `first`…`first + 5` (as ``constants`` passed them).
    init(_ values: KernelValues, from first: Int) {
        (s, c, k, oOverS, sigma) = (
            values.float(at: first), values.float(at: first + 1), values.float(at: first + 2),
            values.float(at: first + 3), values.float(at: first + 4)
        )
        isGaussian = values.float(at: first + 5) != 0
    }

    @inline(__always) func forward(_ x: Float) -> Float {
        isGaussian ? x / sigma : k * max(s * x + c, 0).squareRoot()
    }

    @inline(__always) func inverse(_ z: Float) -> Float {
        if isGaussian { return z * sigma }
        let h = 0.5 * z
        return s * (h * h - 0.125) - oOverS
    }

    /// `into[i] = forward(source[2·i])` for i in 0..<count: one CFA plane's samples of a mosaic
    /// row. The same arithmetic as ``forward(_:)``, as a loop LLVM vectorizes (no checked
    /// index arithmetic, the branch hoisted, max as a select).
    func forward(everyOther source: UnsafePointer<Float>, count: Int, into dst: UnsafeMutablePointer<Float>) {
        if isGaussian {
            let sigma = sigma
            for i in 0..<count { dst[i] = source[i &* 2] / sigma }
        } else {
            let k = k
            let s = s
            let c = c
            for i in 0..<count {
                let v = s * source[i &* 2] + c
                dst[i] = k * (v > 0 ? v : 0).squareRoot()
            }
        }
    }

    /// `into[2·i] = inverse(source[i])` for i in 0..<count, as ``forward(everyOther:count:into:)``.
    ///
    /// Eight results are computed as one vector (the last group padded) and stored one by one
    /// by ``spread(_:to:)``. As a plain loop, LLVM vectorized the stores into AVX-512 scatters,
    /// which Zen CPUs run slowly (half of the per-plane noise-reduction wrapper's CPU time). A
    /// full-vector store is not allowed: the odd samples between belong to another plane, which
    /// another worker may be writing at the same time. Each lane's arithmetic is that of
    /// ``inverse(_:)``.
    func inverse(_ source: UnsafePointer<Float>, count: Int, everyOther dst: UnsafeMutablePointer<Float>) {
        let gaussian = isGaussian
        let sigma = sigma
        let s = s
        let o = oOverS
        var i = 0
        while i < count {
            let n = min(8, count &- i)
            var z = SIMD8<Float>()
            if n == 8 {
                z = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<Float>.self)
            } else {
                for l in 0..<n { z[l] = source[i &+ l] }
            }
            let x: SIMD8<Float>
            if gaussian {
                x = z * sigma
            } else {
                let h = 0.5 * z
                x = s * (h * h - 0.125) - o
            }
            if n == 8 { Self.spread(x, to: dst + i &* 2) } else { for l in 0..<n { dst[(i &+ l) &* 2] = x[l] } }
            i &+= 8
        }
    }

    /// `dst[2·l] = v[l]` for the 8 lanes. Never inlined: a call in the loop keeps LLVM's loop
    /// vectorizer from widening the stores into scatters (in a 24 MP develop the calls and their
    /// stores take about 9 ms of CPU, where the scatters took about 20).
    @inline(never) private static func spread(_ v: SIMD8<Float>, to d: UnsafeMutablePointer<Float>) {
        d[0] = v[0]
        d[2] = v[1]
        d[4] = v[2]
        d[6] = v[3]
        d[8] = v[4]
        d[10] = v[5]
        d[12] = v[6]
        d[14] = v[7]
    }
}
