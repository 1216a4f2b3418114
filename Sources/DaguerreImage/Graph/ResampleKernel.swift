import Foundation

/// Interpolation kernels for resampling (`transformed(by:)`, LanczosScaleTransform).
///
/// ```swift
/// image.transformed(by: AffineTransform2D(scaleX: 0.5, y: 0.5), interpolation: .lanczos)
/// ```
public enum Interpolation: String, Sendable, Hashable, CaseIterable {
    case nearest, bilinear, bicubic, lanczos

    /// Support radius at scale 1.
    var radius: Double {
        switch self {
        case .nearest: 0.5
        case .bilinear: 1
        case .bicubic: 2
        case .lanczos: 3
        }
    }

    /// The kernel's value at distance `x` (in input pixels at scale 1).
    func weight(_ x: Double) -> Double {
        let ax = abs(x)
        switch self {
        case .nearest: return ax < 0.5 ? 1 : (ax == 0.5 ? 0.5 : 0)
        case .bilinear: return max(0, 1 - ax)
        case .bicubic:
            // Keys cubic convolution, a = -0.5 (Catmull-Rom), as Pillow's BICUBIC.
            let a = -0.5
            if ax < 1 { return ((a + 2) * ax - (a + 3)) * ax * ax + 1 }
            if ax < 2 { return (((ax - 5) * ax + 8) * ax - 4) * a }
            return 0
        case .lanczos:
            if ax >= 3 { return 0 }
            if ax < 1e-9 { return 1 }
            let px = Double.pi * ax
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}

/// The kernel a resampling uses: one of the named interpolations, or a Mitchell–Netravali cubic
/// with parameters B and C (BicubicScaleTransform; B 0, C 0.5 is the Keys cubic of `.bicubic`).
enum ResampleKernel: Sendable, Hashable {
    case named(Interpolation)
    case cubic(b: Double, c: Double)

    var radius: Double {
        switch self {
        case .named(let i): i.radius
        case .cubic: 2
        }
    }

    /// The kernel's value at distance `x` (in input pixels at scale 1).
    func weight(_ x: Double) -> Double {
        switch self {
        case .named(let i): return i.weight(x)
        case .cubic(let b, let c):
            let ax = abs(x)
            if ax < 1 { return ((12 - 9 * b - 6 * c) * ax * ax * ax + (-18 + 12 * b + 6 * c) * ax * ax + (6 - 2 * b)) / 6 }
            if ax < 2 {
                return ((-b - 6 * c) * ax * ax * ax + (6 * b + 30 * c) * ax * ax + (-12 * b - 48 * c) * ax + (8 * b + 24 * c)) / 6
            }
            return 0
        }
    }

    /// Its name in a node's description and cache key.
    var label: String {
        switch self {
        case .named(let i): i.rawValue
        case .cubic(let b, let c): "cubic B \(b) C \(c)"
        }
    }
}

/// Per-output-pixel taps of a 1-D resampling: output i reads inputs `start[i] ..< start[i] + count`
/// with `weights[i * maxTaps ..< ...]`, normalised to sum 1.
struct ResampleTaps {
    var start: [Int]
    var count: [Int]
    var weights: [Float]
    let maxTaps: Int
    /// Weights of outputs 2p and 2p+1 side by side, each broadcast over RGBA (zero past a
    /// pixel's own taps), so two outputs share one AVX register in the horizontal pass.
    var pairWeights: [SIMD8<Float>]
    /// Taps of each pair: the larger of the two counts.
    var pairCount: [Int]

    /// Taps for outputs `out0 ..< out0 + n` of `u = (X + 0.5 − offset) / scale` (input pixel
    /// coordinates), widening the kernel by 1/scale when shrinking (antialiasing), with the
    /// same tap bounds as Pillow's resampler.
    /// The source sample position of output pixel `x`, and the input support around it.
    static func center(_ x: Int, scale: Double, offset: Double) -> Double { (Double(x) + 0.5 - offset) / scale }
    static func support(_ kernel: ResampleKernel, scale: Double) -> Double { kernel.radius * max(1, 1 / scale) }
    /// The input pixels `lo..<hi` a tap set centred at `u` reads: the one rule shared by the
    /// taps and by the node's region of interest, so the two never disagree.
    static func bounds(u: Double, support: Double) -> (lo: Int, hi: Int) {
        (Int(floor(u - support + 0.5)), Int(floor(u + support + 0.5)))
    }

    init(kernel: ResampleKernel, scale: Double, offset: Double, out0: Int, n: Int) {
        let filterScale = max(1, 1 / scale)
        let support = Self.support(kernel, scale: scale)
        let maxTaps = Int(ceil(support)) * 2 + 2
        self.maxTaps = maxTaps
        start = [Int](repeating: 0, count: n)
        count = [Int](repeating: 0, count: n)
        weights = [Float](repeating: 0, count: n * maxTaps)
        for i in 0..<n {
            let u = Self.center(out0 + i, scale: scale, offset: offset)
            let (lo, hi) = Self.bounds(u: u, support: support)
            var ws: [Double] = []
            for j in lo..<max(lo + 1, hi) { ws.append(kernel.weight((Double(j) - u + 0.5) / filterScale)) }
            if ws.count > maxTaps { ws = Array(ws.prefix(maxTaps)) }
            let sum = ws.reduce(0, +)
            start[i] = lo
            count[i] = ws.count
            for (k, w) in ws.enumerated() { weights[i * maxTaps + k] = Float(sum != 0 ? w / sum : 0) }
        }
        let pairs = (n + 1) / 2
        pairWeights = [SIMD8<Float>](repeating: .zero, count: pairs * maxTaps)
        pairCount = [Int](repeating: 0, count: pairs)
        for p in 0..<pairs {
            let a = 2 * p
            let b = min(2 * p + 1, n - 1)
            pairCount[p] = b == a ? count[a] : max(count[a], count[b])
            for k in 0..<maxTaps {
                let wa = k < count[a] ? weights[a * maxTaps + k] : 0
                let wb = b != a && k < count[b] ? weights[b * maxTaps + k] : 0
                pairWeights[p * maxTaps + k] = SIMD8(lowHalf: SIMD4(repeating: wa), highHalf: SIMD4(repeating: wb))
            }
        }
    }
    /// Input range every output touches.
    var inputRange: Range<Int> {
        guard let first = start.first else { return 0..<0 }
        var lo = first
        var hi = first
        for i in start.indices {
            lo = min(lo, start[i])
            hi = max(hi, start[i] + count[i])
        }
        return lo..<hi
    }
}
