import DaguerreCore

/// High-quality scaling (CILanczosScaleTransform): separable Lanczos-3, widened by the scale
/// when shrinking so nothing aliases. Horizontal scale is `scale × aspectRatio`.
///
/// ```swift
/// let half = try image.applying(LanczosScaleTransform(scale: 0.5))
/// ```
public struct LanczosScaleTransform: Filter {
    public var inputImage: Image?
    public var scale: Double, aspectRatio: Double
    public init(inputImage: Image? = nil, scale: Double = 1, aspectRatio: Double = 1) {
        self.inputImage = inputImage; self.scale = scale; self.aspectRatio = aspectRatio
    }
    public var values: [String: FilterValue] { filterValues(["inputScale": .number(scale), "inputAspectRatio": .number(aspectRatio)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "LanczosScaleTransform", displayName: "Lanczos Scale Transform",
        categories: [FilterCategory.geometry, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Scales with a Lanczos-3 filter, antialiased when shrinking.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputScale", kind: .scalar, description: "Scale factor.", default: 1, min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 1.5),
                     FilterParameter(key: "inputAspectRatio", kind: .scalar, description: "Extra horizontal scale.", default: 1, min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 2)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), s = a.number("inputScale"), ar = a.number("inputAspectRatio")
        if s == 1 && ar == 1 { return input }
        return Image(ResampleNode(input: input.node, sx: s * ar, sy: s, tx: 0, ty: 0, kernel: .lanczos, name: "lanczosScale"))
    }
}
