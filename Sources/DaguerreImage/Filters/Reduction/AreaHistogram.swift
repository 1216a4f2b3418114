import DaguerreCore

/// Each component's histogram over a region (CIAreaHistogram, I4): an image `count` pixels wide
/// and one high at the region's origin, pixel k holding, per component, the fraction of the
/// region's values v with ⌊v·count⌋ = k (values below 0 and from 1 up fall in the end bins)
/// times `scale`, so at scale 1 each component's bins add up to 1, as Core Image documents.
/// Values are the working space's (linear light, premultiplied).
///
/// ```swift
/// let bins = try image.applying(AreaHistogram(extent: image.extent, count: 256))
/// ```
public struct AreaHistogram: Filter, AreaHistogramFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent
    public var scale: Double = 1
    public var count: Double = 64

    public init() {}
    public init(
        inputImage: Image? = nil, extent: Rect = Self.defaults.extent, scale: Double = Self.defaults.scale,
        count: Double = Self.defaults.count
    ) {
        self.inputImage = inputImage
        self.extent = extent
        self.scale = scale
        self.count = count
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaHistogram", displayName: "Area Histogram", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "Each component's histogram over a region, as a one-pixel-high image.",
        parameters: regionParameters + histogramParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try reduced(.histogram(bins: Int(count.rounded()), scale: scale))
    }
}
