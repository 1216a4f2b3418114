import DaguerreCore

/// Cool colour with blue shadows, like Photos' Process (CIPhotoEffectProcess). Core Image applies an unpublished colour cube; this is a documented
/// approximation of the look, not Apple's table: `PhotoEffectLook` with
/// saturation 1.1, contrast 0.25, gain (0.92, 0.98, 1), lift (0, 0.02, 0.06) (I4).
///
/// ```swift
/// let look = try photo.applying(PhotoEffectProcess())
/// ```
public struct PhotoEffectProcess: Filter {
    public var inputImage: Image?
    public var extrapolate = false

    public init() {}
    public init(inputImage: Image? = nil, extrapolate: Bool = Self.defaults.extrapolate) {
        self.inputImage = inputImage
        self.extrapolate = extrapolate
    }

    static let look = PhotoEffectLook(
        "photoEffectProcess", saturation: 1.1, contrast: 0.25, gain: SIMD3(0.92, 0.98, 1), lift: SIMD3(0, 0.02, 0.06))

    public static let declaration = FilterDeclaration<Self>(
        name: "PhotoEffectProcess", displayName: "Photo Effect Process", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Cool colour with blue shadows, like Photos' Process.",
        parameters: [
            .image(\.inputImage),
            .boolean(\.extrapolate, "inputExtrapolate", "Apply the look past [0, 1] instead of clamping to it."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.look.apply(to: try required(\.inputImage), extrapolate: extrapolate)
    }
}
