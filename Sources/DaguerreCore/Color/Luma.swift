// Luminance weights of the default working space (linear light, sRGB / Rec. 709 primaries): the
// Y row of its RGB → XYZ matrix, as ITU-R BT.709 rounds it (``YCbCrMatrix/bt709``). One
// definition for the engine's colour filters and for the modules that build on it (the RAW
// develop's chroma noise reduction, sharpening and local tone mapping, the video path).

/// Weights that turn linear working-space RGB into luminance.
///
/// ```swift
/// let y = (pixel * Luma.rec709).sum()   // alpha's weight is 0
/// ```
public enum Luma {
    /// Rec. 709 / sRGB luminance weights, with 0 for alpha.
    public static let rec709 = SIMD4<Float>(Float(YCbCrMatrix.bt709.kr), Float(YCbCrMatrix.bt709.kg), Float(YCbCrMatrix.bt709.kb), 0)
}
