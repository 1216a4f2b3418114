import ArgumentParser
import DaguerreCore
import DaguerreImage
import Foundation

/// `daguerre filters`: every filter with its parameters (CIFilter attributes).
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "filters", abstract: "List the filters and their parameters.")

    @Argument(help: "Show only this filter.") var name: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        var list = FilterRegistry.all
        if let name {
            do { list = [try FilterRegistry.descriptor(named: name)] } catch { throw error.commandError }
        }
        if json {
            let objects: [[String: Any]] = list.map { d in
                [
                    "name": d.name, "displayName": d.displayName, "categories": d.categories, "description": d.description,
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
            }
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
    }
}
