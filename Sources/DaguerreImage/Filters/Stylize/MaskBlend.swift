import DaguerreCore

/// The mask blend the BlendWith…Mask filters share (SPEC I4): on premultiplied working-space
/// values, out = background + (source − background)·m, with m the mask's weight at the pixel,
/// clamped to [0, 1]: 0 gives the background, 1 the source. Outside the mask's extent m is 0, so
/// the result's extent is the background's united with the part of the source the mask covers.
enum MaskBlend: String, Sendable {
    /// m = the mask's Rec. 709 luminance (its premultiplied linear values).
    case luminance
    /// m = the mask's alpha.
    case alpha
    /// m = the mask's red (its premultiplied linear value).
    case red
    /// m = the mask's blue (its premultiplied linear value).
    case blue

    func blend(_ source: Image, over background: Image, mask: Image) -> Image {
        let weight = self
        let extent = background.extent.union(source.extent.intersection(mask.extent))
        return Image(
            PointwiseNode(
                name: "blendWith\(rawValue)Mask", inputs: [source.node, background.node, mask.node], extent: extent,
                digest: { $0.add(weight.rawValue) }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                let m = span.input(2)
                switch weight {
                case .luminance:
                    for i in 0..<span.count { s[i] = Self.mix(b[i], s[i], SpanMath.luminance(SIMD4(m[i].x, m[i].y, m[i].z, 0))) }
                case .alpha:
                    for i in 0..<span.count { s[i] = Self.mix(b[i], s[i], m[i].w) }
                case .red:
                    for i in 0..<span.count { s[i] = Self.mix(b[i], s[i], m[i].x) }
                case .blue:
                    for i in 0..<span.count { s[i] = Self.mix(b[i], s[i], m[i].z) }
                }
            })
    }

    @inline(__always) private static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>, _ m: Float) -> SIMD4<Float> {
        b + (s - b) * min(max(m, 0), 1)
    }
}

/// What the BlendWith…Mask filters share (SPEC I4): their three images and the declaration,
/// which differ only in the mask's channel, `weight`.
protocol MaskBlendFilter: Filter {
    var inputImage: Image? { get set }
    var backgroundImage: Image? { get set }
    var maskImage: Image? { get set }
    /// Which of the mask's values weighs the image.
    static var weight: MaskBlend { get }
}

extension MaskBlendFilter {
    /// The declaration of `name`, whose mask weighs the image by `channel` ("luminance", "red"…):
    /// `full` says where the image is kept ("white", "opaque"), `none` where the background is.
    static func declare(name: String, displayName: String, channel: String, full: String, none: String) -> FilterDeclaration<Self> {
        FilterDeclaration(
            name: name, displayName: displayName, categories: [.stylize, .video, .stillImage, .builtIn],
            description: "Mixes the image with the background by the mask's \(channel): \(full) keeps the image, \(none) the background.",
            parameters: [
                .image(\.inputImage, FilterParameter.inputImageKey, "The image where the mask's \(channel) is full."),
                .image(\.backgroundImage, "inputBackgroundImage", "The image where the mask's \(channel) is zero."),
                .image(\.maskImage, "inputMaskImage", "A mask whose \(channel) weighs the image."),
            ])
    }

    /// The image over the background by the mask.
    func blended() throws(DaguerreError) -> Image {
        try Self.weight.blend(required(\.inputImage), over: required(\.backgroundImage), mask: required(\.maskImage))
    }
}
