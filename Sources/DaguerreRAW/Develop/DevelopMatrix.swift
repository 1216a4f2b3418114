// The 3×3 matrix every develop path ends with (SPEC X3: camera → working space, the white
// balance folded in), as nine scalars: the row loops that LLVM vectorizes keep them in
// registers, and every path multiplies in the same order, so they agree bit for bit. Our own code.
import DaguerreCore

/// A row-major 3×3 matrix in `Float`, applied to one pixel into interleaved RGB.
///
/// ```swift
/// let m = DevelopMatrix(settings.matrix)
/// m.write(red, green, blue, to: row + 3 * x)     // row[3x] = k0·r + k1·g + k2·b, …
/// ```
struct DevelopMatrix: Sendable {
    let k0, k1, k2, k3, k4, k5, k6, k7, k8: Float

    init(_ m: Matrix3) {
        let k = m.m.map(Float.init)
        (k0, k1, k2, k3, k4, k5, k6, k7, k8) = (k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8])
    }

    @inline(__always) func write(_ r: Float, _ g: Float, _ b: Float, to o: UnsafeMutablePointer<Float>) {
        o[0] = k0 * r + k1 * g + k2 * b
        o[1] = k3 * r + k4 * g + k5 * b
        o[2] = k6 * r + k7 * g + k8 * b
    }
}
