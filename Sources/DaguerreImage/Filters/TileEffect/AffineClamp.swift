import DaguerreCore

/// Transforms the image and extends its edges (CIAffineClamp; SPEC I4): the output pixel at p is
/// the input sampled bilinearly at T⁻¹(p), reading the nearest edge pixel beyond the extent, so
/// the edge pixels stretch outward for ever. Infinite extent.
///
/// ```swift
/// let padded = try photo.applying(AffineClamp(transform: .identity)).applying(GaussianBlur(radius: 8)).cropped(to: photo.extent)
/// ```
public struct AffineClamp: Filter {
    public var inputImage: Image?
    public var transform = AffineTransform2D(scaleX: 0.4, y: 0.4)

    public init() {}
    public init(inputImage: Image? = nil, transform: AffineTransform2D = Self.defaults.transform) {
        self.inputImage = inputImage
        self.transform = transform
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AffineClamp", displayName: "Affine Clamp", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Applies an affine transform to the image and extends its edge pixels outward.",
        parameters: [
            .image(\.inputImage),
            .transform(\.transform, "inputTransform", "The transform [a b c d tx ty]."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        guard let inv = transform.inverted else { throw Self.invalid(\.transform, "the transform \(transform) is not invertible") }
        guard !input.extent.isInfinite, !input.extent.isEmpty else {
            return input.extent.isEmpty ? .empty : input.transformed(by: transform)
        }
        let t = transform
        return Warp.image(
            input, name: "affineClamp", extent: .infinite, parameters: [t.a, t.b, t.c, t.d, t.tx, t.ty], edge: .clamp,
            roi: { r in inv.apply(to: r) }
        ) { p in
            let q = inv.apply(x: p.x, y: p.y)
            return SIMD2(q.x, q.y)
        }
    }
}
