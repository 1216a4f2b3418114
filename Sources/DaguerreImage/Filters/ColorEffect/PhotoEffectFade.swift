import DaguerreCore

/// Washed-out colour with lifted blacks, like Photos' Fade (CIPhotoEffectFade). Core Image applies an unpublished colour cube; this is a documented
/// approximation of the look, not Apple's table: `PhotoEffectLook` with
/// saturation 0.7, contrast −0.2, gain (0.85, 0.85, 0.85), lift (0.1, 0.1, 0.1) (I4).
///
/// ```swift
/// let look = try photo.applying(PhotoEffectFade())
/// ```
public struct PhotoEffectFade: Filter {
    public var inputImage: Image?
    public var extrapolate = false

    public init() {}
    public init(inputImage: Image? = nil, extrapolate: Bool = Self.defaults.extrapolate) {
        self.inputImage = inputImage
        self.extrapolate = extrapolate
    }

    static let look = PhotoEffectLook(
        "photoEffectFade", saturation: 0.7, contrast: -0.2, gain: SIMD3(0.85, 0.85, 0.85), lift: SIMD3(0.1, 0.1, 0.1))

    public static let declaration = FilterDeclaration<Self>(
        name: "PhotoEffectFade", displayName: "Photo Effect Fade", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Washed-out colour with lifted blacks, like Photos' Fade.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.extrapolate, "inputExtrapolate", "Apply the look past [0, 1] instead of clamping to it."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.look.apply(to: try required(\.inputImage), extrapolate: extrapolate)
    }
}
