import DaguerreCore
import Foundation

/// A circular wave runs out from `center`, leaving the target image in its wake
/// (CIRippleTransition; SPEC I4). Core Image publishes no formula; this is the definition used.
/// With Rmax the distance from `center` to `extent`'s farthest corner and w = `width`, the
/// wave's front has radius R = t·(Rmax + w) at time t. A pixel centre p at distance d from the
/// centre shows the image ahead of the wave (d ≥ R), the target behind it (d < R − w), and inside
/// it, at u = (R − d)/w, the two refracted by the wave: both are sampled (bilinearly) at
/// q = p + r̂·`scale`·sin(πu), r̂ the unit vector from the centre, and mixed as
/// image + (target − image)·u. The wave's light is added to that colour: the shading image (a
/// shaded sphere) is read at its extent's centre plus r̂·cos(πu)·(half its smaller side), as the
/// wave's slope tilts towards the light, and its premultiplied colour times sin(πu) is added to
/// red, green and blue (an infinite shading image is read around the origin, `width` wide; a
/// transparent one adds no light). Time 0 gives the image and time 1 the target exactly; the result covers `extent` where
/// it meets the images.
///
/// ```swift
/// let rippled = try before.applying(RippleTransition(targetImage: after, time: 0.4))
/// ```
public struct RippleTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var shadingImage: Image?
    public var center: [Double] = [150, 150]
    public var extent = Rect(x: 0, y: 0, width: 300, height: 300)
    public var time: Double = 0
    public var width: Double = 100
    public var scale: Double = 50

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "RippleTransition", displayName: "Ripple", categories: [.transition, .video, .stillImage, .builtIn],
        description: "A circular wave runs out from the centre, leaving the target image behind it.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .image(\.shadingImage, "inputShadingImage", "A shaded sphere that lights the wave (transparent: no light)."),
            .position(\.center, "inputCenter", "Where the wave starts.", min: -1e7, max: 1e7),
            .rectangle(\.extent, "inputExtent", "The rectangle the wave crosses, and the result's extent."),
            TransitionTime.parameter(\.time),
            .scalar(\.width, "inputWidth", "The wave's width in pixels.", min: 1, max: 1e6, sliderMax: 300),
            .scalar(\.scale, "inputScale", "How far the wave moves what it carries, in pixels.", min: -50, max: 1e4, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target, shading) = (try required(\.inputImage), try required(\.targetImage), try required(\.shadingImage))
        if time <= 0 { return image.cropped(to: extent) }
        if time >= 1 { return target.cropped(to: extent) }
        let c = SIMD2(center[0], center[1])
        let w = width
        let front = time * (Warp.farthest(extent, from: c) + w)
        let strength = scale
        let light = Self.lightDisc(shading.extent, width: w)
        let reach = abs(strength) + 2
        let inputs = [image.node, target.node, shading.node]
        let parameters = [c.x, c.y, w, front, strength, light.center.x, light.center.y, light.radius]
        let node = SamplingNode(
            name: "rippleTransition", inputs: inputs, extent: extent.intersection(TransitionTime.extent(image, target)),
            parameters: parameters.map { String(format: "%.6g", $0) }.joined(separator: " "), outputFormat: nil,
            digest: { d in d.add(parameters) },
            roi: { i, rect in
                if i == 2 { return Warp.disc(light.center, light.radius + 2) }
                return rect.insetBy(dx: -reach, dy: -reach)
            }
        ) { samplers, dest in
            let p = SIMD2(Double(dest.x), Double(dest.y))
            let offset = p - c
            let d = (offset * offset).sum().squareRoot()
            if d >= front { return samplers[0].sample(dest) }
            if d < front - w { return samplers[1].sample(dest) }
            let u = (front - d) / w
            let direction = d > 0 ? offset / d : .zero
            let q = p + direction * (strength * sin(Double.pi * u))
            let qf = SIMD2<Float>(Float(q.x), Float(q.y))
            let a = samplers[0].sample(qf)
            let mixed = a + (samplers[1].sample(qf) - a) * Float(u)
            let at = light.center + direction * (cos(Double.pi * u) * light.radius)
            let shade = samplers[2].sample(SIMD2(Float(at.x), Float(at.y)))
            return mixed + SIMD4(shade.x, shade.y, shade.z, 0) * Float(sin(Double.pi * u))
        }
        return Image(node)
    }

    /// Where the wave's light is read: the shading image's centre and half its smaller side, or
    /// around the origin, `width` wide, for an image with no finite extent.
    static func lightDisc(_ e: Rect, width: Double) -> (center: SIMD2<Double>, radius: Double) {
        guard !e.isInfinite, !e.isEmpty else { return (.zero, width / 2) }
        return (SIMD2(e.midX, e.midY), min(e.width, e.height) / 2)
    }
}
