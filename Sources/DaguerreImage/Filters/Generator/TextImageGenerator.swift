import DaguerreCore

/// Text as an image (CITextImageGenerator): `text` in the installed font that best matches
/// `fontName` (fontconfig; Core Image's default, Helvetica Neue, gets Helvetica's
/// metric-compatible clone), shaped by HarfBuzz and rasterized by FreeType at `fontSize` ×
/// `scaleFactor` pixels to the em, black with anti-aliased alpha on a transparent background, one
/// line per newline. The extent starts at (0, 0) and holds every line's advance and the font's
/// line height, with `padding` × `scaleFactor` pixels on every side (SPEC I4).
///
/// ```swift
/// let caption = try FilterRegistry.descriptor(named: "TextImageGenerator")
///     .apply(["inputText": "Daguerre", "inputFontSize": 48])
/// let white = try caption.applying(ColorInvert())   // white text, for a dark photo
/// ```
public struct TextImageGenerator: Filter {
    public var text: String = ""
    public var fontName: String = "HelveticaNeue"
    public var fontSize: Double = 12
    public var scaleFactor: Double = 1
    public var padding: Double = 0

    public init() {}
    public init(
        text: String, fontName: String = Self.defaults.fontName, fontSize: Double = Self.defaults.fontSize,
        scaleFactor: Double = Self.defaults.scaleFactor, padding: Double = Self.defaults.padding
    ) {
        self.text = text
        self.fontName = fontName
        self.fontSize = fontSize
        self.scaleFactor = scaleFactor
        self.padding = padding
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "TextImageGenerator", displayName: "Text Image", categories: [.generator, .video, .stillImage, .builtIn],
        description: "Renders text in a font, black on transparent.",
        parameters: [
            .string(\.text, "inputText", "The text; a newline starts a new line."),
            .string(\.fontName, "inputFontName", "A font name (PostScript or family) or a fontconfig pattern."),
            .scalar(
                \.fontSize, "inputFontSize", "The em size in points (pixels at scale 1).", min: 0, max: 2048, sliderMin: 2, sliderMax: 200),
            .scalar(\.scaleFactor, "inputScaleFactor", "Pixels per point.", min: 0, max: 16, sliderMax: 4),
            .integer(\.padding, "inputPadding", "Transparent pixels (points) around the text.", min: 0, max: 200),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let pixels = fontSize * scaleFactor
        guard pixels > 0 else { return Image.empty }
        let coverage = try TextRasterizer(fontName: fontName, pixelSize: pixels).render(
            text, padding: Int((padding * scaleFactor).rounded()))
        var buffer = try PixelBuffer(width: coverage.width, height: coverage.height, format: .rgba8, colorSpace: .sRGB)
        let bpr = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<coverage.height {
                for x in 0..<coverage.width { raw[y * bpr + x * 4 + 3] = coverage.alpha[y * coverage.width + x] }
            }
        }
        return Image(buffer: buffer, colorSpace: .sRGB)
    }
}
