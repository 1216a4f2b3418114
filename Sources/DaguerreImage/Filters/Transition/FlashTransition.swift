import DaguerreCore
import Foundation

/// Flashes from the image to the target image (CIFlashTransition): a flash of `color` grows from
/// `center` until it fills `extent`, then fades to reveal the target. Core Image publishes no
/// formula; this is the definition used (SPEC I4), on premultiplied working-space values.
/// With F = fadeThreshold and Rmax the distance from `center` to `extent`'s farthest corner:
/// - for time ≤ F the flash's radius is R = Rmax·time/F and out = image + (color − image)·A,
///   with A = 1 inside R and, for ρ = r/R between 1 and S = maxStriationRadius, the striations
///   A = clamp(w·(1 − strength·(1 − g)·(1 − w)), 0, 1), w = (S − ρ)/(S − 1), where
///   g = (½ + ½·cos 24θ)^contrast are 24 rays at the pixel's angle θ about `center`
///   (no striations when S ≤ 1);
/// - for time > F, out = color + (target − color)·(time − F)/(1 − F).
/// Time 0 gives the image and time 1 the target exactly. The result covers `extent`.
///
/// ```swift
/// let flash = try before.applying(FlashTransition(targetImage: after, time: 0.5))
/// ```
public struct FlashTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var center: [Double] = [150, 150]
    public var extent = Rect(x: 0, y: 0, width: 300, height: 300)
    public var color = Color(red: 1, green: 0.8, blue: 0.6, alpha: 1)
    public var time: Double = 0
    public var maxStriationRadius: Double = 2.58
    public var striationStrength: Double = 0.5
    public var striationContrast: Double = 1.375
    public var fadeThreshold: Double = 0.85

    /// How many rays the striations have.
    static let rays: Float = 24

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "FlashTransition", displayName: "Flash", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Grows a striated flash of colour from a point until it fills the extent, then fades it to the target image.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .position(\.center, "inputCenter", "Where the flash starts.", min: -1e7, max: 1e7),
            .rectangle(\.extent, "inputExtent", "The rectangle the flash fills, and the result's extent."),
            .color(\.color, "inputColor", "The flash's colour."),
            TransitionTime.parameter(\.time),
            .scalar(
                \.maxStriationRadius, "inputMaxStriationRadius", "How far the striations reach, in flash radii.", min: 0,
                sliderMax: 10),
            .scalar(\.striationStrength, "inputStriationStrength", "How much darker the gaps between rays are.", min: 0, sliderMax: 3),
            .scalar(
                \.striationContrast, "inputStriationContrast", "How narrow the rays are (the exponent on them).", min: 0,
                sliderMax: 5),
            .scalar(
                \.fadeThreshold, "inputFadeThreshold", "The time at which the flash fills the extent and starts to fade.", min: 0,
                max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        if time <= 0 { return image.cropped(to: extent) }
        if time >= 1 { return target.cropped(to: extent) }
        let flash = Image(color: color)
        let fade = time > fadeThreshold
        let corners = [(extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY)]
        let rmax = corners.map { hypot($0.0 - center[0], $0.1 - center[1]) }.max() ?? 0
        let (cx, cy) = (Float(center[0]), Float(center[1]))
        let radius = Float(rmax * time / fadeThreshold)
        let mix = Float(fade ? (time - fadeThreshold) / (1 - fadeThreshold) : 0)
        let (reach, strength, contrast) = (Float(maxStriationRadius), Float(striationStrength), Float(striationContrast))
        return Image(
            PointwiseNode(
                name: "flashTransition", inputs: [image.node, target.node, flash.node], extent: extent,
                parameters: "centre \(cx),\(cy) radius \(radius) fade \(fade) \(mix) striations \(reach) \(strength) \(contrast)",
                digest: { d in
                    for v in [cx, cy, radius, mix, reach, strength, contrast] { d.add(v) }
                    d.add(fade)
                }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                let c = span.input(2)
                if fade {
                    for i in 0..<span.count { s[i] = c[0] + (b[i] - c[0]) * mix }
                    return
                }
                let dy = Float(span.y) + 0.5 - cy
                for i in 0..<span.count {
                    let dx = Float(span.x + i) + 0.5 - cx
                    let rho = (dx * dx + dy * dy).squareRoot() / radius
                    var a: Float = 1
                    if rho > 1 {
                        guard reach > 1, rho < reach else { continue }
                        let w = (reach - rho) / (reach - 1)
                        let g = powf(0.5 + 0.5 * cosf(Self.rays * atan2f(dy, dx)), contrast)
                        a = min(1, max(0, w * (1 - strength * (1 - g) * (1 - w))))
                    }
                    s[i] += (c[0] - s[i]) * a
                }
            })
    }
}
