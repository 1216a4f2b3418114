// Deterministic, counter-based random numbers for the sensor simulation (SPEC C4: the virtual
// camera is deterministic when seeded). Each row of each frame gets its own stream keyed by
// (seed, frame, row), so the result does not depend on how many threads render it. Our own
// code: the generator is SplitMix64 and the normal deviates come from an inverse-CDF table,
// because the simulation needs a few ns per photosite, not a general-purpose RNG.

/// A SplitMix64 stream (Steele, Lea and Flood 2014).
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64, _ a: UInt64, _ b: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ a &* 0xD1B5_4A32_D192_ED03 ^ b &* 0x8CB9_2BA7_2F3D_8DD7
        _ = next()
    }

    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    @inline(__always)
    mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }
}

/// Standard normal deviates from 12-bit slices of a 64-bit draw (four per draw), each a lookup
/// in a 4096-entry table of Φ⁻¹ at the bin midpoints, rescaled so the variance is exactly 1
/// (tails stop near ±3.7σ, which a noise model of shot and read noise does not miss).
struct GaussianTable: Sendable {
    static let bits = 12
    let values: [Float]

    static let shared = GaussianTable()

    init() {
        let n = 1 << Self.bits
        var v = (0..<n).map { Self.inverseNormalCDF((Double($0) + 0.5) / Double(n)) }
        let variance = v.reduce(0) { $0 + $1 * $1 } / Double(n)
        let scale = 1 / variance.squareRoot()
        v = v.map { $0 * scale }
        values = v.map(Float.init)
    }

    /// Φ⁻¹(p), Acklam's rational approximation (relative error below 1.2e-9).
    static func inverseNormalCDF(_ p: Double) -> Double {
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
            2.506628277459239e+00,
        ]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
            2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low {
            let q = (-2 * log(1 - p)).squareRoot()
            return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let q = p - 0.5
        let r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
