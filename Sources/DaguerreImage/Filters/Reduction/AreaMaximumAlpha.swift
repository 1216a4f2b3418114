import DaguerreCore

/// The pixel of a region with the largest alpha (CIAreaMaximumAlpha, I4), as a 1×1 image at the
/// region's origin; of equal alphas, the first in reading order (top row first) wins.
///
/// ```swift
/// let out = try image.applying(AreaMaximumAlpha(extent: image.extent))
/// ```
public struct AreaMaximumAlpha: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaMaximumAlpha", displayName: "Area Maximum Alpha", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The pixel of a region with the largest alpha.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.maximumAlpha) }
}
