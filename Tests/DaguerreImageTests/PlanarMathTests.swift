import Foundation
import Testing

@testable import DaguerreImage

/// The fast maths of the planar kernels against plain scalar references (libvips style).
@Suite struct PlanarMathTests {
    /// GammaAdjust's `PlanarMath.SignedPower` against Foundation's `pow` in Double: relative
    /// error at most 1.5e-5·max(1, g) for |x| from 1e-6 to 1e4 and every result in the
    /// normal float range, sign mirrored, the vectorisable loop equal to the scalar function.
    @Test(arguments: [0.01, 0.25, 0.45, 0.8, 0.95, 1.2, 2.2, 4, 10])
    func signedPowerMatchesPow(gamma: Double) {
        let power = PlanarMath.SignedPower(Float(gamma))
        let n = 20_000
        var xs = [Float](repeating: 0, count: n)
        for i in 0..<n { xs[i] = Float(pow(10, -6 + 10 * Double(i) / Double(n - 1))) }  // 1e-6 … 1e4
        var looped = xs
        looped.withUnsafeMutableBufferPointer { power.apply($0.baseAddress!, n) }
        var worst = 0.0
        for (i, x) in xs.enumerated() {
            let ref = pow(Double(x), gamma)
            guard ref > 1e-37, ref < 1e37 else { continue }
            let v = power(x)
            worst = max(worst, abs(Double(v) - ref) / ref)
            #expect(power(-x) == -v)
            #expect(looped[i] == v)
        }
        print("measured: SignedPower \(gamma) vs pow: max relative error \(worst)")
        #expect(worst <= 1.5e-5 * max(1, gamma), "worst relative error \(worst)")
    }

    /// ±0 maps to ±0 for every exponent (the exponent field alone reads 0 as 2^−127, which
    /// made 0^0.01 0.41); results past the float range saturate near 2^127 instead of wrapping
    /// into garbage; tiny results stay tiny and positive.
    @Test func signedPowerEdges() {
        for g: Float in [0.01, 0.5, 1.5, 10, 100] {
            let p = PlanarMath.SignedPower(g)
            #expect(p(0).bitPattern == Float(0).bitPattern)
            #expect(p(-0.0).bitPattern == Float(-0.0).bitPattern)
            #expect(abs(p(1) - 1) < 2e-5 * max(1, g))
            let big = p(Float.greatestFiniteMagnitude)
            #expect(big.isFinite && big > 0, "\(g): \(big)")
            let tiny = p(Float.leastNormalMagnitude)
            #expect(tiny.isFinite && tiny > 0, "\(g): \(tiny)")
        }
        #expect(PlanarMath.SignedPower(100)(1e10) > 1e37)  // 1e1000, saturated
        #expect(PlanarMath.SignedPower(100)(1e-10) < 1e-37)  // 1e−1000
    }

    /// PlanarMath's one-instruction max and min agree with Swift.max and Swift.min on numbers,
    /// signed zeros included.
    @Test func maxAndMinMatchTheStandardLibrary() {
        let values: [Float] = [-.infinity, -2, -1, -0.0, 0, .leastNonzeroMagnitude, 0.5, 1, 3, .infinity]
        for a in values {
            for b in values {
                #expect(PlanarMath.max(a, b).bitPattern == Swift.max(a, b).bitPattern, "max(\(a), \(b))")
                #expect(PlanarMath.min(a, b).bitPattern == Swift.min(a, b).bitPattern, "min(\(a), \(b))")
            }
        }
    }
}
