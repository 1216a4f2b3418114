import DaguerreCore

/// The bounding box of a region's pixels whose red is above zero (CIAreaBoundsRed, I4): a 1×1
/// image at the region's origin holding (x, y, width, height) of the smallest rectangle of whole
/// pixels that contains them all, in the image's coordinates (y down), or (0, 0, 0, 0) when no
/// pixel's red is above zero. Core Image calls its box approximate; this one is exact.
///
/// ```swift
/// let box = try mask.applying(AreaBoundsRed(extent: mask.extent))   // read its one pixel
/// ```
public struct AreaBoundsRed: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaBoundsRed", displayName: "Area Bounds Red", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The bounding box (x, y, width, height) of the pixels whose red is above zero, as one pixel.",
        parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.boundsRed) }
}
