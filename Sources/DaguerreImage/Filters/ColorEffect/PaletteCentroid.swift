import DaguerreCore

/// Where each colour of a palette lies in the image (CIPaletteCentroid; SPEC I4): an N×1 image
/// for a palette of N colours (`paletteImage`'s pixels in reading order, as ``Palettize`` reads
/// them, up to 4096), whose pixel k holds in red and green the mean position (x, y, pixel
/// centres, y down) of the image's pixels nearest to colour k, in blue the fraction of the
/// pixels that chose it, alpha 1 (see ``PaletteCentroidNode``). The image must be finite. Core
/// Image publishes no formula; this is the definition used.
///
/// ```swift
/// let centroids = try photo.applying(PaletteCentroid(paletteImage: try photo.applying(KMeans(extent: photo.extent, meansImage: seeds))))
/// ```
public struct PaletteCentroid: Filter {
    public var inputImage: Image?
    public var paletteImage: Image?
    public var perceptual = false

    public init() {}
    public init(inputImage: Image? = nil, paletteImage: Image? = nil, perceptual: Bool = Self.defaults.perceptual) {
        self.inputImage = inputImage
        self.paletteImage = paletteImage
        self.perceptual = perceptual
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PaletteCentroid", displayName: "Palette Centroid", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "The mean position of the pixels nearest to each palette colour, as a one-pixel-high image.",
        parameters: [
            .image(\.inputImage),
            .image(\.paletteImage, "inputPaletteImage", "The palette: its pixels, in reading order (an N×1 strip)."),
            .boolean(\.perceptual, "inputPerceptual", "Measure nearness in CIE L*a*b* instead of linear RGB."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (input, palette) = (try required(\.inputImage), try required(\.paletteImage))
        guard !input.extent.isInfinite, !input.extent.isEmpty else {
            throw Self.invalid(\.inputImage, "the image is infinite or empty (\(input.extent)); crop it to the part to measure")
        }
        let e = palette.extent
        guard !e.isInfinite, !e.isEmpty, e.integral.width * e.integral.height <= Palettize.maximumColors else {
            throw Self.invalid(\.paletteImage, "the palette must be a finite strip of 1 to \(Palettize.maximumColors) colours, not \(e)")
        }
        return Image(
            PaletteCentroidNode(
                input: input.node, palette: palette.node, colours: e.integral.width * e.integral.height, perceptual: perceptual))
    }
}
