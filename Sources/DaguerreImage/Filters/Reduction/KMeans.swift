import DaguerreCore

/// The main colours of a region by k-means clustering (CIKMeans, I4): a `count`×1 image at the
/// region's origin whose pixel k is cluster k's centre premultiplied by its weight, the fraction
/// of the region's pixels in it (see ``KMeansNode`` for the seeds, the passes and the distance).
/// Seeds come from `meansImage` (up to 4096 pixels, read in order); `count` 0 takes as many
/// clusters as it has pixels. Feed the result to ``Palettize`` as its palette.
///
/// ```swift
/// let palette = try photo.applying(KMeans(extent: photo.extent, meansImage: seeds, count: 6))
/// let poster = try photo.applying(Palettize(paletteImage: palette))
/// ```
public struct KMeans: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent
    public var meansImage: Image?
    public var count: Double = 8
    public var passes: Double = 5
    public var perceptual = false

    public init() {}
    public init(
        inputImage: Image? = nil, extent: Rect = Self.defaults.extent, meansImage: Image? = nil, count: Double = Self.defaults.count,
        passes: Double = Self.defaults.passes, perceptual: Bool = Self.defaults.perceptual
    ) {
        self.inputImage = inputImage
        self.extent = extent
        self.meansImage = meansImage
        self.count = count
        self.passes = passes
        self.perceptual = perceptual
    }

    /// The most seed pixels a means image may have.
    static let maximumSeeds = 4096

    public static let declaration = FilterDeclaration<Self>(
        name: "KMeans", displayName: "KMeans", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The region's main colours by k-means clustering, each weighted by its share, as a one-pixel-high image.",
        parameters: regionParameters + [
            .image(\.meansImage, "inputMeans", "The seeds: its pixels in reading order (an N×1 strip)."),
            .integer(\.count, "inputCount", "How many clusters (0: one per seed).", min: 0, max: 128),
            .integer(\.passes, "inputPasses", "How many times the centres move.", min: 0, max: 20),
            .boolean(\.perceptual, "inputPerceptual", "Measure distances in CIE L*a*b* instead of linear RGB."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (input, means) = (try required(\.inputImage), try required(\.meansImage))
        guard !extent.intersection(input.extent).isEmpty else {
            throw Self.invalid(\.extent, "\(extent) does not overlap the image's extent \(input.extent)")
        }
        let m = means.extent
        let seeds = m.isInfinite || m.isEmpty ? 0 : m.integral.width * m.integral.height
        guard !m.isInfinite, seeds <= Self.maximumSeeds else {
            throw Self.invalid(\.meansImage, "the means image has more than \(Self.maximumSeeds) pixels; give an N×1 strip of seed colours")
        }
        let k = count == 0 ? seeds : Int(count.rounded())
        guard k >= 1, k <= 128 else {
            throw Self.invalid(\.count, "\(k) clusters: give 1 to 128, or 0 with a means image of 1 to 128 pixels")
        }
        return Image(
            KMeansNode(
                input: input.node, means: means.node, region: extent, count: k, passes: Int(passes.rounded()), perceptual: perceptual))
    }
}
