import DaguerreCore
import Foundation
import Synchronization

/// `DAGUERRE_PRINT_TREE` (K4; CI_PRINT_TREE): prints the graph of every render to stderr.
///
/// - `1`: the recipe as built, root first, with every source's colour space and the colour
///   matching the context inserts at the inputs and the output;
/// - `8`: the program as rendered: fused passes (each a chain of nodes that runs over one row
///   buffer), the per-tile intermediates between passes with their format and largest size,
///   and materialized nodes (image processors) on lines of their own with their digest;
/// - add `graphviz` (e.g. `DAGUERRE_PRINT_TREE="8 graphviz"`) to also write a `.dot` file to
///   `DAGUERRE_PRINT_TREE_DIR` (default: the temporary directory).
///
/// ```sh
/// DAGUERRE_PRINT_TREE=8 daguerre apply in.jpg -o out.jpg --filter GaussianBlur inputRadius=2
/// ```
struct TreePrinter {
    let levels: Set<Int>
    let graphviz: Bool
    private static let counter = Atomic<Int>(0)

    static func fromEnvironment() -> TreePrinter? {
        guard let raw = ProcessInfo.processInfo.environment["DAGUERRE_PRINT_TREE"], !raw.isEmpty else { return nil }
        let words = raw.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" })
        var levels = Set(words.compactMap { Int($0) })
        if levels.isEmpty { levels = [1] }
        return TreePrinter(levels: levels, graphviz: words.contains("graphviz") || words.contains("dot"))
    }

    // MARK: Level 1

    func printRecipe(_ root: ImageNode, output: String, env: RenderEnvironment) {
        guard levels.contains(1) else { return }
        var lines = [
            "DAGUERRE_PRINT_TREE=1 recipe → \(output), working space \(env.workingSpace?.name ?? "none (colour management off)"), format \(env.workingFormat)"
        ]
        let cm = env.workingSpace != nil
        lines.append(cm ? "colormatch workingspace → output" : "output (no colour matching)")
        func walk(_ n: ImageNode, _ depth: Int) {
            let pad = String(repeating: "  ", count: depth)
            var line = "\(pad)\(n.label)"
            if !n.details.isEmpty { line += " \(n.details)" }
            line += " extent \(n.extent)"
            if let f = n.outputFormat { line += " format \(f)" }
            if n.evaluation == .source, cm, let space = n.sourceColorSpace?.name {
                lines.append("\(pad)colormatch \(space) → workingspace")
                lines.append("  " + line)
            } else {
                lines.append(line)
            }
            for i in n.inputs { walk(i, depth + (n.evaluation == .source && cm ? 2 : 1)) }
        }
        walk(root, 1)
        emit(lines)
        if graphviz { writeDot(root, level: 1, passes: nil) }
    }

    // MARK: Level 8

    func printProgram(_ report: RenderReport) {
        guard levels.contains(8) else { return }
        emit(["DAGUERRE_PRINT_TREE=8 " + report.description])
        if graphviz { writeDot(nil, level: 8, passes: report.passes) }
    }

    private func emit(_ lines: [String]) {
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    // MARK: Graphviz

    private func writeDot(_ root: ImageNode?, level: Int, passes: [RenderReport.Pass]?) {
        var out = ["digraph daguerre {", "  rankdir=BT; node [shape=box, fontname=\"Helvetica\"];"]
        if let passes {
            for (id, p) in passes.enumerated() {
                out.append("  subgraph cluster_\(id) { label=\"pass \(id + 1) → \(esc(p.target))\";")
                for (i, n) in p.nodes.enumerated() { out.append("    p\(id)_\(i) [label=\"\(esc(n))\"];") }
                for i in 1..<max(1, p.nodes.count) { out.append("    p\(id)_\(i) -> p\(id)_\(i - 1);") }
                out.append("  }")
            }
        } else if let root {
            var ids: [ObjectIdentifier: Int] = [:]
            func id(_ n: ImageNode) -> Int {
                if let i = ids[ObjectIdentifier(n)] { return i }
                let i = ids.count
                ids[ObjectIdentifier(n)] = i
                out.append("  n\(i) [label=\"\(esc(n.label))\\n\(esc(n.details))\"];")
                for input in n.inputs {
                    let j = id(input)
                    out.append("  n\(j) -> n\(i);")
                }
                return i
            }
            _ = id(root)
        }
        out.append("}")
        let dir = ProcessInfo.processInfo.environment["DAGUERRE_PRINT_TREE_DIR"] ?? NSTemporaryDirectory()
        let n = TreePrinter.counter.wrappingAdd(1, ordering: .relaxed).newValue
        let path = (dir as NSString).appendingPathComponent("daguerre-tree-\(level)-\(getpid())-\(n).dot")
        if FileManager.default.createFile(atPath: path, contents: Data(out.joined(separator: "\n").utf8)) {
            emit(["DAGUERRE_PRINT_TREE graphviz: wrote \(path)"])
        }
    }
    private func esc(_ s: String) -> String { s.replacingOccurrences(of: "\"", with: "\\\"") }
}
