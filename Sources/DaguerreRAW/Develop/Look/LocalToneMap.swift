// Local tone mapping (SPEC X3 "tone … shadows and highlights"; CIRAWFilter.localToneMapAmount):
// the base layer of log luminance is compressed around mid grey while the detail on top of it
// is kept (Durand and Dorsey's decomposition). The base is computed small and brought back to
// full size under the image's own edges (EdgePreserveUpsample), so large regions are evened out
// without halos at their borders, at the cost of a 1/16-size blur. Our own code, on the engine.
import DaguerreCore
import DaguerreImage
import Foundation

/// Compresses large-scale brightness differences by `amount` (0 off, 1 halves them in stops).
///
/// ```swift
/// let evened = try LocalToneMap.apply(to: developed, amount: 0.6)
/// ```
enum LocalToneMap {
    /// The base layer's blur, as a fraction of the long edge.
    static let baseRadius = 0.02
    static let shrink = 16.0

    static let logLuminance = ColorKernel(name: "rawLogLuminance") { ctx in
        let p = ctx.pixel(at: 0)
        let w = Luma.rec709
        let l = log2(max(w.x * p.x + w.y * p.y + w.z * p.z, 1e-4))
        return SIMD4(l, l, l, 1)
    }
    static let compress = ColorKernel(name: "rawLocalToneMap") { ctx in
        let p = ctx.pixel(at: 0)
        let base = ctx.pixel(at: 1).x
        let amount = ctx.values.float(at: 2)
        // Stops of the base away from mid grey (log2 0.18 = −2.474), halved at amount 1.
        let gain = exp2(min(max(-0.5 * amount * (base + 2.474), -3), 3))
        return SIMD4(p.x * gain, p.y * gain, p.z * gain, p.w)
    }

    static func apply(to image: Image, amount: Double) throws(DaguerreError) -> Image {
        guard amount != 0 else { return image }
        let e = image.extent
        guard !e.isEmpty, !e.isInfinite else { return image }
        let log = logLuminance.apply(extent: e, arguments: [.image(image)])
        let small = log.transformed(by: AffineTransform2D(scaleX: 1 / shrink, y: 1 / shrink))
        let sigma = max(baseRadius * max(e.width, e.height) / shrink, 0.5)
        let blurred = try small.clampedToExtent().applying(GaussianBlur(radius: sigma)).cropped(to: small.extent)
        let base = try image.applying(EdgePreserveUpsample(smallImage: blurred, spatialSigma: 2, lumaSigma: 0.2))
        return compress.apply(extent: e, arguments: [.image(image), .image(base), .float(Float(amount))])
    }
}
