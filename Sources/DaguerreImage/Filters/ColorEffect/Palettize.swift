import DaguerreCore

/// Replaces each colour by the nearest colour of a palette (CIPalettize; SPEC I4). The palette
/// is every pixel of `paletteImage` in reading order (Core Image's N×1 strip; CIKMeans makes
/// one); a pixel takes the palette colour nearest to its own, both unpremultiplied, by Euclidean
/// distance in the working space's linear RGB or, with `perceptual`, in CIE L*a*b* (see
/// ``CIELab``), the first of equals winning; it keeps its own alpha. Each pixel compares every
/// palette colour, so the palette is limited to 4096 colours. Core Image publishes no formula;
/// this is the definition used.
///
/// ```swift
/// let poster = try photo.applying(Palettize(paletteImage: try photo.applying(KMeans())))
/// ```
public struct Palettize: Filter {
    public var inputImage: Image?
    public var paletteImage: Image?
    public var perceptual = false

    public init() {}
    public init(inputImage: Image? = nil, paletteImage: Image? = nil, perceptual: Bool = Self.defaults.perceptual) {
        self.inputImage = inputImage
        self.paletteImage = paletteImage
        self.perceptual = perceptual
    }

    /// The most colours a palette may hold.
    static let maximumColors = 4096

    public static let declaration = FilterDeclaration<Self>(
        name: "Palettize", displayName: "Palettize", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Replaces each colour by the nearest colour of a palette image.",
        parameters: [
            .image(\.inputImage),
            .image(\.paletteImage, "inputPaletteImage", "The palette: its pixels, in reading order (an N×1 strip)."),
            .boolean(\.perceptual, "inputPerceptual", "Measure nearness in CIE L*a*b* instead of linear RGB."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (input, palette) = (try required(\.inputImage), try required(\.paletteImage))
        let e = palette.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw Self.invalid(\.paletteImage, "the palette has no finite pixels (extent \(e)); give an N×1 image of colours")
        }
        let cells = e.integral
        guard cells.width * cells.height <= Self.maximumColors else {
            throw Self.invalid(
                \.paletteImage, "the palette has \(cells.width * cells.height) pixels, more than \(Self.maximumColors); use fewer colours")
        }
        return Image(PaletteMapNode(input: input.node, palette: palette.node, perceptual: perceptual))
    }
}
