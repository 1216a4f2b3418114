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
    public var transform: AffineTransform2D
    public init(inputImage: Image? = nil, transform: AffineTransform2D = .identity) { self.inputImage = inputImage; self.transform = transform }
    public var values: [String: FilterValue] { filterValues(["inputTransform": .transform(transform)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "AffineTransform", displayName: "Affine Transform",
        categories: [FilterCategory.geometry, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Applies an affine transform, sampling bilinearly.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputTransform", kind: .transform, description: "The transform [a b c d tx ty].", default: .transform(.identity))]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), t = a.transform("inputTransform")
        guard t.isInvertible else {
            throw .invalidParameter(filter: "AffineTransform", key: "inputTransform", problem: "the transform \(t) is not invertible")
        }
        return input.transformed(by: t)
    }
}
