import DaguerreCore

/// The mean colour of each column of a region (CIColumnAverage, I4): an image one pixel high and
/// as wide as the region, at its origin.
///
/// ```swift
/// let out = try image.applying(ColumnAverage(extent: image.extent))
/// ```
public struct ColumnAverage: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColumnAverage", displayName: "Column Average", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The mean colour of each column of a region, as a one-pixel-high image.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.columnAverage) }
}
