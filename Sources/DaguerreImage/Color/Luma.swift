// Luminance weights of the default working space (linear light, sRGB / Rec. 709 primaries): the
// Y row of its RGB → XYZ matrix, rounded as ITU-R BT.709 gives them. One definition for the
// engine's colour filters and for the modules that build on it (the RAW develop's chroma noise
// reduction, sharpening and local tone mapping).
import DaguerreCore

/// Weights that turn linear working-space RGB into luminance.
///
/// ```swift
/// let y = (pixel * Luma.rec709).sum()   // alpha's weight is 0
/// ```
public enum Luma {
    /// Rec. 709 / sRGB luminance weights, with 0 for alpha.
    public static let rec709 = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)
}
