import DaguerreCore

/// Text with fonts, sizes and colours as an image (CIAttributedTextImageGenerator; SPEC I4):
/// each run of `text` in the installed font that best matches its font name (fontconfig),
/// shaped by HarfBuzz and rasterized by FreeType at its size × `scaleFactor` pixels to the em,
/// in its colour with anti-aliased alpha on a transparent background. Lines break at newlines;
/// a line's runs share one baseline. The extent starts at (0, 0) and holds every line, with
/// `padding` × `scaleFactor` pixels on every side. Of NSAttributedString's attributes, the font
/// and the foreground colour are drawn (see ``AttributedText``); by name the text is a plain
/// string or JSON runs.
///
/// ```swift
/// let title = try AttributedTextImageGenerator(
///     text: AttributedText([.init("Dague", fontSize: 40), .init("rre", fontSize: 40, color: Color(red: 0.8, green: 0.1, blue: 0.1))])
/// ).outputImage()
/// ```
public struct AttributedTextImageGenerator: Filter {
    public var text = AttributedText("")
    public var scaleFactor: Double = 1
    public var padding: Double = 0

    public init() {}
    public init(text: AttributedText, scaleFactor: Double = Self.defaults.scaleFactor, padding: Double = Self.defaults.padding) {
        (self.text, self.scaleFactor, self.padding) = (text, scaleFactor, padding)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AttributedTextImageGenerator", displayName: "Attributed Text Image",
        categories: [.generator, .video, .stillImage, .builtIn],
        description: "Renders text whose runs have their own fonts, sizes and colours.",
        parameters: [
            .attributedText(\.text, "inputText", "The text in runs: a plain string, or JSON [{\"text\", \"font\", \"size\", \"color\"}]."),
            .scalar(\.scaleFactor, "inputScaleFactor", "Pixels per point.", min: 0, max: 16, sliderMax: 4),
            .integer(\.padding, "inputPadding", "Transparent pixels (points) around the text.", min: 0, max: 200),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        guard scaleFactor > 0, !text.runs.isEmpty else { return Image.empty }
        for run in text.runs where !(run.fontSize > 0 && run.fontSize * scaleFactor <= TextRasterizer.maxPixelSize) {
            throw Self.invalid(
                \.text, "a run's size \(run.fontSize) pt at scale \(scaleFactor) is not 0…\(Int(TextRasterizer.maxPixelSize)) pixels")
        }
        let buffer = try TextRasterizer.render(text, scale: scaleFactor, padding: Int((padding * scaleFactor).rounded()))
        return Image(buffer: buffer, colorSpace: .sRGB)
    }
}
