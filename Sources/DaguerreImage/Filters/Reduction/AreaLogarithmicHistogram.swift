import DaguerreCore

/// Each component's histogram over a region on a logarithmic scale (CIAreaLogarithmicHistogram,
/// I4): as ``AreaHistogram`` (`count` bins, times `scale`, each a fraction of the region's
/// pixels), but a value v falls in bin ⌊(log₂ v − minimumStop)/(maximumStop − minimumStop)·count⌋,
/// so the bins are equal in stops (exposure) from 2^minimumStop to 2^maximumStop; values below
/// (zero and negatives too) fall in the first bin, values above in the last. Values are the
/// working space's (linear light, premultiplied), where stops are meaningful.
///
/// ```swift
/// let stops = try hdr.applying(AreaLogarithmicHistogram(extent: hdr.extent, minimumStop: -12, maximumStop: 4))
/// ```
public struct AreaLogarithmicHistogram: Filter, AreaHistogramFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent
    public var scale: Double = 1
    public var count: Double = 64
    public var minimumStop: Double = -10
    public var maximumStop: Double = 4

    public init() {}
    public init(
        inputImage: Image? = nil, extent: Rect = Self.defaults.extent, scale: Double = Self.defaults.scale,
        count: Double = Self.defaults.count, minimumStop: Double = Self.defaults.minimumStop,
        maximumStop: Double = Self.defaults.maximumStop
    ) {
        self.inputImage = inputImage
        self.extent = extent
        self.scale = scale
        self.count = count
        self.minimumStop = minimumStop
        self.maximumStop = maximumStop
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaLogarithmicHistogram", displayName: "Area Logarithmic Histogram",
        categories: [.reduction, .video, .stillImage, .builtIn],
        description: "Each component's histogram over a region in equal stops, as a one-pixel-high image.",
        parameters: regionParameters + histogramParameters + [
            .scalar(
                \.minimumStop, "inputMinimumStop", "The first bin's lower edge, in stops (log₂ of the value).", sliderMin: -20, sliderMax: 0
            ),
            .scalar(\.maximumStop, "inputMaximumStop", "The last bin's upper edge, in stops.", sliderMin: 0, sliderMax: 20),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        guard maximumStop > minimumStop else {
            throw Self.invalid(\.maximumStop, "\(maximumStop) is not above the minimum stop \(minimumStop); give a range of stops")
        }
        let binning = HistogramBinning(placement: .log2(minimumStop: minimumStop, maximumStop: maximumStop))
        return try reduced(.histogram(bins: Int(count.rounded()), scale: scale, binning: binning))
    }
}
