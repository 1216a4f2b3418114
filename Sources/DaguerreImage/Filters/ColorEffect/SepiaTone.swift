import DaguerreCore

/// Sepia toning (CISepiaTone): each pixel moves towards the brown of an old photograph, by
/// `intensity` (0 leaves the image, 1 is full sepia).
///
/// Core Image does not publish its formula; this is the W3C Filter Effects `sepia()` matrix,
/// mixed with the identity by the intensity k:
///
///     M(k) = (1 − k)·I + k·| 0.393 0.769 0.189 |
///                          | 0.349 0.686 0.168 |
///                          | 0.272 0.534 0.131 |
///
/// applied to RGB in the working space, linear light, as the other colour filters are and as
/// SVG's `feColorMatrix` is by default (`color-interpolation-filters: linearRGB`). Being a 3×3
/// matrix it fuses with its linear neighbours (exposure, white balance) into one. Intensities
/// above 1 extrapolate (Core Image sets no maximum; its slider ends at 1).
///
/// ```swift
/// let aged = try photo.applying(SepiaTone(intensity: 0.8))
/// ```
public struct SepiaTone: Filter {
    public var inputImage: Image?
    public var intensity: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, intensity: Double = Self.defaults.intensity) {
        self.inputImage = inputImage
        self.intensity = intensity
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SepiaTone", displayName: "Sepia Tone", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Tones the image towards sepia brown (the W3C sepia matrix, in linear light).",
        parameters: [
            .image(\.inputImage),
            .scalar(\.intensity, "inputIntensity", "0 leaves the image, 1 is full sepia.", min: 0, sliderMax: 1),
        ])

    /// The W3C Filter Effects sepia matrix, row-major.
    static let sepia: [Double] = [
        0.393, 0.769, 0.189,
        0.349, 0.686, 0.168,
        0.272, 0.534, 0.131,
    ]

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let k = intensity
        if k == 0 { return input }
        let m = Matrix3((0..<9).map { i in (1 - k) * Matrix3.identity.m[i] + k * Self.sepia[i] })
        return Image(
            PointwiseNode(
                name: "sepiaTone", inputs: [input.node], extent: input.extent, parameters: "intensity \(k)",
                linear: m, digest: { $0.add(k) }))
    }
}
