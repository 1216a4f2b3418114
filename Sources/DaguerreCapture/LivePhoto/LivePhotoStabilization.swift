// Stabilization of a Live Photo movie (SPEC L10): the picture's path (the sum of the
// frame-to-frame motions, measured from the frames) is smoothed by a Gaussian over a third of
// a second each side, and each frame's crop follows the smooth path within the buffer's
// margin. Frames cut by the trim are left out of the smoothing, so a pocket drop does not pull
// the last kept frames.
import Foundation

/// The crop offset of each movie frame.
///
/// ```swift
/// let s = LivePhotoStabilization(sigmaFrames: 3, margin: SIMD2(80, 60))
/// let offset = s.offset(of: 5, in: frames, kept: 0..<frames.count)   // pixels to move the crop by
/// ```
struct LivePhotoStabilization: Sendable {
    /// The Gaussian's standard deviation, in frames (3 at 15 fps: 0.2 s, so shake above about
    /// 1 Hz is removed).
    let sigmaFrames: Double
    /// How far the crop may move from the centre, in pixels of the buffered frames.
    let margin: SIMD2<Double>

    /// Frames of look-ahead a frame's offset needs.
    var lookahead: Int { Int((2 * sigmaFrames).rounded(.up)) }

    /// The offset of frame `i` of `frames`, smoothing over the `kept` frames (those known and
    /// not trimmed): the path's deviation from its smoothed self, clamped to the margin.
    func offset(of i: Int, in frames: [BufferedFrame], kept: Range<Int>) -> SIMD2<Double> {
        guard sigmaFrames > 0, kept.contains(i), frames.indices.contains(i) else { return .zero }
        let reach = lookahead
        var sum = SIMD2<Double>.zero
        var weight = 0.0
        for k in max(kept.lowerBound, i - reach)..<min(kept.upperBound, frames.count, i + reach + 1) {
            let d = Double(k - i) / sigmaFrames
            let w = exp(-0.5 * d * d)
            sum += frames[k].position * w
            weight += w
        }
        guard weight > 0 else { return .zero }
        let deviation = frames[i].position - sum / weight
        return SIMD2(min(max(deviation.x, -margin.x), margin.x), min(max(deviation.y, -margin.y), margin.y))
    }
}
