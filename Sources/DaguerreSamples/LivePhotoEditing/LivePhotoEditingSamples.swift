// The seed's Live Photo edits (SPEC E3–E5; session 505), transcribed against
// LivePhotoEditingContext: a square crop, a crop that moves from bottom to top with time, an
// effect whose size in pixels scales with renderScale so that the photo and the video look the
// same, and a logo on the photo only. One function per edit; each sets the context's frame
// processor, as the seed's code does.
//
// The names are PhotoKit's without the PH prefix. Where Swift 6 and this package needed a
// different spelling:
//
//  1. `livePhotoContext.frameProcessor = { frame in ... }` for
//     `{ (frame, error) -> CIImage? in ... }`: the processor returns an `Image` or throws a
//     `DaguerreError`, where the seed filled an error pointer and returned nil.
//  2. `image.cropped(to:)` for `cropping(to:)`, `Rect` for `CGRect`, `frame.time.seconds` for
//     `CMTimeGetSeconds(frame.time)`, `applyingFilter(_:parameters:)` with `FilterValue`s for
//     `applyingFilter(_:withInputParameters:)`.
//  3. Coordinates are top-left, y down (ARCHITECTURE.md): "from bottom to top" is a crop whose
//     minY decreases with time, where Core Image's y-up origin.y increases.
//  4. Crop rectangles are rounded to whole pixels, so that every frame of the movie has the same
//     size.
import DaguerreCore
import DaguerreImage
import DaguerreLivePhoto

/// The seed's four Live Photo edits, each setting a context's frame processor.
///
/// ```swift
/// let livePhotoContext = try LivePhotoEditingContext(livePhotoEditingInput: input)
/// LivePhotoEditingSamples.applyMovingCrop(to: livePhotoContext)
/// try await livePhotoContext.saveLivePhoto(to: output)
/// ```
public enum LivePhotoEditingSamples {
    /// The edits by name, in the seed's order (what the `live-photo-samples` program runs).
    public static let names = ["square-crop", "moving-crop", "scaled-effect", "logo"]

    /// Sets the edit called `name` (one of ``names``) on `livePhotoContext`.
    public static func apply(_ name: String, to livePhotoContext: LivePhotoEditingContext, logo: Image? = nil) throws(DaguerreError) {
        switch name {
        case "square-crop": applySquareCrop(to: livePhotoContext)
        case "moving-crop": applyMovingCrop(to: livePhotoContext)
        case "scaled-effect": applyScaledEffect(to: livePhotoContext)
        case "logo":
            if let logo { applyLogo(logo, to: livePhotoContext) } else { applyLogo(try makeLogo(), to: livePhotoContext) }
        default:
            throw .invalidArgument(what: "Live Photo sample \(name)", problem: "is not one of \(names.joined(separator: ", "))")
        }
    }

    // MARK: A square crop

    /// "Let's start with a simple square crop": the largest centred square of every frame.
    public static func applySquareCrop(to livePhotoContext: LivePhotoEditingContext) {
        livePhotoContext.frameProcessor = { frame in
            var image = frame.image
            let extent = image.extent
            let size = min(extent.width, extent.height).rounded(.down)
            let rect = Rect(
                x: extent.minX + ((extent.width - size) / 2).rounded(.down), y: extent.minY + ((extent.height - size) / 2).rounded(.down),
                width: size, height: size)
            image = image.cropped(to: rect)
            return image
        }
    }

    // MARK: A crop that moves with time

    /// "The crop rect now moves from bottom to top": a square of `fraction` of the short side,
    /// at the bottom at the movie's start, centred at the photo's time (so the photo is cropped
    /// as the square crop would centre it), at the top at the end.
    public static func applyMovingCrop(to livePhotoContext: LivePhotoEditingContext, fraction: Double = 0.75) {
        // Read outside the processor, as the seed does, so the processor does not hold the context.
        let photoTime = livePhotoContext.photoTime.seconds
        let duration = livePhotoContext.duration.seconds
        livePhotoContext.frameProcessor = { frame in
            var image = frame.image
            let rect = movingCropRect(
                extent: image.extent, time: frame.time.seconds, photoTime: photoTime, duration: duration, fraction: fraction)
            image = image.cropped(to: rect)
            return image
        }
    }

    /// How far the moving crop has travelled at `time`: 0 at the start, ½ at the photo's time,
    /// 1 at the end, linear between.
    public static func movingCropProgress(time: Double, photoTime: Double, duration: Double) -> Double {
        let p =
            time < photoTime
            ? 0.5 * time / max(photoTime, 1e-9) : 0.5 + 0.5 * (time - photoTime) / max(duration - photoTime, 1e-9)
        return min(max(p, 0), 1)
    }

    /// The moving crop's rectangle in a frame of `extent` at `time`, in whole pixels.
    public static func movingCropRect(extent: Rect, time: Double, photoTime: Double, duration: Double, fraction: Double = 0.75) -> Rect {
        let side = (min(extent.width, extent.height) * min(max(fraction, 0), 1)).rounded(.down)
        let progress = movingCropProgress(time: time, photoTime: photoTime, duration: duration)
        let travel = (extent.height - side).rounded(.down)
        return Rect(
            x: extent.minX + ((extent.width - side) / 2).rounded(.down), y: extent.minY + (travel * (1 - progress)).rounded(),
            width: side, height: side)
    }

    // MARK: An effect scaled by renderScale

    /// "A resolution-dependent effect": a blur of `radius` pixels of the full-size still, scaled
    /// by the frame's renderScale, and a vignette placed by the frame's extent (the seed's second
    /// way, its inputCenter at the image's midpoint), so that the photo and every video frame
    /// look the same at their different sizes.
    public static func applyScaledEffect(to livePhotoContext: LivePhotoEditingContext, radius: Double = 20) {
        livePhotoContext.frameProcessor = { (frame) throws(DaguerreError) -> Image in
            try scaledEffect(frame.image, renderScale: frame.renderScale, radius: radius)
        }
    }

    /// The effect on one frame: ``applyScaledEffect(to:radius:)``'s blur and vignette.
    public static func scaledEffect(_ image: Image, renderScale: Double, radius: Double = 20) throws(DaguerreError) -> Image {
        let extent = image.extent
        // At one to one on the full-size photo the radius is `radius`; smaller on smaller frames.
        let blurred = try image.clampedToExtent()
            .applyingFilter("GaussianBlur", parameters: ["inputRadius": .number(radius * renderScale)])
            .cropped(to: extent)
        // A position taken from the extent scales by itself.
        let reach = (extent.width * extent.width + extent.height * extent.height).squareRoot() / 2
        let vignette = try RadialGradient(
            center: [extent.midX, extent.midY], radius0: reach * 0.5, radius1: reach, color0: .clear,
            color1: Color(red: 0, green: 0, blue: 0, alpha: 0.6)
        ).outputImage().cropped(to: extent)
        return try vignette.applyingFilter("SourceOverCompositing", parameters: ["inputBackgroundImage": .image(blurred)])
    }

    // MARK: A logo on the photo only

    /// "The logo actually disappears from the video": `logo` composited over the photo's
    /// bottom-right corner, `margin` pixels of the full-size still in (scaled with the logo by
    /// renderScale, for a preview); the video frames are left as they are.
    public static func applyLogo(_ logo: Image, to livePhotoContext: LivePhotoEditingContext, margin: Double = 32) {
        livePhotoContext.frameProcessor = { (frame) throws(DaguerreError) -> Image in
            var image = frame.image
            if frame.type == .photo {
                let placed = placeLogo(logo, in: image.extent, renderScale: frame.renderScale, margin: margin)
                image = try placed.applyingFilter("SourceOverCompositing", parameters: ["inputBackgroundImage": .image(image)])
            }
            return image
        }
    }

    /// `logo` scaled by `renderScale` and moved to the bottom-right corner of `extent`.
    public static func placeLogo(_ logo: Image, in extent: Rect, renderScale: Double, margin: Double = 32) -> Image {
        let scaled = renderScale == 1 ? logo : logo.transformed(by: AffineTransform2D(scaleX: renderScale, y: renderScale))
        let s = scaled.extent
        let x = (extent.maxX - margin * renderScale - s.width).rounded()
        let y = (extent.maxY - margin * renderScale - s.height).rounded()
        return scaled.transformed(by: AffineTransform2D(translationX: x - s.minX, y: y - s.minY))
    }

    /// A generated logo, standing in for an app's PNG (an `Image(contentsOf:)` does as well): a
    /// green disc of `diameter` pixels with a white centre, transparent around it.
    public static func makeLogo(diameter: Double = 256) throws(DaguerreError) -> Image {
        let r = diameter / 2
        let green = Color(red: 0.1, green: 0.8, blue: 0.2)
        let disc = try RadialGradient(
            center: [r, r], radius0: r - 1, radius1: r, color0: green, color1: Color(red: 0.1, green: 0.8, blue: 0.2, alpha: 0)
        ).outputImage()
        let centre = try RadialGradient(
            center: [r, r], radius0: r * 0.35 - 1, radius1: r * 0.35, color0: .white, color1: .clear
        ).outputImage()
        return centre.composited(over: disc).cropped(to: Rect(x: 0, y: 0, width: diameter, height: diameter))
    }
}
