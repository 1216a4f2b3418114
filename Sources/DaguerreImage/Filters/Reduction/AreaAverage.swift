import DaguerreCore

/// The mean colour of a region (CIAreaAverage): a 1×1 image at the region's origin. Computed
/// band by band in double precision, so any region size costs one band of memory.
///
/// ```swift
/// let mean = try image.applying(AreaAverage(extent: image.extent))
/// let px = try Context().createBuffer(mean, format: .rgbaf, colorSpace: nil)
/// ```
public struct AreaAverage: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaAverage", displayName: "Area Average", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "Averages the pixels of a region into one pixel.", parameters: regionParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try reduced(.average) }
}
