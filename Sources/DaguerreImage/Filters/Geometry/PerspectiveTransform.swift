import DaguerreCore

/// Maps the input's corners onto four points (CIPerspectiveTransform; SPEC I4): the projective
/// map taking the extent's top-left, top-right, bottom-right and bottom-left corners to
/// `topLeft`… `bottomLeft`, sampled bilinearly; the output extent is the quadrilateral's
/// bounding box. Corners are in Daguerre's coordinates (y down).
///
/// ```swift
/// let tilted = try photo.applying(PerspectiveTransform(topLeft: [40, 0], topRight: [600, 30], bottomRight: [640, 480], bottomLeft: [0, 450]))
/// ```
public struct PerspectiveTransform: PerspectiveCornersFilter {
    public var inputImage: Image?
    public var topLeft: [Double] = [118, 484]
    public var topRight: [Double] = [646, 507]
    public var bottomRight: [Double] = [548, 140]
    public var bottomLeft: [Double] = [155, 153]

    public init() {}
    public init(
        inputImage: Image? = nil, topLeft: [Double] = Self.defaults.topLeft, topRight: [Double] = Self.defaults.topRight,
        bottomRight: [Double] = Self.defaults.bottomRight, bottomLeft: [Double] = Self.defaults.bottomLeft
    ) {
        self.inputImage = inputImage
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PerspectiveTransform", displayName: "Perspective Transform", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Maps the image's four corners to four points by a projective transform.",
        parameters: [.image(\.inputImage)] + cornerParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let h = try homography(from: input.extent)
        return try h.warp(
            input, source: input.extent, extent: input.extent, name: "perspectiveTransform", parameters: cornerNumbers)
    }
}
