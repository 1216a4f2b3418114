// The power-2.5 demosaic domain's per-sample arithmetic (SPEC X2; pipeline version 4): the
// encode of the white-balanced mosaic before LMMSE-GW and, after it, the decode to linear light,
// the highlight test and the camera → working matrix, as plain loops of arithmetic that LLVM
// vectorizes (no tables: this CPU's gathers are slow, and Swift's checked conversions and calls
// keep loops scalar). Our own code.
import Foundation

/// y = x^0.4 and x = y^2.5 (negative and NaN inputs give 0), accurate to a few float ulps.
///
/// The encode is a fifth root squared: a first guess from the exponent bits (the float's bit
/// pattern is about 2^23·(log2 x + 127), so a fifth of it, re-biased, is about x^(1/5) within
/// 4 %), then two steps of Halley's method for z⁵ = x, each cubing the relative error
/// (4e-2 → 1e-4 → 1e-12), then z². The decode is y²·√y.
///
/// ```swift
/// let y = PowerDomain.encode(0.18)     // 0.5035…
/// PowerDomain.decode(y)                // 0.18 (within 1e-6 relative)
/// ```
enum PowerDomain {
    /// Inputs below this encode as 0 (their fifth root's guess would be a subnormal).
    static let smallest: Float = 1e-30

    @inline(__always) static func encode(_ x: Float) -> Float {
        // The fifth root's first guess: bits/5 + (127 − 127/5)·2^23.
        var z = Float(bitPattern: UInt32(bitPattern: Int32(bitPattern: x.bitPattern) / 5 &+ 852_282_573))
        var z5 = (z * z) * (z * z) * z
        z = z * (2 * z5 + 3 * x) / (3 * z5 + 2 * x)
        z5 = (z * z) * (z * z) * z
        z = z * (2 * z5 + 3 * x) / (3 * z5 + 2 * x)
        return x > smallest ? z * z : 0
    }

    @inline(__always) static func decode(_ y: Float) -> Float {
        let v = y > 0 ? y : 0
        return v * v * v.squareRoot()
    }

    /// `into[i] = encode(row[i] · gain)`, the gain alternating `first`, `second` (a mosaic row's
    /// two colours' white-balance gains).
    static func encodeRow(_ row: UnsafePointer<Float>, count: Int, first: Float, second: Float, into dst: UnsafeMutablePointer<Float>) {
        for i in 0..<count { dst[i] = encode(row[i] * (i & 1 == 0 ? first : second)) }
    }

    /// Decodes a developed row (planes r, g, b, in the domain), multiplies it by `matrix` into
    /// interleaved RGB `out`, marks in `flags` (1 byte a pixel) each pixel with a channel above
    /// `knee` (linear), which the highlight stage must then look at, and says whether any is.
    static func developRow(
        _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
        matrix: DevelopMatrix, knee: SIMD3<Float>, into out: UnsafeMutablePointer<Float>, flags: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let (kr, kg, kb) = (knee.x, knee.y, knee.z)
        var flagged: UInt8 = 0
        for i in 0..<count {
            let x = decode(r[i])
            let y = decode(g[i])
            let z = decode(b[i])
            let f: UInt8 = (x > kr ? 1 : 0) | (y > kg ? 1 : 0) | (z > kb ? 1 : 0)
            flags[i] = f
            flagged |= f
            matrix.write(x, y, z, to: out + 3 &* i)
        }
        return flagged != 0
    }

    /// Calls `body(i)` for each `i` in `0..<count` whose flag (from ``developRow``) is set,
    /// skipping eight clear flags at a time.
    @inline(__always) static func forEachFlagged(_ flags: UnsafePointer<UInt8>, count: Int, _ body: (Int) -> Void) {
        let words = UnsafeRawPointer(flags)
        var i = 0
        while i + 8 <= count {
            if words.loadUnaligned(fromByteOffset: i, as: UInt64.self) != 0 {
                for j in i..<(i + 8) where flags[j] != 0 { body(j) }
            }
            i += 8
        }
        for j in i..<max(i, count) where flags[j] != 0 { body(j) }
    }
}
