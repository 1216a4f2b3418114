// The camera's colour as a DNG describes it (DNG 1.4 §6, "Mapping Camera Color Space to CIE
// XYZ"; SPEC X3, W7): colour matrices for one or two calibration illuminants, interpolated by
// the white balance's temperature; the neutral that white balance makes grey; the matrix from
// camera RGB to XYZ D50 and on to the working space.
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import Foundation

/// A DNG's colour calibration, ready to answer "what matrix for this white balance?".
///
/// ```swift
/// let model = CameraColorModel(dng.color)
/// let white = model.whiteXY(forNeutral: [0.5, 1, 0.7])        // the shot's white, from AsShotNeutral
/// let toWorking = model.cameraToWorking(white: white, working: .extendedLinearSRGB)
/// ```
public struct CameraColorModel: Sendable {
    let calibration: RawColorCalibration

    public init(_ calibration: RawColorCalibration) { self.calibration = calibration }

    static let d50 = SIMD2<Double>(0.3457, 0.3585)

    /// The weight of calibration 1 at `temperature`: linear in reciprocal temperature between
    /// the two calibration illuminants, clamped outside them (DNG 1.4 §6).
    func weight1(temperature: Double) -> Double {
        guard let i2 = calibration.calibrationIlluminant2, let t2 = i2.temperature,
            let t1 = calibration.calibrationIlluminant1.temperature, t1 != t2
        else { return 1 }
        let g = (1 / temperature - 1 / t2) / (1 / t1 - 1 / t2)
        return min(max(g, 0), 1)
    }

    static func blend(_ a: [Double], _ b: [Double]?, _ g: Double) -> Matrix3 {
        guard let b, b.count == 9, a.count == 9 else { return Matrix3(a.count == 9 ? a : Matrix3.identity.m) }
        return Matrix3((0..<9).map { g * a[$0] + (1 - g) * b[$0] })
    }

    /// AnalogBalance × CameraCalibration (identity where absent).
    func cameraScale(_ g: Double) -> Matrix3 {
        let ab = calibration.analogBalance.map { $0.count == 3 ? Matrix3.diagonal($0[0], $0[1], $0[2]) : .identity } ?? .identity
        let cc: Matrix3
        if let c1 = calibration.cameraCalibration1, c1.count == 9 {
            cc = Self.blend(c1, calibration.cameraCalibration2, g)
        } else {
            cc = .identity
        }
        return ab * cc
    }

    /// XYZ → camera for a white of chromaticity `xy` (the interpolated ColorMatrix, with
    /// AnalogBalance and CameraCalibration).
    public func xyzToCamera(white xy: SIMD2<Double>) -> Matrix3 {
        let g = weight1(temperature: Self.temperature(of: xy))
        return cameraScale(g) * Self.blend(calibration.colorMatrix1, calibration.colorMatrix2, g)
    }

    /// The white chromaticity a camera neutral stands for, by the DNG spec's fixed-point
    /// iteration (the matrix depends on the temperature, which depends on the answer).
    public func whiteXY(forNeutral neutral: [Double]) -> SIMD2<Double> {
        guard neutral.count == 3, neutral.allSatisfy({ $0.isFinite && $0 > 0 }) else { return Self.d50 }
        var xy = Self.d50
        for _ in 0..<30 {
            guard let inv = xyzToCamera(white: xy).inverse else { break }
            let xyz = inv * SIMD3(neutral[0], neutral[1], neutral[2])
            let s = xyz.sum()
            guard s > 0, s.isFinite else { break }
            let next = SIMD2(xyz.x / s, xyz.y / s)
            if ((next - xy) * (next - xy)).sum() < 1e-14 {
                xy = next
                break
            }
            xy = next
        }
        return xy
    }

    /// Where a develop's default white comes from, in the order it is looked for.
    public enum WhiteSource: String, Sendable, Equatable {
        /// The shot's white, as the file records it (AsShotNeutral, AsShotWhiteXY, or the
        /// camera's as-shot multipliers through LibRaw).
        case asShot
        /// The camera's daylight multipliers (LibRaw's, from dcraw's table or its matrix): the
        /// file has no usable as-shot white.
        case daylight
        /// Neither: D65 through the camera's matrix (what LibRaw derives as daylight for a camera
        /// it has a matrix for, and a neutral for one in raw colour).
        case d65
        /// Guessed from the image, when asked (``RAWFilter/setNeutralFromImage()``); never a default.
        case image
    }

    /// Where ``asShotWhite`` comes from.
    public var asShotWhiteSource: WhiteSource {
        if Self.usable(calibration.asShotNeutral) != nil { return .asShot }
        if let w = calibration.asShotWhiteXY, w.count == 2, w.allSatisfy({ $0.isFinite && $0 > 0 }) { return .asShot }
        return Self.usable(calibration.daylightNeutral) != nil ? .daylight : .d65
    }

    /// The shot's white: AsShotNeutral, else AsShotWhiteXY, else the camera's daylight
    /// multipliers, else D65 (LibRaw's and dcraw's order; never a white that makes a cast of
    /// its own).
    public var asShotWhite: SIMD2<Double> {
        if let n = Self.usable(calibration.asShotNeutral) { return whiteXY(forNeutral: n) }
        if let w = calibration.asShotWhiteXY, w.count == 2, w.allSatisfy({ $0.isFinite && $0 > 0 }) { return SIMD2(w[0], w[1]) }
        if let n = Self.usable(calibration.daylightNeutral) { return whiteXY(forNeutral: n) }
        return Self.d65
    }

    static let d65 = SIMD2<Double>(0.3127, 0.3290)

    /// A neutral with three finite, positive values, else nil (LibRaw's "missing" multipliers,
    /// −1 or 0, never reach here as a neutral, but a file's own can be just as empty).
    static func usable(_ neutral: [Double]?) -> [Double]? {
        guard let neutral, neutral.count == 3, neutral.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        return neutral
    }

    /// Camera RGB (linearized, not white-balanced) → XYZ D50, white-balanced for a white of
    /// chromaticity `xy`: through the interpolated ForwardMatrix when the file has one, else the
    /// inverted ColorMatrix followed by a Bradford adaptation of the white to D50.
    public func cameraToXYZD50(white xy: SIMD2<Double>) -> Matrix3 {
        let g = weight1(temperature: Self.temperature(of: xy))
        let toCamera = xyzToCamera(white: xy)
        let neutral = toCamera * Primaries.xyz(xy)
        if let f1 = calibration.forwardMatrix1, f1.count == 9, let scaleInverse = cameraScale(g).inverse {
            let fm = Self.blend(f1, calibration.forwardMatrix2, g)
            let reference = scaleInverse * neutral
            let d = Matrix3.diagonal(1 / reference.x, 1 / reference.y, 1 / reference.z)
            return fm * d * scaleInverse
        }
        guard let inverse = toCamera.inverse else { return .identity }
        return Matrix3.bradfordAdaptation(from: Primaries.xyz(xy), to: Primaries.xyz(Self.d50)) * inverse
    }

    /// Camera RGB → linear RGB of `working` (an RGB colour space), white-balanced for `xy`.
    public func cameraToWorking(white xy: SIMD2<Double>, working: ColorSpace) -> Matrix3 {
        let toXYZ = working.rgbToXYZ ?? Primaries.srgb.rgbToXYZ
        let workingWhite = toXYZ * SIMD3<Double>(1, 1, 1)
        let adapt = Matrix3.bradfordAdaptation(from: Primaries.xyz(Self.d50), to: workingWhite / workingWhite.y)
        return (toXYZ.inverse ?? .identity) * adapt * cameraToXYZD50(white: xy)
    }

    /// The correlated colour temperature of a chromaticity (McCamy's approximation, clamped to
    /// 2000…50 000 K): only the interpolation weight depends on it.
    public static func temperature(of xy: SIMD2<Double>) -> Double {
        let n = (xy.x - 0.3320) / (0.1858 - xy.y)
        let t = 449 * n * n * n + 3525 * n * n + 6823.3 * n + 5520.33
        return min(max(t.isFinite ? t : 5000, 2000), 50_000)
    }
}
