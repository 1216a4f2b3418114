import DaguerreCore

extension TextRasterizer {
    /// `text` laid out and rasterized run by run, each in its own font, size and colour: lines
    /// break at `\n` in any run; a line's runs share a baseline, placed under the line's tallest
    /// ascender, and each line is as tall as its tallest run's line height. `scale` is pixels per
    /// point; `padding` pixels surround the text. The result is premultiplied sRGB, float.
    public static func render(
        _ text: AttributedText, scale: Double, padding: Int = 0, limits: Limits = .default
    ) throws(DaguerreError) -> PixelBuffer {
        guard text.string.count <= maxCharacters else {
            throw .tooLarge(what: "Text for AttributedTextImageGenerator (characters)", value: text.string.count, limit: maxCharacters)
        }
        guard padding >= 0, padding <= 10_000 else {
            throw .invalidArgument(what: "Text padding \(padding)", problem: "it must be 0…10000 pixels")
        }
        guard text.runs.count <= 10_000 else {
            throw .tooLarge(what: "Attributed text (runs)", value: text.runs.count, limit: 10_000)
        }
        // One face per distinct font and size.
        var faces: [String: FontFace] = [:]
        var runFaces: [FontFace] = []
        for run in text.runs {
            let key = "\(run.fontName)|\(run.fontSize * scale)"
            let face: FontFace
            if let known = faces[key] { face = known } else { face = try FontFace(fontName: run.fontName, pixelSize: run.fontSize * scale) }
            faces[key] = face
            runFaces.append(face)
        }
        // Lines of segments (run index, shaped glyphs, pen start).
        struct Segment {
            let run: Int
            let glyphs: [FontFace.Glyph]
            let x: Int
        }
        var lines: [(segments: [Segment], advance: Int, ascender: Int, height: Int)] = [([], 0, 0, 0)]
        for (r, run) in text.runs.enumerated() {
            let face = runFaces[r]
            for (k, piece) in run.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if k > 0 { lines.append(([], 0, 0, 0)) }
                let shaped = try face.shape(piece)
                var line = lines.removeLast()
                line.segments.append(Segment(run: r, glyphs: shaped.glyphs, x: line.advance))
                line.advance += shaped.advance
                line.ascender = max(line.ascender, face.ascender)
                line.height = max(line.height, face.lineHeight)
                lines.append(line)
            }
        }
        let textWidth = ((lines.map(\.advance).max() ?? 0) + 63) / 64
        let textHeight = (lines.map(\.height).reduce(0, +) + 63) / 64
        let width = max(1, textWidth + 2 * padding)
        let height = max(1, textHeight + 2 * padding)
        try limits.check(width: width, height: height, bytesPerPixel: 16, what: "Text image")
        // Premultiplied sRGB, drawn straight into the result: coverage adds, saturating, and
        // each run's colour is weighted by the coverage it added.
        var buffer = try PixelBuffer(width: width, height: height, format: .rgbaf, colorSpace: .sRGB, limits: limits)
        let colors = text.runs.map { run -> SIMD4<Float> in
            let c = run.color
            let rgb = c.colorSpace.convert(SIMD3(c.red, c.green, c.blue), to: .sRGB) ?? SIMD3(c.red, c.green, c.blue)
            return SIMD4(Float(rgb.x), Float(rgb.y), Float(rgb.z), Float(max(0, min(1, c.alpha))))
        }
        let bpr = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            var top = padding * 64
            for line in lines {
                let baseline = top + line.ascender
                for segment in line.segments {
                    let color = colors[segment.run]
                    for g in segment.glyphs {
                        runFaces[segment.run].draw(g, x: padding * 64 + segment.x, baseline: baseline, width: width, height: height) {
                            x, y, c in
                            let offset = y * bpr + x * 16
                            let p = raw.load(fromByteOffset: offset, as: SIMD4<Float>.self)
                            let new = min(1, p.w + Float(c) / 255 * color.w)
                            let added = new - p.w
                            let out = SIMD4(p.x + color.x * added, p.y + color.y * added, p.z + color.z * added, new)
                            raw.storeBytes(of: out, toByteOffset: offset, as: SIMD4<Float>.self)
                        }
                    }
                }
                top += line.height
            }
        }
        return buffer
    }
}
