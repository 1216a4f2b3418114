/// A 3×3 matrix in double precision, for colour-space algebra (primaries → XYZ, adaptation).
/// Not for hot loops: the engine converts it to `SIMD4<Float>` columns once per render.
///
/// ```swift
/// let m = ColorSpace.displayP3.rgbToXYZ!   // Display P3 → XYZ (D65)
/// let back = m.inverse! * m                // ≈ identity
/// ```
public struct Matrix3: Sendable, Hashable, CustomStringConvertible {
    /// Row-major elements.
    public var m: [Double]

    public init(_ rowMajor: [Double]) {
        precondition(rowMajor.count == 9)
        m = rowMajor
    }
    public static let identity = Matrix3([1, 0, 0, 0, 1, 0, 0, 0, 1])
    public static func diagonal(_ a: Double, _ b: Double, _ c: Double) -> Matrix3 { Matrix3([a, 0, 0, 0, b, 0, 0, 0, c]) }

    public subscript(r: Int, c: Int) -> Double { m[r * 3 + c] }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 { for c in 0..<3 { out[r * 3 + c] = a[r, 0] * b[0, c] + a[r, 1] * b[1, c] + a[r, 2] * b[2, c] } }
        return Matrix3(out)
    }
    public static func * (a: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            a[0, 0] * v.x + a[0, 1] * v.y + a[0, 2] * v.z,
            a[1, 0] * v.x + a[1, 1] * v.y + a[1, 2] * v.z,
            a[2, 0] * v.x + a[2, 1] * v.y + a[2, 2] * v.z)
    }
    public var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }
    public var inverse: Matrix3? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-15 else { return nil }
        let i = [
            (m[4] * m[8] - m[5] * m[7]), -(m[1] * m[8] - m[2] * m[7]), (m[1] * m[5] - m[2] * m[4]),
            -(m[3] * m[8] - m[5] * m[6]), (m[0] * m[8] - m[2] * m[6]), -(m[0] * m[5] - m[2] * m[3]),
            (m[3] * m[7] - m[4] * m[6]), -(m[0] * m[7] - m[1] * m[6]), (m[0] * m[4] - m[1] * m[3]),
        ]
        return Matrix3(i.map { $0 / det })
    }
    public var isIdentity: Bool { zip(m, Matrix3.identity.m).allSatisfy { abs($0 - $1) < 1e-12 } }
    public var description: String { "[" + m.map { String($0) }.joined(separator: " ") + "]" }

    /// The Bradford cone-response matrix, as lcms2 and the ICC use for chromatic adaptation.
    public static let bradford = Matrix3([0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296])

    /// Bradford adaptation from white `from` to white `to` (both XYZ with Y = 1).
    public static func bradfordAdaptation(from: SIMD3<Double>, to: SIMD3<Double>) -> Matrix3 {
        let b = bradford
        let bi = bradford.inverse!
        let s = b * from
        let d = b * to
        return bi * .diagonal(d.x / s.x, d.y / s.y, d.z / s.z) * b
    }
}
