// One font at one size for the text rasterizers (SPEC I4): fontconfig's match opened by
// FreeType, shaped by HarfBuzz, glyphs rendered by FreeType with anti-aliasing. Only the
// bookkeeping around those libraries is ours.
import CText
import DaguerreCore
import Foundation

/// A font opened at a pixel size: shapes a line into positioned glyphs and renders each glyph's
/// coverage where it falls. Positions are in 26.6 fixed point (1/64 pixel).
final class FontFace {
    struct Glyph {
        let id: UInt32
        let x: Int  // 26.6, from the line's start
        let y: Int  // 26.6, up from the baseline
    }

    let file: String
    let family: String
    /// Ascender (positive), descender (negative) and the distance between baselines, 26.6.
    let ascender: Int
    let descender: Int
    let lineHeight: Int
    private let library: FT_Library
    private let face: FT_Face
    private let hbFont: OpaquePointer

    /// fontconfig and FreeType's face loading are called under this lock (fontconfig's
    /// configuration is process-wide).
    static let lock = NSLock()

    init(fontName: String, pixelSize: Double) throws(DaguerreError) {
        guard pixelSize.isFinite, pixelSize > 0, pixelSize <= TextRasterizer.maxPixelSize else {
            throw .invalidArgument(
                what: "Text size \(pixelSize) px", problem: "it must be more than 0 and at most \(Int(TextRasterizer.maxPixelSize)) pixels")
        }
        let (file, index, family) = try TextRasterizer.match(fontName)
        var libraryOut: FT_Library?
        guard FT_Init_FreeType(&libraryOut) == 0, let library = libraryOut else {
            throw .unsupported(feature: "FreeType", hint: "FreeType could not start (out of memory?)")
        }
        var faceOut: FT_Face?
        Self.lock.lock()
        let opened = FT_New_Face(library, file, FT_Long(index), &faceOut)
        Self.lock.unlock()
        guard opened == 0, let face = faceOut else {
            FT_Done_FreeType(library)
            throw .corruptData(format: "font", detail: "FreeType cannot open it (error \(opened))", path: file)
        }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw .unsupported(
                feature: "Text at \(pixelSize) px in \(family)", hint: "the font has no size near it (a bitmap font?); choose another font")
        }
        guard let hbFont = hb_ft_font_create_referenced(face) else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw .unsupported(feature: "HarfBuzz", hint: "HarfBuzz could not make a font (out of memory?)")
        }
        let metrics = face.pointee.size.pointee.metrics
        (self.file, self.family, self.library, self.face, self.hbFont) = (file, family, library, face, hbFont)
        ascender = Int(metrics.ascender)
        descender = Int(metrics.descender)
        lineHeight = max(Int(metrics.height), Int(metrics.ascender) - Int(metrics.descender))
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// `text` (one line) shaped: its glyphs with their pen positions, and its advance.
    func shape(_ text: Substring) throws(DaguerreError) -> (glyphs: [Glyph], advance: Int) {
        guard let buffer = hb_buffer_create() else { throw .unsupported(feature: "HarfBuzz", hint: "out of memory") }
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
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
        return (glyphs, pen)
    }

    /// Renders `g` with its pen at `x` (26.6, from the image's left edge) on the baseline
    /// `baseline` (26.6, down from the top), at its sub-pixel position so its coverage lands
    /// exactly, and hands each covered pixel inside `width`×`height` to `put(x, y, coverage)`.
    func draw(_ g: Glyph, x: Int, baseline: Int, width: Int, height: Int, _ put: (Int, Int, UInt8) -> Void) {
        let ox = (x + g.x) & 63
        let oy = (baseline - g.y) & 63
        var delta = FT_Vector(x: FT_Pos(ox), y: FT_Pos(-oy))
        FT_Set_Transform(face, nil, &delta)
        guard FT_Load_Glyph(face, g.id, FT_Int32(FT_LOAD_DEFAULT)) == 0,
            FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0
        else { return }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        guard let pixels = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return }
        let left = (x + g.x - ox) / 64 + Int(slot.bitmap_left)
        let top = (baseline - g.y - oy) / 64 - Int(slot.bitmap_top)
        for by in 0..<Int(bitmap.rows) {
            let py = top + by
            guard py >= 0, py < height else { continue }
            let src = pixels + by * Int(bitmap.pitch)
            for bx in 0..<Int(bitmap.width) {
                let px = left + bx
                guard px >= 0, px < width, src[bx] != 0 else { continue }
                put(px, py, src[bx])
            }
        }
    }
}
