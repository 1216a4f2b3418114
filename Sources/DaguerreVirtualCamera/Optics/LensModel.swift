// The lens of a virtual camera (SPEC C4: vignetting, lens blur, mild distortion).
import Foundation

/// A simple lens: radial falloff, a Gaussian point-spread function and one radial distortion
/// term, all in the sensor's full-resolution pixels.
///
/// ```swift
/// var lens = LensModel.backCamera
/// lens.blurSigmaPixels = 1.5      // a softer lens
/// ```
public struct LensModel: Sendable, Equatable {
    /// Relative illumination lost at the corner of the field (0.35: the corner gets 65%),
    /// following a cos⁴-like r² falloff.
    public var vignetting: Double
    /// The point-spread function's standard deviation in full-resolution pixels.
    public var blurSigmaPixels: Double
    /// Radial distortion k1 on the normalized radius (negative: barrel).
    public var distortionK1: Double
    /// Focal length in millimetres and its 35 mm equivalent (EXIF).
    public var focalLength: Double
    public var focalLengthIn35mm: Double
    /// Whether optical image stabilization is fitted, and the share of hand shake it removes.
    public var hasStabilization: Bool
    public var stabilizationReduction: Double

    public static let backCamera = LensModel(
        vignetting: 0.35, blurSigmaPixels: 0.7, distortionK1: -0.015, focalLength: 3.99,
        focalLengthIn35mm: 28, hasStabilization: true, stabilizationReduction: 0.75)
    public static let frontCamera = LensModel(
        vignetting: 0.3, blurSigmaPixels: 0.8, distortionK1: -0.02, focalLength: 2.87,
        focalLengthIn35mm: 32, hasStabilization: false, stabilizationReduction: 0)
    /// A 23 mm f/2.8 prime on APS-C (35 mm equivalent), for the X-Trans camera.
    public static let xTransCamera = LensModel(
        vignetting: 0.25, blurSigmaPixels: 0.8, distortionK1: -0.01, focalLength: 23,
        focalLengthIn35mm: 35, hasStabilization: false, stabilizationReduction: 0)

    /// Where the lens images the field point at normalized radius-vector `p` (centre 0,
    /// corners at radius 1): barrel distortion pulls points inward.
    func distort(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let r2 = (p * p).sum()
        return p * (1 + distortionK1 * r2)
    }

    /// Relative illumination at normalized radius² `r2`.
    func illumination(r2: Double) -> Double { 1 - vignetting * r2 }
}
