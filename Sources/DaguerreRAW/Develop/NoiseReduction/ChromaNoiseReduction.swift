// Colour noise reduction (SPEC X3 "noise reduction: luminance and chroma";
// CIRAWFilter.colorNoiseReductionAmount): the chroma of the linear develop (each pixel minus its
// luminance) is replaced by a blurred chroma, while luminance and its detail are kept. Off by
// default: the noise research found that LMMSE-GW already cleans the colour differences and that
// extra chroma smoothing lowers the measured quality (REPORT finding 2), but blotchy colour noise
// at very high ISO is what this control is for. Our own code, on the engine's blur.
import DaguerreCore
import DaguerreImage

/// Chroma smoothing with a Gaussian of σ = 1 + 5·amount pixels (amount 0…1; 0 off).
///
/// ```swift
/// let calmer = try ChromaNoiseReduction.apply(to: developed, amount: 0.5)   // σ 3.5 px
/// ```
enum ChromaNoiseReduction {
    static func sigma(amount: Double) -> Double { 1 + 5 * amount }

    static let replaceChroma = ColorKernel(name: "rawChromaNoiseReduction") { ctx in
        let p = ctx.pixel(at: 0)
        let b = ctx.pixel(at: 1)
        let luma = Luma.rec709
        let yp = (p * luma).sum()
        let yb = (b * luma).sum()
        // p − chroma(p) + chroma(b) = b + (Y(p) − Y(b)) on each colour channel.
        return SIMD4(b.x + yp - yb, b.y + yp - yb, b.z + yp - yb, p.w)
    }

    static func apply(to image: Image, amount: Double) throws(DaguerreError) -> Image {
        guard amount > 0, !image.extent.isEmpty, !image.extent.isInfinite else { return image }
        let blurred = try image.clampedToExtent().applying(GaussianBlur(radius: sigma(amount: amount))).cropped(to: image.extent)
        return replaceChroma.apply(extent: image.extent, arguments: [.image(image), .image(blurred)])
    }
}
