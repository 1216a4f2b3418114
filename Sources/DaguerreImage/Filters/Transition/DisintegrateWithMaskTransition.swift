import DaguerreCore
import Foundation

/// The image falls apart in the order a mask gives, revealing the target under the shadow of
/// the pieces still there (CIDisintegrateWithMaskTransition; SPEC I4). Core Image publishes no
/// formula; this is the definition used. With m the mask's Rec. 709 luminance on its linear
/// values, clamped to [0, 1] (0 outside the mask), a pixel is gone at time t when m < t: dark
/// parts of the mask go first, white ones last. The pieces still there (m ≥ t) cast a shadow:
/// their coverage blurred by a Gaussian of standard deviation `shadowRadius` (as ``GaussianBlur``),
/// moved by `shadowOffset` in Core Image's y-up sense (the default (0, −10) falls 10 pixels
/// below), times `shadowDensity`. A gone pixel shows the target with its colour darkened by that
/// shadow s, (r, g, b)·(1 − s) with alpha kept; a pixel still there shows the image. Time 0
/// gives the image and time 1 the target exactly; the result covers both images.
///
/// ```swift
/// let crumbling = try before.applying(DisintegrateWithMaskTransition(targetImage: after, maskImage: noise, time: 0.5))
/// ```
public struct DisintegrateWithMaskTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var maskImage: Image?
    public var time: Double = 0
    public var shadowRadius: Double = 8
    public var shadowDensity: Double = 0.65
    public var shadowOffset: [Double] = [0, -10]

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, maskImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.maskImage = maskImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DisintegrateWithMaskTransition", displayName: "Disintegrate With Mask",
        categories: [.transition, .video, .stillImage, .builtIn],
        description: "The image falls apart where the mask is dark first, revealing the target under the pieces' shadow.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .image(\.maskImage, "inputMaskImage", "A greyscale mask: where it is darker the image goes sooner."),
            TransitionTime.parameter(\.time),
            .scalar(
                \.shadowRadius, "inputShadowRadius", "The shadow's blur (standard deviation) in pixels.", min: 0, max: 1000, sliderMax: 50),
            .scalar(\.shadowDensity, "inputShadowDensity", "How dark the shadow is.", min: 0, max: 1),
            .offset(\.shadowOffset, "inputShadowOffset", "How far the shadow falls from the pieces (x right, y up).", min: -1e6, max: 1e6),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target, mask) = (try required(\.inputImage), try required(\.targetImage), try required(\.maskImage))
        if time <= 0 { return image }
        if time >= 1 { return target }
        let t = Float(time)
        let density = Float(shadowDensity)
        let pieces = Image(
            PointwiseNode(
                name: "disintegratePieces", inputs: [mask.node], extent: mask.extent, parameters: "time \(t)",
                digest: { $0.add(Double(t)) }
            ) { span in
                let s = span.pixels
                for i in 0..<span.count { s[i] = Self.level(s[i]) >= t ? SIMD4(repeating: 1) : .zero }
            })
        let blurred = shadowRadius > 0 ? try GaussianBlur(inputImage: pieces, radius: shadowRadius).outputImage() : pieces
        let shadow = blurred.transformed(by: AffineTransform2D(translationX: shadowOffset[0], y: -shadowOffset[1]))
        return Image(
            PointwiseNode(
                name: "disintegrateWithMaskTransition", inputs: [image.node, target.node, mask.node, shadow.node],
                extent: TransitionTime.extent(image, target), parameters: "time \(t) density \(density)",
                digest: { d in
                    d.add(Double(t))
                    d.add(Double(density))
                }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                let m = span.input(2)
                let shade = span.input(3)
                for i in 0..<span.count where Self.level(m[i]) < t {
                    let k = 1 - density * shade[i].x
                    s[i] = b[i] * SIMD4(k, k, k, 1)
                }
            })
    }

    /// The mask's value at a pixel: its Rec. 709 luminance, clamped to [0, 1].
    @inline(__always) static func level(_ v: SIMD4<Float>) -> Float {
        min(max(SpanMath.luminance(SIMD4(v.x, v.y, v.z, 0)), 0), 1)
    }
}
