import DaguerreCore

/// The smallest value of each component over a region (CIAreaMinimum, I4): a 1×1 image at the
/// region's origin; each component is its own minimum.
///
/// ```swift
/// let out = try image.applying(AreaMinimum(extent: image.extent))
/// ```
public struct AreaMinimum: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaMinimum", displayName: "Area Minimum", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The smallest value of each component in a region, as one pixel.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.minimum) }
}
