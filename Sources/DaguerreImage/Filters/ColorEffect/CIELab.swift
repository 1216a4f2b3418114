import DaguerreCore
import Foundation

/// CIE 1976 L*a*b* and the CIE 1994 colour difference, as ConvertRGBtoLab, ConvertLabToRGB and
/// LabDeltaE use them (SPEC I4): from the working space's linear values (sRGB primaries) to
/// XYZ and on to L*a*b* relative to the working space's own white, D65, with the CIE's
/// ε = 216/24389 and κ = 24389/27. Values are in Float; L runs from 0 to 100.
///
/// ```swift
/// let lab = CIELab.lab(SIMD3(0.2, 0.3, 0.4))   // L*, a*, b*
/// ```
enum CIELab {
    static let toXYZ = matrix(Primaries.srgb.rgbToXYZ)
    static let fromXYZ = matrix(Primaries.srgb.rgbToXYZ.inverse ?? .identity)
    static let white = SIMD3<Float>(Primaries.xyz(Primaries.d65))
    static let epsilon: Float = 216 / 24389
    static let kappa: Float = 24389 / 27

    /// A 3×3 matrix as its three rows.
    static func matrix(_ m: Matrix3) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        (
            SIMD3(Float(m[0, 0]), Float(m[0, 1]), Float(m[0, 2])), SIMD3(Float(m[1, 0]), Float(m[1, 1]), Float(m[1, 2])),
            SIMD3(Float(m[2, 0]), Float(m[2, 1]), Float(m[2, 2]))
        )
    }

    @inline(__always) static func apply(_ m: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>), _ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((m.0 * v).sum(), (m.1 * v).sum(), (m.2 * v).sum())
    }

    /// L*a*b* of a linear working-space colour (not premultiplied).
    @inline(__always) static func lab(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        let t = apply(toXYZ, rgb) / white
        @inline(__always) func f(_ t: Float) -> Float { t > epsilon ? cbrtf(t) : (kappa * t + 16) / 116 }
        let (fx, fy, fz) = (f(t.x), f(t.y), f(t.z))
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// The linear working-space colour of L*a*b* values.
    @inline(__always) static func rgb(_ lab: SIMD3<Float>) -> SIMD3<Float> {
        let fy = (lab.x + 16) / 116
        let fx = fy + lab.y / 500
        let fz = fy - lab.z / 200
        @inline(__always) func inverse(_ f: Float) -> Float {
            let cube = f * f * f
            return cube > epsilon ? cube : (116 * f - 16) / kappa
        }
        let y = lab.x > kappa * epsilon ? fy * fy * fy : lab.x / kappa
        return apply(fromXYZ, SIMD3(inverse(fx), y, inverse(fz)) * white)
    }

    /// Where an unpremultiplied colour sits when colours are compared (Palettize, KMeans,
    /// PaletteCentroid): its linear RGB, or with `perceptual` its L*a*b*.
    @inline(__always) static func place(_ v: SIMD4<Float>, perceptual: Bool) -> SIMD3<Float> {
        let rgb = SIMD3(v.x, v.y, v.z)
        return perceptual ? lab(rgb) : rgb
    }

    /// ΔE*94 (graphic arts: kL = kC = kH = 1, K1 = 0.045, K2 = 0.015) of `sample` from `reference`.
    @inline(__always) static func deltaE94(_ reference: SIMD3<Float>, _ sample: SIMD3<Float>) -> Float {
        let d = reference - sample
        let c1 = (reference.y * reference.y + reference.z * reference.z).squareRoot()
        let c2 = (sample.y * sample.y + sample.z * sample.z).squareRoot()
        let dc = c1 - c2
        let dh2 = max(0, d.y * d.y + d.z * d.z - dc * dc)
        let sc = 1 + 0.045 * c1
        let sh = 1 + 0.015 * c1
        return (d.x * d.x + (dc / sc) * (dc / sc) + dh2 / (sh * sh)).squareRoot()
    }
}
