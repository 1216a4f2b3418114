// Text to pixels for TextImageGenerator (SPEC I4): fontconfig picks the installed font that best
// matches a name (PostScript or family, "HelveticaNeue" or "DejaVu Sans:bold"), HarfBuzz shapes
// each line (kerning, ligatures, marks, right-to-left and complex scripts), and FreeType
// rasterizes the glyphs with anti-aliasing. Only the placing of glyph bitmaps into one coverage
// image is ours.
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

    /// fontconfig and FreeType's face loading are called under this lock (fontconfig's
    /// configuration is process-wide).
    private static let lock = NSLock()

    public func render(_ text: String, padding: Int = 0, limits: Limits = .default) throws(DaguerreError) -> Coverage {
        guard pixelSize.isFinite, pixelSize > 0, pixelSize <= Self.maxPixelSize else {
            throw .invalidArgument(
                what: "Text size \(pixelSize) px", problem: "it must be more than 0 and at most \(Int(Self.maxPixelSize)) pixels")
        }
        guard text.count <= Self.maxCharacters else {
            throw .tooLarge(what: "Text for TextImageGenerator (characters)", value: text.count, limit: Self.maxCharacters)
        }
        guard padding >= 0, padding <= 10_000 else {
            throw .invalidArgument(what: "Text padding \(padding)", problem: "it must be 0…10000 pixels")
        }
        let (file, index, family) = try Self.match(fontName)
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw .unsupported(feature: "FreeType", hint: "FreeType could not start (out of memory?)")
        }
        defer { FT_Done_FreeType(library) }
        var faceOut: FT_Face?
        Self.lock.lock()
        let opened = FT_New_Face(library, file, FT_Long(index), &faceOut)
        Self.lock.unlock()
        guard opened == 0, let face = faceOut else {
            throw .corruptData(format: "font", detail: "FreeType cannot open it (error \(opened))", path: file)
        }
        defer { FT_Done_Face(face) }
        let size26 = FT_F26Dot6((pixelSize * 64).rounded())
        guard FT_Set_Char_Size(face, 0, size26, 72, 72) == 0 else {
            throw .unsupported(
                feature: "Text at \(pixelSize) px in \(family)", hint: "the font has no size near it (a bitmap font?); choose another font")
        }
        guard let hbFont = hb_ft_font_create_referenced(face) else {
            throw .unsupported(feature: "HarfBuzz", hint: "HarfBuzz could not make a font (out of memory?)")
        }
        defer { hb_font_destroy(hbFont) }

        // Shape each line: glyphs with their pen positions in 26.6 pixels.
        struct Glyph {
            let id: UInt32
            let x: Int  // 26.6, from the line's start
            let y: Int  // 26.6, up from the baseline
        }
        let metrics = face.pointee.size.pointee.metrics
        let ascender = Int(metrics.ascender)
        let descender = Int(metrics.descender)  // negative
        let lineHeight = max(Int(metrics.height), ascender - descender)
        var lines: [(glyphs: [Glyph], advance: Int)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let buffer = hb_buffer_create() else { throw .unsupported(feature: "HarfBuzz", hint: "out of memory") }
            defer { hb_buffer_destroy(buffer) }
            let utf8 = Array(line.utf8)
            utf8.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { c in hb_buffer_add_utf8(buffer, c.baseAddress, Int32(c.count), 0, Int32(c.count)) }
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(hbFont, buffer, nil, 0)
            var count: UInt32 = 0
            let infos = hb_buffer_get_glyph_infos(buffer, &count)
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
            var glyphs: [Glyph] = []
            var pen = 0
            var penY = 0
            if let infos, let positions {
                for i in 0..<Int(count) {
                    let p = positions[i]
                    glyphs.append(Glyph(id: infos[i].codepoint, x: pen + Int(p.x_offset), y: penY + Int(p.y_offset)))
                    pen += Int(p.x_advance)
                    penY += Int(p.y_advance)
                }
            }
            lines.append((glyphs, pen))
        }

        // The image: the widest line's advance by the lines' height, plus padding.
        let textWidth = ((lines.map(\.advance).max() ?? 0) + 63) / 64
        let textHeight = (lineHeight * (lines.count - 1) + ascender - descender + 63) / 64
        let width = max(1, textWidth + 2 * padding)
        let height = max(1, textHeight + 2 * padding)
        try limits.check(width: width, height: height, bytesPerPixel: 16, what: "Text image")
        var alpha = [UInt8](repeating: 0, count: width * height)
        for (row, line) in lines.enumerated() {
            let baseline = padding * 64 + ascender + row * lineHeight  // 26.6, down from the top
            for g in line.glyphs {
                // Each glyph rendered at its sub-pixel position, so its coverage lands exactly.
                let ox = (padding * 64 + g.x) & 63
                let oy = (baseline - g.y) & 63
                var delta = FT_Vector(x: FT_Pos(ox), y: FT_Pos(-oy))
                FT_Set_Transform(face, nil, &delta)
                guard FT_Load_Glyph(face, g.id, FT_Int32(FT_LOAD_DEFAULT)) == 0,
                    FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0
                else { continue }
                let slot = face.pointee.glyph.pointee
                let bitmap = slot.bitmap
                guard let pixels = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { continue }
                let left = (padding * 64 + g.x - ox) / 64 + Int(slot.bitmap_left)
                let top = (baseline - g.y - oy) / 64 - Int(slot.bitmap_top)
                for by in 0..<Int(bitmap.rows) {
                    let y = top + by
                    guard y >= 0, y < height else { continue }
                    let src = pixels + by * Int(bitmap.pitch)
                    for bx in 0..<Int(bitmap.width) {
                        let x = left + bx
                        guard x >= 0, x < width else { continue }
                        // Overlapping glyphs (marks, kerned pairs): coverage adds, saturating.
                        let sum = Int(alpha[y * width + x]) + Int(src[bx])
                        alpha[y * width + x] = UInt8(min(255, sum))
                    }
                }
            }
        }
        return Coverage(
            width: width, height: height, alpha: alpha, fontFile: file, fontFamily: family, ascender: Double(ascender) / 64,
            lineHeight: Double(lineHeight) / 64)
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
    /// again). Only read and written under `lock`.
    nonisolated(unsafe) private static var matches: [String: (String, Int32, String)] = [:]

    /// fontconfig's best match for `name`: a file, a face index and the family name.
    static func match(_ given: String) throws(DaguerreError) -> (String, Int32, String) {
        let name = pattern(for: given)
        lock.lock()
        defer { lock.unlock() }
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
