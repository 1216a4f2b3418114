import DaguerreCore

/// The smallest red over a region and the largest (CIAreaMinMaxRed, I4): a 1×1 image at the region's
/// origin holding the smallest red in its red, the largest in its green, blue 0 and alpha 1.
///
/// ```swift
/// let out = try image.applying(AreaMinMaxRed(extent: image.extent))
/// ```
public struct AreaMinMaxRed: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaMinMaxRed", displayName: "Area Min Max Red", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The smallest and the largest red in a region, as one pixel's red and green.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.minMaxRed) }
}
