// The end of every Bayer develop path, per pixel (SPEC X3): camera RGB through the highlight
// stage where the pixel is near clipping (the mosaic says which colours clipped), then the 3×3
// camera → working-space matrix. The paths differ in where their camera RGB comes from and
// whether it is white balanced yet; this is the one place that says what happens to it after.
import DaguerreCore

/// The highlight stage and the matrix of one develop, ready for its pixel loops.
///
/// Two entries, each the order of operations its pipeline versions pinned (X5):
/// - ``camera(_:x:y:rows:)`` takes camera RGB as linearized (bilinear, half size): the highlight
///   stage runs on it white balanced and hands it back unbalanced, for ``cameraMatrix``;
/// - ``balanced(_:x:y:rows:)`` takes white-balanced RGB (LMMSE-GW's output), for
///   ``balancedMatrix``, which carries the white balance's inverse.
///
/// ```swift
/// let px = PixelDevelop(settings: settings, layout: mosaic.layout)
/// var v = SIMD3(r, g, b)
/// if px.highlight?.mayBeClipped(v) == true { v = px.balanced(v, x: x, y: y, rows: rows) }
/// px.balancedMatrix.write(v.x, v.y, v.z, to: out)
/// ```
struct PixelDevelop: Sendable {
    let highlight: HighlightRecovery?
    /// Camera RGB → working RGB.
    let cameraMatrix: DevelopMatrix
    /// White-balanced camera RGB → working RGB (the camera matrix times the neutral).
    let balancedMatrix: DevelopMatrix
    /// The normalized camera neutral and its reciprocal, the white-balance gains.
    let neutral: SIMD3<Float>, gain: SIMD3<Float>
    /// Per CFA position, the code that counts as clipped; which colour each position is.
    let threshold: SIMD4<Int32>
    /// The lowest of `threshold`: a photosite below it is clipped at no CFA position.
    let lowestThreshold: Int32
    let colors: BayerPatternColors
    let height: Int

    init(settings s: DevelopSettings, layout m: MosaicLayout) {
        highlight = s.highlight
        cameraMatrix = DevelopMatrix(s.matrix)
        let n = s.balance
        balancedMatrix = DevelopMatrix(s.matrix * Matrix3.diagonal(n.x, n.y, n.z))
        (neutral, gain) = s.whiteBalance
        threshold = HighlightRecovery.thresholds(black: m.blackLevel, white: m.whiteLevel)
        lowestThreshold = threshold.min()
        colors = BayerPatternColors(m.pattern.cfaPattern)
        height = m.height
    }

    /// Which colours clipped within reach of photosite (x, y).
    @inline(__always) func clipped(x: Int, y: Int, rows: MosaicRows) -> SIMD3<Float> {
        HighlightRecovery.clippedColours(x: x, y: y, in: rows, height: height, threshold: threshold, colors: colors)
    }

    /// Camera RGB with its clipped colours rebuilt (the stage runs white balanced).
    @inline(__always) func camera(_ rgb: SIMD3<Float>, x: Int, y: Int, rows: MosaicRows) -> SIMD3<Float> {
        guard let hl = highlight else { return rgb }
        return hl.apply(rgb * gain, clipped: clipped(x: x, y: y, rows: rows)) * neutral
    }

    /// Whether a photosite within the highlight stage's reach of row `y`, columns
    /// `x0 ..< x0 + count`, is at a clip threshold. Where none is, every pixel of the segment
    /// has no clipped colour and the stage leaves it as it is (``HighlightRecovery/apply(_:clipped:)``),
    /// so its per-pixel look at the mosaic can be skipped: a Kodak photograph's bright sky is
    /// near the knee over whole rows without a single photosite at white.
    @inline(__always) func mayReachWhite(y: Int, x0: Int, count: Int, rows: MosaicRows) -> Bool {
        highlight != nil
            && HighlightRecovery.reachesWhite(y: y, x0: x0, count: count, in: rows, height: height, lowest: lowestThreshold)
    }

    /// White-balanced RGB with its clipped colours rebuilt.
    @inline(__always) func balanced(_ v: SIMD3<Float>, x: Int, y: Int, rows: MosaicRows) -> SIMD3<Float> {
        guard let hl = highlight else { return v }
        return hl.apply(v, clipped: clipped(x: x, y: y, rows: rows))
    }

    /// One white-balanced pixel to working RGB at `o`: through the highlight stage when it is
    /// near clipping, then the matrix.
    @inline(__always) func writeBalanced(
        _ r: Float, _ g: Float, _ b: Float, x: Int, y: Int, rows: MosaicRows, to o: UnsafeMutablePointer<Float>
    ) {
        var v = SIMD3(r, g, b)
        if let hl = highlight, hl.mayBeClipped(v) { v = hl.apply(v, clipped: clipped(x: x, y: y, rows: rows)) }
        balancedMatrix.write(v.x, v.y, v.z, to: o)
    }
}
