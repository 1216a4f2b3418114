// Draft mode's white balance, applied after the resample (SPEC X7: a draft re-render after a
// parameter change in well under 80 ms; X3: white balance, highlights, camera → working space).
// Everything a draft develop does before it (linearization, gain maps, the half-size or bilinear
// demosaic, lens warp, Lanczos scaling, orientation) is linear in camera RGB and does not depend
// on the white balance, so draft mode caches that at display size, and a white-balance change
// re-runs only these per-pixel stages on the cached pixels. Our own code, on the engine's kernels.
import DaguerreCore
import DaguerreImage

/// The white-balance-dependent end of a draft develop: the highlight stage, driven by the
/// resampled highlight inputs (``ClipMaskDecoder``), then the camera → working-space matrix.
///
/// The highlight stage is not linear, so running it after the resample needs the marked pixels
/// (those it rebuilds) apart from the rest. Under an output pixel's footprint, k is the weight
/// the marked pixels have in the resampled camera RGB `v` (the resampled flags' alpha), and `u`
/// their mean camera RGB (the triangle-resampled marked camera RGB, unpremultiplied); a colour
/// counts as clipped when more than half of k has it clipped. The pixel becomes
/// `v + k·(recovered(u) − u)`: the marked pixels' share replaced by their rebuilt value. This is
/// exact wherever the marked pixels under a footprint are alike: inside a clipped area, at an
/// isolated clipped pixel, and everywhere at the develop's own size, where k is 0 or 1. It
/// differs where unlike marked pixels share a footprint, at the edges of clipped areas: the
/// full develop rebuilds each before the resample mixes them.
///
/// ```swift
/// let developed = try DraftBalance(settings: settings).apply(camera: camera, highlights: (marked, flags))
/// ```
struct DraftBalance: Sendable {
    let settings: DevelopSettings

    /// The images arrive in the context's working space (their sources declare the develop's
    /// working space, so the engine has taken them through its matrix); they are brought back
    /// to the develop's terms first, and the result goes out through the same matrix. Every one
    /// of these steps is linear, and folds with the matrices beside it.
    func apply(camera: Image, highlights: (marked: Image, flags: Image)?) throws(DaguerreError) -> Image {
        let space = settings.workingSpace
        var image = camera.matchedFromWorkingSpace(to: space)
        if let highlight = settings.highlight, let highlights {
            let (neutral, gain) = settings.whiteBalance
            let kernel = ColorKernel(name: "rawDraftHighlights") { span in
                let pixels = span.pixels
                let marked = span.input(1)
                let flags = span.input(2)
                for i in 0..<span.count where flags[i].w > 1e-3 && marked[i].w > 1e-4 {
                    pixels[i] = Self.recover(
                        pixels[i], marked: marked[i], flags: flags[i], highlight: highlight, neutral: neutral, gain: gain)
                }
            }
            // The closure reads captured values; the arguments carry them into the digest.
            image = kernel.apply(
                extent: image.extent,
                arguments: [
                    .image(image), .image(highlights.marked.matchedFromWorkingSpace(to: space)),
                    .image(highlights.flags.matchedFromWorkingSpace(to: space)),
                    .vector([gain.x, gain.y, gain.z, neutral.x, neutral.y, neutral.z]),
                    .vector([highlight.saturation.x, highlight.saturation.y, highlight.saturation.z, highlight.amount]),
                ])
        }
        let m = settings.matrix.m
        image = try image.applying(ColorMatrix(r: [m[0], m[1], m[2], 0], g: [m[3], m[4], m[5], 0], b: [m[6], m[7], m[8], 0]))
        return image.matchedToWorkingSpace(from: space)
    }

    /// One pixel with marked pixels under its footprint: camera RGB `p` (alpha 1 inside the
    /// image), `marked` their premultiplied camera RGB (triangle weights), `flags` their clipped
    /// colours and weight (the camera RGB's Lanczos weights).
    @inline(__always) static func recover(
        _ p: SIMD4<Float>, marked: SIMD4<Float>, flags: SIMD4<Float>, highlight: HighlightRecovery,
        neutral: SIMD3<Float>, gain: SIMD3<Float>
    ) -> SIMD4<Float> {
        let k = flags.w
        let u = SIMD3(marked.x, marked.y, marked.z) / marked.w
        let half = 0.5 * k
        let clipped = SIMD3<Float>(flags.x > half ? 1 : 0, flags.y > half ? 1 : 0, flags.z > half ? 1 : 0)
        let recovered = highlight.apply(u * gain, clipped: clipped) * neutral
        let v = SIMD3(p.x, p.y, p.z)
        // k = 1: the rebuilt value itself (the undivided develop's, bit for bit at its own size).
        let out = k == 1 && v == u ? recovered : v + (recovered - u) * min(k, 1)
        return SIMD4(out.x, out.y, out.z, p.w)
    }
}
