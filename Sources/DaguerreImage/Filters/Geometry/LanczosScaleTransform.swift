import DaguerreCore

/// High-quality scaling (CILanczosScaleTransform): separable Lanczos-3, widened by the scale
/// when shrinking so nothing aliases. Horizontal scale is `scale × aspectRatio`.
///
/// ```swift
/// let half = try image.applying(LanczosScaleTransform(scale: 0.5))
/// ```
public struct LanczosScaleTransform: Filter {
    public var inputImage: Image?
    public var scale: Double = 1
    public var aspectRatio: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, scale: Double = Self.defaults.scale, aspectRatio: Double = Self.defaults.aspectRatio) {
        self.inputImage = inputImage
        self.scale = scale
        self.aspectRatio = aspectRatio
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "LanczosScaleTransform", displayName: "Lanczos Scale Transform", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Scales with a Lanczos-3 filter, antialiased when shrinking.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.scale, "inputScale", "Scale factor.", min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 1.5),
            .scalar(\.aspectRatio, "inputAspectRatio", "Extra horizontal scale.", min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 2),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let s = scale
        let ar = aspectRatio
        if s == 1 && ar == 1 { return input }
        return Image(ResampleNode(input: input.node, sx: s * ar, sy: s, tx: 0, ty: 0, kernel: .lanczos, name: "lanczosScale"))
    }
}
