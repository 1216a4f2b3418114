import DaguerreCore

/// Smooths (and, given a smaller image, upsamples) an image while keeping a guide image's edges:
/// the guided filter of He, Sun and Tang (CIGuidedFilter; SPEC I4). The image p is first
/// resampled bilinearly to the guide's extent if it differs (an infinite one is cropped to it). With I the guide's Rec. 709
/// luminance (unpremultiplied, linear), means m(·) over (2r + 1)² windows (r = `radius` rounded;
/// edge pixels repeated outward) and ε = `epsilon`, each component of p is fitted locally as
/// a·I + b: a = (m(I·p) − m(I)·m(p)) / (m(I²) − m(I)² + ε), b = m(p) − a·m(I), and the result is
/// m(a)·I + m(b). Small ε keeps the guide's edges, large ε smooths like a box blur. Extent: the
/// guide's, which must be finite.
///
/// ```swift
/// let mask = try coarseMask.applying(GuidedFilter(guideImage: photo, radius: 8, epsilon: 1e-3))
/// ```
public struct GuidedFilter: Filter {
    public var inputImage: Image?
    public var guideImage: Image?
    public var radius: Double = 1
    public var epsilon: Double = 0.0001

    public init() {}
    public init(
        inputImage: Image? = nil, guideImage: Image? = nil, radius: Double = Self.defaults.radius,
        epsilon: Double = Self.defaults.epsilon
    ) {
        self.inputImage = inputImage
        self.guideImage = guideImage
        self.radius = radius
        self.epsilon = epsilon
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "GuidedFilter", displayName: "Guided Filter", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Smooths or upsamples an image while keeping a guide image's edges (He's guided filter).",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image to smooth or upsample."),
            .image(\.guideImage, "inputGuideImage", "The guide, whose edges the result keeps."),
            .scalar(\.radius, "inputRadius", "The window's radius in pixels (rounded).", min: 0, max: 500, sliderMax: 50),
            .scalar(\.epsilon, "inputEpsilon", "How much smoothing: small keeps edges, large blurs.", min: 0, max: 100, sliderMax: 0.1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (input, guide) = (try required(\.inputImage), try required(\.guideImage))
        let (ge, ie) = (guide.extent, input.extent)
        guard !ge.isInfinite, !ge.isEmpty else {
            throw Self.invalid(\.guideImage, "the guide is infinite or empty (\(ge)); give a finite guide, cropping it if needed")
        }
        var p = input
        if ie.isInfinite {
            p = input.cropped(to: ge)
        } else if ie != ge {
            guard !ie.isEmpty else { throw Self.invalid(\.inputImage, "the image is empty; give one with pixels") }
            let (sx, sy) = (ge.width / ie.width, ge.height / ie.height)
            p = Image(
                ResampleNode(
                    input: input.node, sx: sx, sy: sy, tx: ge.minX - ie.minX * sx, ty: ge.minY - ie.minY * sy, kernel: .bilinear,
                    name: "guidedUpsample"))
        }
        let r = Int(radius.rounded())
        let eps = Float(epsilon)
        let weights = SeparableConvolutionNode.boxWeights(radius: r)
        @Sendable func mean(_ image: Image) -> Image {
            Image(
                SeparableConvolutionNode(
                    input: image.clampedToExtent().node, name: "guidedMean", parameters: "r \(r)", horizontal: weights, vertical: weights)
            ).cropped(to: ge)
        }
        func combine(_ name: String, _ images: [Image], _ f: @escaping @Sendable (PixelSpan) -> Void) -> Image {
            Image(PointwiseNode(name: name, inputs: images.map(\.node), extent: ge, digest: { $0.add(Double(eps)) }, span: f))
        }
        let i = LuminanceImage.of(guide)
        let ip = combine("guideTimesImage", [p, i]) { span in
            let g = span.input(1)
            for k in 0..<span.count { span.pixels[k] *= g[k].x }
        }
        let ii = combine("guideSquared", [i]) { span in for k in 0..<span.count { span.pixels[k] *= span.pixels[k] } }
        let (mi, mp, mip, mii) = (mean(i), mean(p), mean(ip), mean(ii))
        let a = combine("guidedSlope", [mip, mi, mp, mii]) { span in
            let (m, q, s) = (span.input(1), span.input(2), span.input(3))
            for k in 0..<span.count {
                let mean = m[k].x
                span.pixels[k] = (span.pixels[k] - mean * q[k]) / (s[k].x - mean * mean + eps)
            }
        }
        let b = combine("guidedOffset", [mp, a, mi]) { span in
            let (slope, m) = (span.input(1), span.input(2))
            for k in 0..<span.count { span.pixels[k] -= slope[k] * m[k].x }
        }
        return combine("guidedFilter", [mean(a), i, mean(b)]) { span in
            let (g, offset) = (span.input(1), span.input(2))
            for k in 0..<span.count { span.pixels[k] = span.pixels[k] * g[k].x + offset[k] }
        }
    }
}
