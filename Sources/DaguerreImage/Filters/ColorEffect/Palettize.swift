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
        let perceptual = self.perceptual
        let node = SamplingNode(
            name: "palettize", inputs: [input.node, palette.node], extent: input.extent, parameters: perceptual ? "perceptual" : "",
            outputFormat: nil, digest: { $0.add(perceptual ? 1 : 0) },
            roi: { i, rect in i == 0 ? rect : Rect(cells) }
        ) { samplers, dest in
            let v = samplers[0].read(x: Int(dest.x.rounded(.down)), y: Int(dest.y.rounded(.down)))
            guard v.w > 0 else { return .zero }
            let here = Self.place(SpanMath.unpremultiply(v), perceptual)
            var best = SIMD3<Float>.zero
            var nearest = Float.infinity
            for y in cells.y..<cells.maxY {
                for x in cells.x..<cells.maxX {
                    let colour = SpanMath.unpremultiply(samplers[1].read(x: x, y: y))
                    let d = Self.place(colour, perceptual) - here
                    let distance = (d * d).sum()
                    if distance < nearest {
                        nearest = distance
                        best = SIMD3(colour.x, colour.y, colour.z)
                    }
                }
            }
            return SIMD4(best * v.w, v.w)
        }
        return Image(node)
    }

    /// Where a colour sits for the comparison: its linear RGB, or its L*a*b*.
    @inline(__always) static func place(_ v: SIMD4<Float>, _ perceptual: Bool) -> SIMD3<Float> {
        let rgb = SIMD3(v.x, v.y, v.z)
        return perceptual ? CIELab.lab(rgb) : rgb
    }
}
