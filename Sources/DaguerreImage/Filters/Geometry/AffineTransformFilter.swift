import DaguerreCore

/// The AffineTransform filter (CIAffineTransform): `Image.transformed(by:)` by name, with
/// bilinear sampling (Core Image's default). Named `AffineTransformFilter` in Swift because
/// ``AffineTransform2D`` is the transform itself.
///
/// ```swift
/// let rotated = try image.applyingFilter("AffineTransform", parameters: ["inputTransform": .transform(.init(rotationAngle: .pi / 8))])
/// ```
public struct AffineTransformFilter: Filter {
    public var inputImage: Image?
    public var transform: AffineTransform2D = .identity

    public init() {}
    public init(inputImage: Image? = nil, transform: AffineTransform2D = Self.defaults.transform) {
        self.inputImage = inputImage
        self.transform = transform
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AffineTransform", displayName: "Affine Transform", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Applies an affine transform, sampling bilinearly.",
        parameters: [
            .image(\.inputImage),
            .transform(\.transform, "inputTransform", "The transform [a b c d tx ty]."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let t = transform
        guard t.isInvertible else { throw Self.invalid(\.transform, "the transform \(t) is not invertible") }
        return input.transformed(by: t)
    }
}
