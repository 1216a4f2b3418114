import DaguerreCore

/// High-contrast black and white, like Photos' Noir (CIPhotoEffectNoir). Core Image applies an unpublished colour cube; this is a documented
/// approximation of the look, not Apple's table: `PhotoEffectLook` with
/// mono, contrast 0.8, gain (1, 1, 1), lift (0, 0, 0) (I4).
///
/// ```swift
/// let look = try photo.applying(PhotoEffectNoir())
/// ```
public struct PhotoEffectNoir: Filter {
    public var inputImage: Image?
    public var extrapolate = false

    public init() {}
    public init(inputImage: Image? = nil, extrapolate: Bool = Self.defaults.extrapolate) {
        self.inputImage = inputImage
        self.extrapolate = extrapolate
    }

    static let look = PhotoEffectLook("photoEffectNoir", mono: true, contrast: 0.8, gain: SIMD3(1, 1, 1), lift: SIMD3(0, 0, 0))

    public static let declaration = FilterDeclaration<Self>(
        name: "PhotoEffectNoir", displayName: "Photo Effect Noir", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "High-contrast black and white, like Photos' Noir.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.extrapolate, "inputExtrapolate", "Apply the look past [0, 1] instead of clamping to it."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.look.apply(to: try required(\.inputImage), extrapolate: extrapolate)
    }
}
