import DaguerreCore

/// Soft, low-contrast black and white, like Photos' Tonal (CIPhotoEffectTonal). Core Image applies an unpublished colour cube; this is a documented
/// approximation of the look, not Apple's table: `PhotoEffectLook` with
/// mono, contrast −0.3, gain (0.9, 0.9, 0.9), lift (0.05, 0.05, 0.05) (I4).
///
/// ```swift
/// let look = try photo.applying(PhotoEffectTonal())
/// ```
public struct PhotoEffectTonal: Filter {
    public var inputImage: Image?
    public var extrapolate = false

    public init() {}
    public init(inputImage: Image? = nil, extrapolate: Bool = Self.defaults.extrapolate) {
        self.inputImage = inputImage
        self.extrapolate = extrapolate
    }

    static let look = PhotoEffectLook(
        "photoEffectTonal", mono: true, contrast: -0.3, gain: SIMD3(0.9, 0.9, 0.9), lift: SIMD3(0.05, 0.05, 0.05))

    public static let declaration = FilterDeclaration<Self>(
        name: "PhotoEffectTonal", displayName: "Photo Effect Tonal", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Soft, low-contrast black and white, like Photos' Tonal.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.extrapolate, "inputExtrapolate", "Apply the look past [0, 1] instead of clamping to it."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.look.apply(to: try required(\.inputImage), extrapolate: extrapolate)
    }
}
