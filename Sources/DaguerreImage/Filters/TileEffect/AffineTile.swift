import DaguerreCore

/// Transforms the image and tiles the result (CIAffineTile; SPEC I4): the output pixel at p is
/// the input, repeated over the plane with the period of its extent, sampled bilinearly at
/// T⁻¹(p) (the bilinear neighbours wrap around too, so tiles join without seams). Infinite extent.
///
/// ```swift
/// let wallpaper = try photo.applying(AffineTile(transform: .init(scaleX: 0.25, y: 0.25))).cropped(to: photo.extent)
/// ```
public struct AffineTile: Filter {
    public var inputImage: Image?
    public var transform = AffineTransform2D(scaleX: 0.4, y: 0.4)

    public init() {}
    public init(inputImage: Image? = nil, transform: AffineTransform2D = Self.defaults.transform) {
        self.inputImage = inputImage
        self.transform = transform
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AffineTile", displayName: "Affine Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Applies an affine transform to the image and tiles the result.",
        parameters: [
            .image(\.inputImage),
            .transform(\.transform, "inputTransform", "The transform [a b c d tx ty] applied before tiling."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        guard let inv = transform.inverted else { throw Self.invalid(\.transform, "the transform \(transform) is not invertible") }
        guard !input.extent.isInfinite, !input.extent.isEmpty else {
            return input.extent.isEmpty ? .empty : input.transformed(by: transform)
        }
        let t = transform
        return Warp.image(
            input, name: "affineTile", extent: .infinite, parameters: [t.a, t.b, t.c, t.d, t.tx, t.ty], edge: .wrap,
            roi: { _ in nil }
        ) { p in
            let q = inv.apply(x: p.x, y: p.y)
            return SIMD2(q.x, q.y)
        }
    }
}
