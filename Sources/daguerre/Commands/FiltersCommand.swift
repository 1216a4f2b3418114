import ArgumentParser
import DaguerreCore
import DaguerreImage
import Foundation

/// `daguerre filters`: every filter with its parameters (CIFilter attributes), and the rest of
/// Core Image's catalogue: what is not built yet, and what some filters would need.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the filters and their parameters, and Core Image's filters that are not built.")

    @Argument(help: "Show only this filter.") var name: String?
    @Flag(help: "Print JSON: every Core Image filter, built (\"built\": true) or not, with its category and parameters.") var json =
        false
    @Option(
        help: ArgumentHelp(
            "Write a gallery to this directory: every filter at its defaults (index.html, contact-sheet.png, filters/NAME.png).",
            valueName: "dir")) var gallery: String?
    @Option(
        help: ArgumentHelp(
            "With --gallery: the standard image's size (each filter renders at it; the sheet shows a third).", valueName: "WxH"))
    var size = "480x360"
    @Option(help: ArgumentHelp("With --gallery: a photo to use instead of the studio test scene.", valueName: "file")) var input: String?

    func run() throws {
        if let gallery {
            let images: GalleryImages
            do {
                let dims = try ParameterParsing.size(size, option: "--size")
                images = try GalleryImages(width: dims.width, height: dims.height, photo: input.map { URL(fileURLWithPath: $0) })
            } catch {
                throw error.commandError
            }
            let result = try FilterGallery(images: images).write(to: URL(fileURLWithPath: gallery))
            print("gallery: \(result.rendered.count) filters rendered into \(gallery)/index.html and contact-sheet.png")
            for f in result.failed { print("  \(f.name) failed at its defaults: \(f.message)") }
            guard result.failed.isEmpty else { throw CommandFailure(message: "\(result.failed.count) filters failed at their defaults") }
            return
        }
        var list = FilterRegistry.all
        var missing = FilterCatalogue.entries.filter { entry in !FilterRegistry.names.contains(entry.name) }
        if let name {
            do {
                list = [try FilterRegistry.descriptor(named: name)]
                missing = []
            } catch {
                guard let entry = FilterCatalogue.entry(named: name) else { throw error.commandError }
                list = []
                missing = [entry]
            }
        }
        if json {
            let objects: [[String: Any]] =
                list.map { d in
                    [
                        "name": d.name, "displayName": d.displayName, "categories": d.categories, "description": d.description,
                        "built": true,
                        "parameters": d.parameters.map { p -> [String: Any] in
                            var o: [String: Any] = ["key": p.key, "type": p.kind.rawValue, "description": p.description]
                            if let v = p.defaultValue { o["default"] = v.description }
                            if let v = p.min { o["min"] = v }
                            if let v = p.max { o["max"] = v }
                            if let v = p.sliderMin { o["sliderMin"] = v }
                            if let v = p.sliderMax { o["sliderMax"] = v }
                            return o
                        },
                    ]
                } + missing.map(Self.json)
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for d in list {
            print("\(d.name) — \(d.description)")
            print("  categories: \(d.categories.joined(separator: ", "))")
            for p in d.parameters {
                var line = "  \(p.key) (\(p.kind.rawValue))"
                if let v = p.defaultValue { line += " default \(v)" }
                if p.min != nil || p.max != nil { line += " range \(p.min.map { "\($0)" } ?? "−∞")…\(p.max.map { "\($0)" } ?? "∞")" }
                print(line + ": \(p.description)")
            }
        }
        guard !missing.isEmpty else { return }
        print(
            name == nil
                ? "\nCore Image's filters not built yet (\(missing.count) of \(FilterCatalogue.entries.count)):"
                : "\(missing[0].name): not built")
        for category in Dictionary(grouping: missing, by: \.category.rawValue).sorted(by: { $0.key < $1.key }) {
            print("  \(category.key): \(category.value.map(\.name).joined(separator: ", "))")
        }
        for entry in missing { if let needs = entry.needs { print("  \(entry.name) needs \(needs).") } }
    }

    /// A catalogue filter that is not built, as `--json` lists it.
    static func json(_ entry: FilterCatalogue.Entry) -> [String: Any] {
        var o: [String: Any] = [
            "name": entry.name, "categories": [entry.category.rawValue], "built": false, "iOS": entry.iOS, "macOS": entry.macOS,
            "flags": entry.flags.map(\.rawValue).sorted(),
            "parameters": entry.inputs.map { input -> [String: Any] in
                var p: [String: Any] = ["key": input.key, "type": input.type]
                if let v = input.defaultText { p["default"] = v }
                if let v = input.min { p["min"] = v }
                if let v = input.max { p["max"] = v }
                return p
            },
        ]
        if let needs = entry.needs { o["needs"] = needs }
        return o
    }
}
