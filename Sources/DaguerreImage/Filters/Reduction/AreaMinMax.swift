import DaguerreCore

/// The smallest value of each component over a region (left) and the largest (right) (CIAreaMinMax, I4): a 2×1 image at the
/// region's origin; each component is its own extreme (the pixels need not be any in the image).
///
/// ```swift
/// let out = try image.applying(AreaMinMax(extent: image.extent))
/// ```
public struct AreaMinMax: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaMinMax", displayName: "Area Min Max", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The smallest and the largest value of each component in a region, as two pixels.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.minMax) }
}
