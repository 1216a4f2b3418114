import DaguerreCore
import DaguerreImage
import Foundation

/// `daguerre filters --gallery DIR`: every registered filter at its defaults on the standard
/// image (SPEC I4), so a person can judge the whole library at a glance. Writes
/// `filters/<Name>.png` (each result fitted to the standard frame, alpha kept), `contact-sheet.png`
/// (every result by category, a third of the size, over mid grey, named under it; each category
/// headed by its name, its rows below) and
/// `index.html` (the sheet, whose cells name their filter, then each filter by category with its
/// description and parameters). A filter that fails at its defaults gets a red cell and its error.
///
/// ```swift
/// let result = try FilterGallery(images: GalleryImages(width: 480, height: 360)).write(to: URL(fileURLWithPath: "gallery"))
/// print(result.rendered.count, result.failed)
/// ```
struct FilterGallery {
    let images: GalleryImages
    var columns = 10
    /// The contact sheet shows each result at 1 / `reduction` of the standard frame.
    var reduction = 3

    struct Result {
        var rendered: [String] = []
        var failed: [(name: String, message: String)] = []
    }

    /// The built filters grouped by the catalogue's categories in its order, then any filter the
    /// catalogue does not have.
    static func groups() -> [(category: String, filters: [FilterDescriptor])] {
        var groups: [(category: String, filters: [FilterDescriptor])] = []
        var placed = Set<String>()
        for entry in FilterCatalogue.entries {
            guard let d = try? FilterRegistry.descriptor(named: entry.name), placed.insert(d.name).inserted else { continue }
            let category = String(entry.category.rawValue.dropFirst("CICategory".count))
            if groups.last?.category == category { groups[groups.count - 1].filters.append(d) } else { groups.append((category, [d])) }
        }
        let others = FilterRegistry.all.filter { !placed.contains($0.name) }
        if !others.isEmpty { groups.append(("Daguerre", others)) }
        return groups
    }

    func write(to directory: URL) throws -> Result {
        let fm = FileManager.default
        let filtersDir = directory.appendingPathComponent("filters")
        do { try fm.createDirectory(at: filtersDir, withIntermediateDirectories: true) } catch {
            throw DaguerreError.io(operation: "create the gallery directory", path: filtersDir.path, reason: error.localizedDescription)
        }
        let context = try Context()
        let frame = images.extent
        let cellW = Int(frame.width) / reduction
        let cellH = Int(frame.height) / reduction
        let groups = Self.groups()
        let rows = groups.reduce(0) { $0 + ($1.filters.count + columns - 1) / columns }
        let gap = 4
        // Each cell has its filter's name under it, each category a heading above its rows.
        let label = TextRasterizer(fontName: "DejaVu Sans", pixelSize: 10)
        let heading = TextRasterizer(fontName: "DejaVu Sans:bold", pixelSize: 13)
        let labelH = 14
        let headingH = 20
        let rowH = cellH + labelH + gap
        var sheet = try PixelBuffer(
            width: columns * (cellW + gap) + gap, height: rows * rowH + (headingH + gap) * groups.count + gap, format: .rgb8)
        fill(&sheet, x: 0, y: 0, width: sheet.width, height: sheet.height, rgb: (32, 32, 32))

        var result = Result()
        var areas: [(name: String, x: Int, y: Int)] = []
        var y = gap
        for group in groups {
            draw(
                try heading.render("\(group.category) (\(group.filters.count))"), in: &sheet, x: gap, y: y + 3, maxWidth: sheet.width - gap)
            y += headingH
            for (i, d) in group.filters.enumerated() {
                let x = gap + (i % columns) * (cellW + gap)
                let cy = y + (i / columns) * rowH
                areas.append((d.name, x, cy))
                draw(try label.render(d.name), in: &sheet, x: x, y: cy + cellH + 1, maxWidth: cellW)
                do {
                    // Rendered once, in 16 bits; the page's PNG and the sheet's cell both come
                    // from that buffer.
                    let pixels = try context.createBuffer(try render(d), bounds: frame, format: .rgba16, colorSpace: .sRGB)
                    let out = Image(buffer: pixels, colorSpace: .sRGB).transformed(by: .init(translationX: frame.minX, y: frame.minY))
                    try context.writePNGRepresentation(
                        of: out, to: filtersDir.appendingPathComponent("\(d.name).png"), format: .rgba8, colorSpace: .sRGB)
                    let opaque = try context.createBuffer(
                        out.composited(over: Image(color: Color(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: frame)),
                        bounds: frame, format: .rgb8, colorSpace: .sRGB)
                    place(opaque, in: &sheet, x: x, y: cy)
                    result.rendered.append(d.name)
                } catch {
                    fill(&sheet, x: x, y: cy, width: cellW, height: cellH, rgb: (150, 20, 20))
                    result.failed.append((d.name, "\(error)"))
                }
            }
            y += ((group.filters.count + columns - 1) / columns) * rowH + gap
        }
        try context.writePNGRepresentation(
            of: Image(buffer: sheet, colorSpace: .sRGB), to: directory.appendingPathComponent("contact-sheet.png"), format: .rgb8,
            colorSpace: .sRGB)
        let html = page(
            groups: groups, areas: areas, cell: (cellW, cellH), failed: Dictionary(result.failed, uniquingKeysWith: { a, _ in a }))
        do { try Data(html.utf8).write(to: directory.appendingPathComponent("index.html"), options: .atomic) } catch {
            throw DaguerreError.io(operation: "write the gallery page", path: directory.path, reason: error.localizedDescription)
        }
        return result
    }

    /// `d` at its defaults on the gallery's images (and a sample message or text where there is no default), fitted to the standard frame: infinite
    /// results are cropped to it, others scaled to fit (nearest-neighbour when enlarged, so a
    /// reduction's few pixels stay visible as blocks).
    func render(_ d: FilterDescriptor) throws -> Image {
        var values: [String: FilterValue] = [:]
        // What has no default gets a sample: images, a code's message, the text of a text image.
        for p in d.parameters {
            switch p.kind {
            case .image: values[p.key] = .image(images.image(forKey: p.key))
            case .data: values[p.key] = .data(Array("https://example.org/daguerre".utf8))
            case .barcodeDescriptor: values[p.key] = .barcodeDescriptor(.example)
            case .string where p.key == "inputText": values[p.key] = .string("Daguerre")
            case .attributedText:
                let red = Color(red: 0.75, green: 0.1, blue: 0.1)
                values[p.key] = .attributedText(
                    AttributedText([.init("Dague", fontSize: 14, color: .white), .init("rre", fontSize: 20, color: red)]))
            default: break
            }
        }
        let out = try d.apply(values)
        let frame = images.extent
        if out.extent.isInfinite { return out.cropped(to: frame) }
        guard !out.extent.isEmpty else {
            throw DaguerreError.invalidArgument(what: d.name, problem: "its output at the defaults is empty")
        }
        if out.extent == frame { return out }
        let enlarging = out.extent.width < frame.width && out.extent.height < frame.height
        return GalleryImages.fit(out, into: frame, interpolation: enlarging ? .nearest : .lanczos).cropped(to: frame)
    }

    /// Averages `reduction`×`reduction` blocks of `cell` into the sheet at (x, y).
    private func place(_ cell: PixelBuffer, in sheet: inout PixelBuffer, x: Int, y: Int) {
        let r = reduction
        let w = cell.width / r
        let h = cell.height / r
        let sbpr = sheet.bytesPerRow
        cell.withUnsafeBytes { src in
            sheet.withUnsafeMutableBytes { dst in
                for j in 0..<h {
                    for i in 0..<w {
                        for c in 0..<3 {
                            var sum = 0
                            for dy in 0..<r { for dx in 0..<r { sum += Int(src[(j * r + dy) * cell.bytesPerRow + (i * r + dx) * 3 + c]) } }
                            dst[(y + j) * sbpr + (x + i) * 3 + c] = UInt8((sum + r * r / 2) / (r * r))
                        }
                    }
                }
            }
        }
    }

    /// Text coverage drawn in light grey over the sheet, clipped to `maxWidth`.
    private func draw(_ text: TextRasterizer.Coverage, in sheet: inout PixelBuffer, x: Int, y: Int, maxWidth: Int) {
        let bpr = sheet.bytesPerRow
        let w = min(text.width, maxWidth, sheet.width - x)
        let h = min(text.height, sheet.height - y)
        guard w > 0, h > 0 else { return }
        sheet.withUnsafeMutableBytes { dst in
            for j in 0..<h {
                for i in 0..<w {
                    let a = Int(text.alpha[j * text.width + i])
                    guard a > 0 else { continue }
                    for c in 0..<3 {
                        let o = (y + j) * bpr + (x + i) * 3 + c
                        dst[o] = UInt8((Int(dst[o]) * (255 - a) + 225 * a + 127) / 255)
                    }
                }
            }
        }
    }

    private func fill(_ sheet: inout PixelBuffer, x: Int, y: Int, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) {
        let bpr = sheet.bytesPerRow
        sheet.withUnsafeMutableBytes { dst in
            for j in y..<(y + height) {
                for i in x..<(x + width) {
                    dst[j * bpr + i * 3] = rgb.0
                    dst[j * bpr + i * 3 + 1] = rgb.1
                    dst[j * bpr + i * 3 + 2] = rgb.2
                }
            }
        }
    }

    private func page(
        groups: [(category: String, filters: [FilterDescriptor])], areas: [(name: String, x: Int, y: Int)], cell: (Int, Int),
        failed: [String: String]
    ) -> String {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: ">", with: "&gt;"
            ).replacingOccurrences(of: "\"", with: "&quot;")
        }
        let count = groups.reduce(0) { $0 + $1.filters.count }
        var h = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Daguerre filters</title>
            <style>body{font-family:sans-serif;background:#202020;color:#ddd;margin:2em}figure{display:inline-block;vertical-align:top;width:\(cell.0 * 2)px;margin:0 1em 1.5em 0}
            img.f{width:\(cell.0 * 2)px;background:repeating-conic-gradient(#777 0 25%,#999 0 50%) 0 0/16px 16px}figcaption{font-size:12px}
            .err{color:#f88}code{color:#9cf}</style></head><body>
            <h1>Daguerre: \(count) filters at their defaults</h1>
            <p>Each on the standard image; masks, backgrounds and transition targets get a radial mask or the mirrored image.
            The contact sheet names each cell on hover; the sections below give each filter's parameters.</p>
            <img src="contact-sheet.png" usemap="#sheet" alt="contact sheet"><map name="sheet">

            """
        for a in areas {
            h +=
                "<area shape=\"rect\" coords=\"\(a.x),\(a.y),\(a.x + cell.0),\(a.y + cell.1)\" href=\"#\(a.name)\" title=\"\(a.name)\" alt=\"\(a.name)\">\n"
        }
        h += "</map>\n"
        for group in groups {
            h += "<h2>\(esc(group.category)) (\(group.filters.count))</h2>\n"
            for d in group.filters {
                let params = d.parameters.filter { $0.kind != .image }.map { p in
                    "<code>\(esc(p.key))</code> = \(esc(p.defaultValue.map { "\($0)" } ?? "none"))"
                }
                h += "<figure id=\"\(d.name)\">"
                if let message = failed[d.name] {
                    h += "<p class=\"err\">failed: \(esc(message))</p>"
                } else {
                    h += "<img class=\"f\" src=\"filters/\(d.name).png\" alt=\"\(d.name)\">"
                }
                h += "<figcaption><b>\(d.name)</b>: \(esc(d.description))<br>\(params.joined(separator: "<br>"))</figcaption></figure>\n"
            }
        }
        return h + "</body></html>\n"
    }
}
