// Spectral colorimetry of the virtual camera: what XYZ a surface has under a light, and what the
// simulated sensor's three channels see of it (SPEC C4, W1, W7). The sensitivities are a real
// camera's (NPL's measurements of a Nikon D5100), so the camera is not colorimetric: its colour
// matrices depend on the light, as DNG's ColorMatrix1/2 pair expects.
import DaguerreCore

/// Sums over the 31 spectral samples (400–700 nm, 10 nm steps).
///
/// ```swift
/// let grey = Colorimetry.flat.map { $0 * 0.18 }
/// let seen = Colorimetry.cameraResponse(ofReflectance: grey, under: .tungsten)   // red-heavy
/// let xyz = Colorimetry.xyz(ofReflectance: grey, under: .d65)                  // Y = 0.18
/// ```
public enum Colorimetry {
    /// A 100% reflector.
    public static let flat = [Double](repeating: 1, count: SpectralTables.wavelengths.count)

    /// The 24 ColorChecker reflectance spectra (BabelColor average), in chart order: the
    /// studio scene's truth, for measuring any developer against it.
    public static var colorChecker: [[Double]] { SpectralTables.colorChecker }

    /// XYZ of a reflectance under `illuminant`, scaled so that the white reflector has Y = 1.
    public static func xyz(ofReflectance r: [Double], under illuminant: Illuminant) -> SIMD3<Double> {
        let s = illuminant.spectrum
        var v = SIMD3<Double>.zero
        var white = 0.0
        for i in 0..<s.count {
            let e = r[i] * s[i]
            v += SIMD3(e * SpectralTables.cie1931X[i], e * SpectralTables.cie1931Y[i], e * SpectralTables.cie1931Z[i])
            white += s[i] * SpectralTables.cie1931Y[i]
        }
        return v / white
    }

    /// The camera's raw red, green and blue response to a reflectance lit by 1 lux of
    /// `illuminant`, in units where the green channel sees the white reflector under D65 as 1.
    /// Multiply by lux, exposure time and the sensor's electrons per lux-second.
    public static func cameraResponse(ofReflectance r: [Double], under illuminant: Illuminant) -> SIMD3<Double> {
        let s = illuminant.spectrum
        var v = SIMD3<Double>.zero
        for i in 0..<s.count {
            let e = r[i] * s[i]
            v += SIMD3(e * SpectralTables.cameraRed[i], e * SpectralTables.cameraGreen[i], e * SpectralTables.cameraBlue[i])
        }
        return v / greenD65
    }

    /// The camera's raw response to light of spectral power `spectrum` (relative units).
    public static func cameraResponse(ofLight spectrum: [Double]) -> SIMD3<Double> {
        var v = SIMD3<Double>.zero
        for i in 0..<spectrum.count {
            v += SIMD3(
                spectrum[i] * SpectralTables.cameraRed[i], spectrum[i] * SpectralTables.cameraGreen[i],
                spectrum[i] * SpectralTables.cameraBlue[i])
        }
        return v
    }

    /// The green channel's response to the white reflector under 1 lux of D65 (the unit above).
    static let greenD65: Double = {
        let s = Illuminant.d65.spectrum
        return (0..<s.count).reduce(0) { $0 + s[$1] * SpectralTables.cameraGreen[$1] }
    }()

    /// The camera's response under `illuminant` to a scene pixel given as linear sRGB
    /// reflectance: the pixel is lifted to a spectrum through three smooth basis reflectances
    /// (summing to flat, so greys stay spectrally flat), which makes this a 3×3 matrix.
    public static func cameraMatrix(forLinearSRGBUnder illuminant: Illuminant) -> Matrix3 {
        let bases = [SpectralTables.basisRed, SpectralTables.basisGreen, SpectralTables.basisBlue].map {
            cameraResponse(ofReflectance: $0, under: illuminant)
        }
        return Matrix3([bases[0].x, bases[1].x, bases[2].x, bases[0].y, bases[1].y, bases[2].y, bases[0].z, bases[1].z, bases[2].z])
    }

    /// The camera's white balance under `illuminant`: its raw response to the white reflector.
    /// Dividing by it (normalized to green) makes neutral surfaces neutral.
    public static func cameraNeutral(under illuminant: Illuminant) -> SIMD3<Double> {
        cameraResponse(ofReflectance: flat, under: illuminant)
    }

    /// The 3×3 matrix from white-balanced camera RGB to XYZ (D65-adapted, white Y = 1) that best
    /// fits the 24 ColorChecker patches lit by `illuminant`, by least squares, its rows then
    /// scaled so white maps exactly to D65 white. This is what a DNG's ForwardMatrix (to D50) and ColorMatrix encode, and
    /// what a simple reference rendering uses.
    public static func cameraToXYZ(under illuminant: Illuminant) -> Matrix3 {
        let neutral = cameraNeutral(under: illuminant)
        // Rows: balanced camera RGB; targets: XYZ under the light, adapted to D65 (Bradford).
        let adapt = Matrix3.bradfordAdaptation(from: illuminant.whiteXYZ, to: Illuminant.d65.whiteXYZ)
        var ata = [Double](repeating: 0, count: 9)
        var atb = [Double](repeating: 0, count: 9)
        for patch in SpectralTables.colorChecker {
            let c = cameraResponse(ofReflectance: patch, under: illuminant) / neutral
            let t = adapt * xyz(ofReflectance: patch, under: illuminant)
            let cv = [c.x, c.y, c.z]
            let tv = [t.x, t.y, t.z]
            for i in 0..<3 {
                for j in 0..<3 {
                    ata[i * 3 + j] += cv[i] * cv[j]
                    atb[i * 3 + j] += cv[i] * tv[j]
                }
            }
        }
        // Normal equations solved per output row: M^T = (AᵀA)⁻¹ AᵀB.
        guard let inv = Matrix3(ata).inverse else { return .identity }
        let mt = inv * Matrix3(atb)
        var m = Matrix3([mt[0, 0], mt[1, 0], mt[2, 0], mt[0, 1], mt[1, 1], mt[2, 1], mt[0, 2], mt[1, 2], mt[2, 2]])
        // Hold white exact: balanced white (1, 1, 1) must map to D65 white; scale each row.
        let w = m * SIMD3<Double>(1, 1, 1)
        let target = Illuminant.d65.whiteXYZ
        m = Matrix3.diagonal(target.x / w.x, target.y / w.y, target.z / w.z) * m
        return m
    }
}
