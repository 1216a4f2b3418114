import DaguerreCore

/// Mixes the image into the background by an amount (CIMix; SPEC I4): out = background +
/// (image − background)·amount on premultiplied working-space values: 0 gives the background,
/// 1 the image; amounts outside 0…1 extrapolate. It covers both images.
///
/// ```swift
/// let halfway = try edited.applying(Mix(backgroundImage: original, amount: 0.5))
/// ```
public struct Mix: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?
    public var amount: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil, amount: Double = Self.defaults.amount) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
        self.amount = amount
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Mix", displayName: "Mix", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Mixes the image into the background: 0 gives the background, 1 the image.",
        parameters: [
            .image(\.inputImage),
            .image(\.backgroundImage, "inputBackgroundImage", "The image at amount 0."),
            .scalar(\.amount, "inputAmount", "How much of the image: 0 the background, 1 the image.", sliderMin: 0, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, background) = (try required(\.inputImage), try required(\.backgroundImage))
        let k = Float(amount)
        return Image(
            PointwiseNode(
                name: "mix", inputs: [image.node, background.node], extent: image.extent.union(background.extent), parameters: "\(k)",
                digest: { $0.add(k) }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                for i in 0..<span.count { s[i] = b[i] + (s[i] - b[i]) * k }
            })
    }
}
