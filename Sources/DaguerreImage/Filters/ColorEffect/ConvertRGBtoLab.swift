import DaguerreCore

/// The image's colours as CIE L*a*b* numbers (CIConvertRGBtoLab; SPEC I4): each pixel's
/// unpremultiplied linear working-space colour becomes (L*, a*, b*) relative to D65 (see
/// ``CIELab``), L* from 0 to 100 and a*, b* about −128 to 128, or, with `normalize`, L*/100 and
/// a*/128, b*/128 (0 to 1 and −1 to 1). Alpha is kept and the numbers premultiplied by it like
/// colours. The result is data, not colour: render it into the working space (or with colour
/// management off) to read the numbers.
///
/// ```swift
/// let lab = try Context().createBuffer(photo.applying(ConvertRGBtoLab()), format: .rgbaf, colorSpace: .extendedLinearSRGB)
/// ```
public struct ConvertRGBtoLab: Filter {
    public var inputImage: Image?
    public var normalize = false

    public init() {}
    public init(inputImage: Image? = nil, normalize: Bool = Self.defaults.normalize) {
        self.inputImage = inputImage
        self.normalize = normalize
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ConvertRGBtoLab", displayName: "Convert RGB to Lab", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Turns each colour into its CIE L*a*b* numbers (D65), in red, green and blue.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.normalize, "inputNormalize", "Scale L* to 0…1 and a*, b* to −1…1."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let scale: SIMD3<Float> = normalize ? SIMD3(1.0 / 100, 1.0 / 128, 1.0 / 128) : SIMD3(repeating: 1)
        return Image(
            PointwiseNode(
                name: "convertRGBtoLab", inputs: [input.node], extent: input.extent, parameters: normalize ? "normalized" : "",
                digest: { $0.add(scale.x) }
            ) { span in
                SpanMath.forEachUnpremultiplied(span) { v in
                    let lab = CIELab.lab(SIMD3(v.x, v.y, v.z)) * scale
                    return SIMD4(lab, v.w)
                }
            })
    }
}
