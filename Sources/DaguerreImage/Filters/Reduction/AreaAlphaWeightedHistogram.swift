import DaguerreCore

/// Each component's histogram over a region, every pixel counting as much as its alpha
/// (CIAreaAlphaWeightedHistogram, I4): as ``AreaHistogram`` (`count` bins over [0, 1], times
/// `scale`, divided by the region's pixel count), but binning the unpremultiplied red, green and
/// blue (and alpha itself), each pixel adding its alpha to its bins instead of 1, so transparent
/// pixels do not count and a half-transparent one counts half.
///
/// ```swift
/// let bins = try cutout.applying(AreaAlphaWeightedHistogram(extent: cutout.extent, count: 256))
/// ```
public struct AreaAlphaWeightedHistogram: Filter, AreaHistogramFilter {
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
        name: "AreaAlphaWeightedHistogram", displayName: "Area Alpha Weighted Histogram",
        categories: [.reduction, .video, .stillImage, .builtIn],
        description: "Each unpremultiplied component's histogram over a region, weighted by alpha, as a one-pixel-high image.",
        parameters: regionParameters + histogramParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try reduced(.histogram(bins: Int(count.rounded()), scale: scale, binning: HistogramBinning(alphaWeighted: true)))
    }
}
