// Area-average reduction of 8-bit previews to RGB8: EXIF thumbnails and DNG previews.
import DaguerreCore

/// Shrinks an 8-bit RGB, RGBA or BGRA buffer to fit a box, averaging the source pixels each
/// output pixel covers, and drops alpha.
///
/// Previews embedded in files are small and made once per photo, so a plain scalar area
/// average is enough (the engine's Lanczos would pull DaguerreImage into the formats layer).
///
/// ```swift
/// let thumb = try PreviewScaler.fit(preview, maxWidth: 160, maxHeight: 120)   // RGB8
/// ```
public enum PreviewScaler {
    public static func fit(_ source: PixelBuffer, maxWidth: Int, maxHeight: Int) throws(DaguerreError) -> PixelBuffer {
        let f = source.format
        guard f.component == .uint8, [.rgb, .rgba, .bgra].contains(f.layout) else {
            throw .unsupported(feature: "previews in \(f)", hint: "Give the preview as 8-bit RGB, RGBA or BGRA.")
        }
        guard maxWidth > 0, maxHeight > 0 else {
            throw .invalidArgument(what: "preview box \(maxWidth)×\(maxHeight)", problem: "must be positive")
        }
        let scale = min(1, min(Double(maxWidth) / Double(source.width), Double(maxHeight) / Double(source.height)))
        let w = max(1, Int((Double(source.width) * scale).rounded()))
        let h = max(1, Int((Double(source.height) * scale).rounded()))
        var out = try PixelBuffer(width: w, height: h, format: .rgb8, colorSpace: source.colorSpace, alpha: .straight)
        let bpp = f.bytesPerPixel
        let (ri, bi) = f.layout == .bgra ? (2, 0) : (0, 2)
        let stride = out.bytesPerRow
        out.withUnsafeMutableBytes { dst in
            for y in 0..<h {
                let y0 = y * source.height / h
                let y1 = max(y0 + 1, (y + 1) * source.height / h)
                for x in 0..<w {
                    let x0 = x * source.width / w
                    let x1 = max(x0 + 1, (x + 1) * source.width / w)
                    var r = 0
                    var g = 0
                    var b = 0
                    for sy in y0..<y1 {
                        let row = source.rowAddress(sy).assumingMemoryBound(to: UInt8.self)
                        for sx in x0..<x1 {
                            let p = row + sx * bpp
                            r += Int(p[ri])
                            g += Int(p[1])
                            b += Int(p[bi])
                        }
                    }
                    let n = (y1 - y0) * (x1 - x0)
                    let o = y * stride + x * 3
                    dst[o] = UInt8((r + n / 2) / n)
                    dst[o + 1] = UInt8((g + n / 2) / n)
                    dst[o + 2] = UInt8((b + n / 2) / n)
                }
            }
        }
        return out
    }
}
