import DaguerreCore

/// Maps a rectangle's corners onto four points (CIPerspectiveTransformWithExtent; SPEC I4):
/// the projective map taking `extent`'s top-left, top-right, bottom-right and bottom-left
/// corners to `topLeft`… `bottomLeft`, applied to the whole input, sampled bilinearly. The output
/// extent is the image of the input's extent (infinite when that crosses the vanishing line).
///
/// ```swift
/// let f = PerspectiveTransformWithExtent(extent: Rect(x: 0, y: 0, width: 100, height: 100),
///                                        topLeft: [0, 0], topRight: [120, 10], bottomRight: [110, 100], bottomLeft: [0, 90])
/// let out = try photo.applying(f)
/// ```
public struct PerspectiveTransformWithExtent: PerspectiveCornersFilter {
    public var inputImage: Image?
    public var extent = Rect(x: 0, y: 0, width: 300, height: 300)
    public var topLeft: [Double] = [118, 484]
    public var topRight: [Double] = [646, 507]
    public var bottomRight: [Double] = [548, 140]
    public var bottomLeft: [Double] = [155, 153]

    public init() {}
    public init(
        inputImage: Image? = nil, extent: Rect = Self.defaults.extent, topLeft: [Double] = Self.defaults.topLeft,
        topRight: [Double] = Self.defaults.topRight, bottomRight: [Double] = Self.defaults.bottomRight,
        bottomLeft: [Double] = Self.defaults.bottomLeft
    ) {
        self.inputImage = inputImage
        self.extent = extent
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PerspectiveTransformWithExtent", displayName: "Perspective Transform with Extent",
        categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Maps a rectangle's four corners to four points by a projective transform.",
        parameters: [.image(\.inputImage), .rectangle(\.extent, "inputExtent", "The rectangle whose corners are mapped.")]
            + cornerParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let h = try homography(from: extent)
        let e = extent
        return try h.warp(
            input, source: e, extent: input.extent, name: "perspectiveTransformWithExtent",
            parameters: [e.minX, e.minY, e.maxX, e.maxY] + cornerNumbers)
    }
}
