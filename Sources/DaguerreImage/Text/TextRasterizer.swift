// Text to pixels for TextImageGenerator (SPEC I4): fontconfig picks the installed font that best
// matches a name (PostScript or family, "HelveticaNeue" or "DejaVu Sans:bold"), HarfBuzz shapes
// each line (kerning, ligatures, marks, right-to-left and complex scripts), and FreeType
// rasterizes the glyphs with anti-aliasing (see FontFace). Only the placing of glyph bitmaps
// into one coverage image is ours.
import CText
import DaguerreCore
import Foundation

/// Lays out and rasterizes text: one line per `\n`, each shaped by HarfBuzz, placed on
/// baselines one FreeType line height apart, into an 8-bit coverage (alpha) image with
/// `padding` pixels on every side.
///
/// ```swift
/// let text = try TextRasterizer(fontName: "HelveticaNeue", pixelSize: 24).render("Daguerre", padding: 2)
/// print(text.width, text.height, text.fontFile)
/// ```
public struct TextRasterizer: Sendable {
    /// The rendered coverage: `width`×`height` bytes, rows top to bottom, 255 = fully inside a glyph.
    public struct Coverage: Sendable {
        public let width: Int
        public let height: Int
        public let alpha: [UInt8]
        /// The font file fontconfig chose, and its family.
        public let fontFile: String
        public let fontFamily: String
        /// The font's ascender and the distance between baselines, in pixels.
        public let ascender: Double
        public let lineHeight: Double
    }

    public let fontName: String
    /// The em size in pixels (Core Image's font size times its scale factor).
    public let pixelSize: Double

    public init(fontName: String, pixelSize: Double) {
        self.fontName = fontName
        self.pixelSize = pixelSize
    }

    /// The largest em size accepted, in pixels.
    public static let maxPixelSize = 2048.0
    /// The most characters one render takes.
    public static let maxCharacters = 100_000

    public func render(_ text: String, padding: Int = 0, limits: Limits = .default) throws(DaguerreError) -> Coverage {
        guard text.count <= Self.maxCharacters else {
            throw .tooLarge(what: "Text for TextImageGenerator (characters)", value: text.count, limit: Self.maxCharacters)
        }
        guard padding >= 0, padding <= 10_000 else {
            throw .invalidArgument(what: "Text padding \(padding)", problem: "it must be 0…10000 pixels")
        }
        let font = try FontFace(fontName: fontName, pixelSize: pixelSize)
        var lines: [(glyphs: [FontFace.Glyph], advance: Int)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { lines.append(try font.shape(line)) }

        // The image: the widest line's advance by the lines' height, plus padding.
        let textWidth = ((lines.map(\.advance).max() ?? 0) + 63) / 64
        let textHeight = (font.lineHeight * (lines.count - 1) + font.ascender - font.descender + 63) / 64
        let width = max(1, textWidth + 2 * padding)
        let height = max(1, textHeight + 2 * padding)
        try limits.check(width: width, height: height, bytesPerPixel: 16, what: "Text image")
        var alpha = [UInt8](repeating: 0, count: width * height)
        for (row, line) in lines.enumerated() {
            let baseline = padding * 64 + font.ascender + row * font.lineHeight  // 26.6, down from the top
            for g in line.glyphs {
                // Overlapping glyphs (marks, kerned pairs): coverage adds, saturating.
                font.draw(g, x: padding * 64, baseline: baseline, width: width, height: height) { x, y, c in
                    alpha[y * width + x] = UInt8(min(255, Int(alpha[y * width + x]) + Int(c)))
                }
            }
        }
        return Coverage(
            width: width, height: height, alpha: alpha, fontFile: font.file, fontFamily: font.family,
            ascender: Double(font.ascender) / 64, lineHeight: Double(font.lineHeight) / 64)
    }

    /// The fontconfig pattern for a font name as Apple writes it: a PostScript name's style
    /// suffix becomes a style ("Helvetica-Bold" → "Helvetica:style=Bold"), and Helvetica Neue,
    /// Core Image's default, asks for Helvetica, whose metric-compatible clone (URW's Nimbus
    /// Sans) fontconfig knows. Names with a colon are fontconfig patterns already.
    static func pattern(for name: String) -> String {
        guard !name.contains(":") else { return name }
        var family = name
        var style: String?
        if let dash = name.lastIndex(of: "-"), dash != name.startIndex, name.index(after: dash) != name.endIndex {
            family = String(name[..<dash])
            style = String(name[name.index(after: dash)...])
        }
        if family == "HelveticaNeue" || family == "Helvetica Neue" { family = "Helvetica" }
        return style.map { "\(family):style=\($0)" } ?? family
    }

    /// The matches made so far, by the name asked for (fontconfig's matching is the slow part of
    /// a small render; a gallery or a title per video frame asks for the same font again and
    /// again). Only read and written under `FontFace.lock`.
    nonisolated(unsafe) private static var matches: [String: (String, Int32, String)] = [:]

    /// fontconfig's best match for `name`: a file, a face index and the family name.
    static func match(_ given: String) throws(DaguerreError) -> (String, Int32, String) {
        let name = pattern(for: given)
        FontFace.lock.lock()
        defer { FontFace.lock.unlock() }
        if let known = matches[name] { return known }
        guard FcInit() != 0, let config = FcConfigGetCurrent() else {
            throw .unsupported(
                feature: "fontconfig", hint: "fontconfig could not load its configuration; install fontconfig and a font")
        }
        let parsed = name.withCString { FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        guard let pattern = parsed else {
            throw .invalidArgument(
                what: "Font name '\(name)'", problem: "fontconfig cannot parse it; give a family such as \"DejaVu Sans\"")
        }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = FcFontMatch(config, pattern, &result) else {
            throw .unsupported(feature: "Text in '\(name)'", hint: "fontconfig finds no font at all; install one (fonts-dejavu-core)")
        }
        defer { FcPatternDestroy(font) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else {
            throw .unsupported(feature: "Text in '\(name)'", hint: "fontconfig's match has no file")
        }
        var index: Int32 = 0
        _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
        var family: UnsafeMutablePointer<FcChar8>?
        let familyName = FcPatternGetString(font, FC_FAMILY, 0, &family) == FcResultMatch ? family.map { String(cString: $0) } : nil
        let found = (String(cString: file), index, familyName ?? "?")
        if matches.count < 64 { matches[name] = found }
        return found
    }
}
