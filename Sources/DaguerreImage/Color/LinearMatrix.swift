import DaguerreCore

/// A 3×3 colour matrix as three `SIMD4<Float>` columns, for pixel loops (alpha untouched).
struct LinearMatrix: Sendable {
    let c0: SIMD4<Float>, c1: SIMD4<Float>, c2: SIMD4<Float>

    init(_ m: Matrix3) {
        c0 = SIMD4(Float(m[0, 0]), Float(m[1, 0]), Float(m[2, 0]), 0)
        c1 = SIMD4(Float(m[0, 1]), Float(m[1, 1]), Float(m[2, 1]), 0)
        c2 = SIMD4(Float(m[0, 2]), Float(m[1, 2]), Float(m[2, 2]), 0)
    }
    /// nil when `m` is (numerically) the identity, so callers can skip the pass.
    static func nonIdentity(_ m: Matrix3?) -> LinearMatrix? {
        guard let m, !m.isIdentity else { return nil }
        return LinearMatrix(m)
    }

    @inline(__always) func apply(_ v: SIMD4<Float>) -> SIMD4<Float> {
        var r = c0 * v.x
        r.addProduct(c1, SIMD4(repeating: v.y))
        r.addProduct(c2, SIMD4(repeating: v.z))
        r.w = v.w
        return r
    }
    func apply(_ p: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let a = c0
        let b = c1
        let c = c2  // locals: no reload per store (TOOLCHAIN.md, aliasing)
        for i in 0..<count {
            let v = p[i]
            var r = a * v.x
            r.addProduct(b, SIMD4(repeating: v.y))
            r.addProduct(c, SIMD4(repeating: v.z))
            r.w = v.w
            p[i] = r
        }
    }
    /// The same arithmetic on planes, bit for bit: each output channel is
    /// fma(m[k,2], b, fma(m[k,1], g, m[k,0]·r)), as in the interleaved loop.
    func apply(planes s: PlanarSpan, count: Int) {
        let m0 = c0.x
        let m1 = c1.x
        let m2 = c2.x
        let m3 = c0.y
        let m4 = c1.y
        let m5 = c2.y
        let m6 = c0.z
        let m7 = c1.z
        let m8 = c2.z
        let r = s.r
        let g = s.g
        let b = s.b
        for i in 0..<count {
            let x = r[i]
            let y = g[i]
            let z = b[i]
            r[i] = (m0 * x).addingProduct(m1, y).addingProduct(m2, z)
            g[i] = (m3 * x).addingProduct(m4, y).addingProduct(m5, z)
            b[i] = (m6 * x).addingProduct(m7, y).addingProduct(m8, z)
        }
    }
}
