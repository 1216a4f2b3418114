import DaguerreCore

/// Posterizes (CIColorPosterize): each unpremultiplied channel is quantized to `levels` values
/// spread evenly from 0 to 1, q(c) = min(⌊c·L⌋, L − 1) / (L − 1) for c in [0, 1] (values
/// outside are clamped first); alpha kept. Core Image does not publish its formula; this is the
/// common definition, on the working space's values like Core Image's other colour effects.
/// Fractional levels are rounded to whole ones (at least 2).
///
/// ```swift
/// let poster = try photo.applying(ColorPosterize(levels: 4))
/// ```
public struct ColorPosterize: Filter {
    public var inputImage: Image?
    public var levels: Double = 6

    public init() {}
    public init(inputImage: Image? = nil, levels: Double = Self.defaults.levels) {
        self.inputImage = inputImage
        self.levels = levels
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorPosterize", displayName: "Color Posterize", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Quantizes each channel to the given number of levels from 0 to 1.",
        parameters: [
            .image(\.inputImage),
            .scalar(
                \.levels, "inputLevels", "How many values each channel keeps (at least 2 in effect).", min: 1, max: 65536, sliderMax: 30),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let n = Float(max(2, levels.rounded()))
        return Image(
            PointwiseNode(
                name: "colorPosterize", inputs: [input.node], extent: input.extent, parameters: "levels \(n)",
                digest: { $0.add(Double(n)) }
            ) { span in
                @inline(__always) func q(_ c: Float) -> Float { min((min(max(c, 0), 1) * n).rounded(.down), n - 1) / (n - 1) }
                SpanMath.forEachUnpremultiplied(span) { v in SIMD4(q(v.x), q(v.y), q(v.z), v.w) }
            })
    }
}
