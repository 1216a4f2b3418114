import DaguerreCore

/// The largest value of each component over a region (CIAreaMaximum, I4): a 1×1 image at the
/// region's origin; each component is its own maximum (the result need not be any one pixel).
///
/// ```swift
/// let out = try image.applying(AreaMaximum(extent: image.extent))
/// ```
public struct AreaMaximum: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaMaximum", displayName: "Area Maximum", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The largest value of each component in a region, as one pixel.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.maximum) }
}
