import DaguerreCore

/// Warm, faded colour like instant film, like Photos' Instant (CIPhotoEffectInstant). Core Image applies an unpublished colour cube; this is a documented
/// approximation of the look, not Apple's table: `PhotoEffectLook` with
/// saturation 0.85, contrast 0.1, gain (1, 0.95, 0.82), lift (0.06, 0.05, 0.04) (I4).
///
/// ```swift
/// let look = try photo.applying(PhotoEffectInstant())
/// ```
public struct PhotoEffectInstant: Filter {
    public var inputImage: Image?
    public var extrapolate = false

    public init() {}
    public init(inputImage: Image? = nil, extrapolate: Bool = Self.defaults.extrapolate) {
        self.inputImage = inputImage
        self.extrapolate = extrapolate
    }

    static let look = PhotoEffectLook(
        "photoEffectInstant", saturation: 0.85, contrast: 0.1, gain: SIMD3(1, 0.95, 0.82), lift: SIMD3(0.06, 0.05, 0.04))

    public static let declaration = FilterDeclaration<Self>(
        name: "PhotoEffectInstant", displayName: "Photo Effect Instant", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Warm, faded colour like instant film, like Photos' Instant.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.extrapolate, "inputExtrapolate", "Apply the look past [0, 1] instead of clamping to it."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.look.apply(to: try required(\.inputImage), extrapolate: extrapolate)
    }
}
