import DaguerreCore

/// Scaling with a cubic filter of Mitchell and Netravali's family (CIBicubicScaleTransform;
/// SPEC I4): separable, the cubic with parameters B and C (B 0, C 0.75 by default, as Core
/// Image; B ⅓, C ⅓ is Mitchell's filter, B 0, C 0.5 Catmull–Rom), widened by the scale when
/// shrinking so nothing aliases, taps normalised to sum 1 and reading transparent black past the
/// edges, as ``LanczosScaleTransform``. Horizontal scale is `scale × aspectRatio`.
///
/// ```swift
/// let half = try image.applying(BicubicScaleTransform(scale: 0.5))
/// ```
public struct BicubicScaleTransform: Filter {
    public var inputImage: Image?
    public var scale: Double = 1
    public var aspectRatio: Double = 1
    public var b: Double = 0
    public var c: Double = 0.75

    public init() {}
    public init(
        inputImage: Image? = nil, scale: Double = Self.defaults.scale, aspectRatio: Double = Self.defaults.aspectRatio,
        b: Double = Self.defaults.b, c: Double = Self.defaults.c
    ) {
        self.inputImage = inputImage
        self.scale = scale
        self.aspectRatio = aspectRatio
        self.b = b
        self.c = c
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BicubicScaleTransform", displayName: "Bicubic Scale Transform", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Scales with a Mitchell–Netravali cubic filter (B, C), antialiased when shrinking.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.scale, "inputScale", "Scale factor.", min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 1.5),
            .scalar(\.aspectRatio, "inputAspectRatio", "Extra horizontal scale.", min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 2),
            .scalar(\.b, "inputB", "The cubic's B: more blurs.", min: 0, max: 1),
            .scalar(\.c, "inputC", "The cubic's C: more sharpens (rings).", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return Image(
            ResampleNode(
                input: input.node, sx: scale * aspectRatio, sy: scale, tx: 0, ty: 0, kernel: .cubic(b: b, c: c), name: "bicubicScale"))
    }
}
