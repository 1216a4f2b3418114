// The sRGB transfer curve as tables, for demosaicking in the encoded domain (LMMSE-GW) and
// decoding back to linear light: an exact per-code table on the way in, and an interpolated
// table on the way out (exact formula beyond its range), because the pixel loops cannot afford
// a `pow` per sample.
import DaguerreCore
import Foundation

enum SRGBCurve {
    static func encode(_ x: Double) -> Double { TransferFunction.sRGB.encode(x) }
    static func decode(_ y: Double) -> Double { TransferFunction.sRGB.decode(y) }

    /// Linear light from encoded values in 0...1.5 by linear interpolation in 65 536 steps
    /// (relative error below 1e-6 above black); negative values decode as 0.
    static let decodeTable: [Float] = (0...65536).map { Float(decode(Double($0) / 65536 * 1.5)) }

    /// Encoded values from linear light in 0...1.5 by linear interpolation in 65 536 steps
    /// (absolute error below 2e-7); negative values encode as 0. For mosaics that are already
    /// floats (after noise reduction), where the per-code tables do not apply.
    static let encodeTable: [Float] = (0...65536).map { Float(encode(Double($0) / 65536 * 1.5)) }

    @inline(__always) static func encodeFast(_ x: Float, _ table: UnsafePointer<Float>) -> Float { lookup(x, table, beyond: encode) }

    @inline(__always) static func decodeFast(_ y: Float, _ table: UnsafePointer<Float>) -> Float { lookup(y, table, beyond: decode) }

    /// Either table at `v`: 0 at or below 0 (and for NaN), linear interpolation up to 1.5, the
    /// exact curve `beyond` above.
    @inline(__always) private static func lookup(_ v: Float, _ table: UnsafePointer<Float>, beyond exact: (Double) -> Double) -> Float {
        guard v > 0 else { return 0 }
        guard v < 1.5 else { return Float(exact(Double(v))) }
        let t = v * (65536 / 1.5)
        let i = Int(t)
        let fr = t - Float(i)
        return table[i] + fr * (table[i + 1] - table[i])
    }
}
