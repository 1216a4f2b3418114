import DaguerreCore

/// CIE L*a*b* numbers back to colours (CIConvertLabToRGB; SPEC I4), the inverse of
/// ``ConvertRGBtoLab``: each pixel's unpremultiplied red, green and blue are read as L*, a*, b*
/// relative to D65 (or, with `normalize`, as L*/100, a*/128, b*/128) and become the linear
/// working-space colour (see ``CIELab``), alpha kept.
///
/// ```swift
/// let back = try photo.applying(ConvertRGBtoLab()).applying(ConvertLabToRGB())   // the photo again
/// ```
public struct ConvertLabToRGB: Filter {
    public var inputImage: Image?
    public var normalize = false

    public init() {}
    public init(inputImage: Image? = nil, normalize: Bool = Self.defaults.normalize) {
        self.inputImage = inputImage
        self.normalize = normalize
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ConvertLabToRGB", displayName: "Convert Lab to RGB", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Reads red, green and blue as CIE L*a*b* numbers (D65) and turns them back into colours.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.normalize, "inputNormalize", "The numbers are scaled: L* in 0…1 and a*, b* in −1…1."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let scale: SIMD3<Float> = normalize ? SIMD3(100, 128, 128) : SIMD3(repeating: 1)
        return Image(
            PointwiseNode(
                name: "convertLabToRGB", inputs: [input.node], extent: input.extent, parameters: normalize ? "normalized" : "",
                digest: { $0.add(scale.x) }
            ) { span in
                SpanMath.forEachUnpremultiplied(span) { v in SIMD4(CIELab.rgb(SIMD3(v.x, v.y, v.z) * scale), v.w) }
            })
    }
}
