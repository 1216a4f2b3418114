import DaguerreCore
import DaguerreImage
import Foundation

/// Turns `key=value` words from the command line into typed filter values. The key is matched
/// and the text read by the filter's declaration (``FilterDescriptor/parameter(named:)``,
/// ``FilterParameter/value(parsing:filter:)``), so `inputCenter=150,150` is a position and
/// `inputColor=1,0,0` a colour; image parameters name a file (`@bg.jpg`).
enum ParameterParsing {
    /// A size written WIDTHxHEIGHT ("4000x3000"), both positive.
    static func size(_ text: String, option: String) throws(DaguerreError) -> (width: Int, height: Int) {
        let dims = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard dims.count == 2, dims[0] > 0, dims[1] > 0 else {
            throw DaguerreError.invalidArgument(what: "\(option) \(text)", problem: "write it as WIDTHxHEIGHT, e.g. 4000x3000")
        }
        return (dims[0], dims[1])
    }

    static func parse(_ word: String, filter: FilterDescriptor) throws -> (String, FilterValue) {
        guard let eq = word.firstIndex(of: "=") else {
            throw DaguerreError.invalidArgument(what: "'\(word)'", problem: "filter parameters are written key=value, e.g. inputRadius=2")
        }
        let p = try filter.parameter(named: String(word[..<eq]))
        let raw = String(word[word.index(after: eq)...])
        if p.kind == .image {
            let path = raw.hasPrefix("@") ? String(raw.dropFirst()) : raw
            return (p.key, .image(try Image(contentsOf: URL(fileURLWithPath: path))))
        }
        return (p.key, try p.value(parsing: raw, filter: filter.name))
    }

    /// `image` through filter `d`; with `clampEdges`, a blur or sharpen of a finite image
    /// repeats its edge pixels and keeps its size (like vips) instead of fading at the edges.
    static func apply(_ d: FilterDescriptor, _ values: [String: FilterValue], to image: Image, clampEdges: Bool) throws(DaguerreError)
        -> Image
    {
        let spatial = d.categories.contains("CICategoryBlur") || d.categories.contains("CICategorySharpen")
        guard spatial, clampEdges, !image.extent.isInfinite else { return try image.applyingFilter(d.name, parameters: values) }
        return try image.clampedToExtent().applyingFilter(d.name, parameters: values).cropped(to: image.extent)
    }

    /// Splits `--filter` words into (name, parameters): a word without '=' starts a filter.
    static func chain(_ words: [String]) throws -> [(String, [String])] {
        var out: [(String, [String])] = []
        for w in words {
            if w.contains("=") {
                guard !out.isEmpty else {
                    throw DaguerreError.invalidArgument(what: "'\(w)'", problem: "a parameter must follow a filter name")
                }
                out[out.count - 1].1.append(w)
            } else {
                out.append((w, []))
            }
        }
        return out
    }
}
