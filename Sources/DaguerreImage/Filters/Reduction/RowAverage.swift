import DaguerreCore

/// The mean colour of each row of a region (CIRowAverage, I4): an image one pixel wide and as
/// tall as the region, at its origin.
///
/// ```swift
/// let out = try image.applying(RowAverage(extent: image.extent))
/// ```
public struct RowAverage: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "RowAverage", displayName: "Row Average", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The mean colour of each row of a region, as a one-pixel-wide image.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.rowAverage) }
}
