import DaguerreCore

/// Warm vintage colour, like Photos' Transfer (CIPhotoEffectTransfer). Core Image applies an unpublished colour cube; this is a documented
/// approximation of the look, not Apple's table: `PhotoEffectLook` with
/// saturation 1.1, contrast 0.2, gain (1, 0.95, 0.85), lift (0.04, 0.02, 0) (I4).
///
/// ```swift
/// let look = try photo.applying(PhotoEffectTransfer())
/// ```
public struct PhotoEffectTransfer: Filter {
    public var inputImage: Image?
    public var extrapolate = false

    public init() {}
    public init(inputImage: Image? = nil, extrapolate: Bool = Self.defaults.extrapolate) {
        self.inputImage = inputImage
        self.extrapolate = extrapolate
    }

    static let look = PhotoEffectLook(
        "photoEffectTransfer", saturation: 1.1, contrast: 0.2, gain: SIMD3(1, 0.95, 0.85), lift: SIMD3(0.04, 0.02, 0))

    public static let declaration = FilterDeclaration<Self>(
        name: "PhotoEffectTransfer", displayName: "Photo Effect Transfer", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Warm vintage colour, like Photos' Transfer.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.extrapolate, "inputExtrapolate", "Apply the look past [0, 1] instead of clamping to it."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.look.apply(to: try required(\.inputImage), extrapolate: extrapolate)
    }
}
