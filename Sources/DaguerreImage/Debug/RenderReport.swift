import DaguerreCore
import Foundation

/// What a render did, as rendered (K4 level 8, programmatically): its fused passes, the per-tile
/// intermediates between them, materialized nodes, and counters. `Context.lastRenderReport`
/// holds the latest; `DAGUERRE_PRINT_TREE=8` prints its ``description``.
///
/// ```swift
/// try context.render(image, to: &buffer, colorSpace: .sRGB)
/// let report = context.lastRenderReport!
/// report.passes.count          // 1 for a chain of point-wise filters: fused
/// report.intermediates.isEmpty // true: no buffer between them
/// ```
public struct RenderReport: Sendable, CustomStringConvertible {
    /// Nodes evaluated over one row buffer, listed from the one feeding `target` downward.
    public struct Pass: Sendable {
        public let target: String
        public let nodes: [String]
    }
    /// A per-tile intermediate (the largest seen), or a materialized full intermediate.
    public struct Intermediate: Sendable {
        public let node: String
        public let format: PixelFormat
        public let width: Int, height: Int
        public var bytes: Int { width * height * format.bytesPerPixel }
    }

    public let output: String
    public let rect: IntRect
    public let workers: Int, tileWidth: Int, tileHeight: Int
    public let workingFormat: PixelFormat
    public let workingSpace: String
    public let passes: [Pass]
    public let intermediates: [Intermediate]
    /// Materialized nodes (image processors, reductions): label, digest and buffer.
    public let materialized: [String]
    public let tiles: Int, materializations: Int, cacheHits: Int, sourceRestarts: Int

    public var description: String {
        var lines = [
            "program → \(output): \(rect.width)×\(rect.height), \(workers) workers, tiles \(tileWidth)×\(tileHeight), working \(workingFormat) \(workingSpace)"
        ]
        for (i, p) in passes.enumerated() {
            lines.append("pass \(i + 1) → \(p.target) [\(p.nodes.count) nodes fused, one row buffer]")
            for n in p.nodes { lines.append("    \(n)") }
        }
        for m in intermediates {
            lines.append("intermediate \(m.node): \(m.format) up to \(m.width)×\(m.height) per tile (\(RenderReport.bytes(m.bytes)))")
        }
        for m in materialized { lines.append("processor/materialized: \(m)") }
        lines.append("tiles \(tiles), materialized \(materializations), cache hits \(cacheHits), source restarts \(sourceRestarts)")
        return lines.joined(separator: "\n")
    }

    /// How a planar run's rows got into and out of planes in this render.
    static func transposes(_ c: RenderStats.PlanarRunRows?) -> String {
        guard let c, c.rows > 0, c.readAsPlanes + c.packedFromPlanes > 0 else { return "one transpose each way" }
        func side(_ planar: Int, _ yes: String, _ no: String) -> String {
            planar == c.rows ? yes : planar == 0 ? no : "\(no) for \(c.rows - planar) of \(c.rows) rows"
        }
        let into = side(c.readAsPlanes, "source read into planes", "one transpose in")
        let out = side(c.packedFromPlanes, "output packed from planes", "one transpose out")
        return into + ", " + out + (c.readAsPlanes == c.rows && c.packedFromPlanes == c.rows ? ": no transposes" : "")
    }

    static func bytes(_ n: Int) -> String {
        n >= 1 << 20 ? String(format: "%.1f MiB", Double(n) / 1048576) : String(format: "%.1f KiB", Double(n) / 1024)
    }

    /// Walks the graph the way the renderer evaluates it.
    init(root: ImageNode, rect: IntRect, output: String, env: RenderEnvironment, renderer: Renderer) {
        var passes: [Pass] = []
        var materialized: [String] = []
        let seenIntermediates = env.stats.intermediates.withLock { $0 }
        var queue: [(ImageNode, String, String?)] = [(root, "output \(output)", nil)]
        var seen = Set<ObjectIdentifier>()
        while !queue.isEmpty {
            let (start, target, head) = queue.removeFirst()
            var nodes: [String] = head.map { [$0] } ?? []
            var stack = [start]
            var pending: [String] = []  // notes for the rest of the run printed above, top down
            while let n = stack.popLast() {
                switch n.evaluation {
                case .materialized:
                    nodes.append("reads \(n.label) (materialized)")
                    if seen.insert(ObjectIdentifier(n)).inserted {
                        let size =
                            env.materializedBuffer(for: n).map {
                                "\($0.rect.width)×\($0.rect.height) \($0.buffer.format), \(RenderReport.bytes($0.byteCount))"
                            } ?? "not rendered"
                        materialized.append("\(n.label) digest \(n.digest): full intermediate \(size)")
                        for i in n.inputs { queue.append((i, "input of \(n.label)", nil)) }
                    }
                case .region:
                    if n is SamplingNode {
                        nodes.append("\(n.label) \(n.details) ← samples stored tiles of its inputs")
                        for i in n.inputs where i.evaluation != .materialized { queue.append((i, "stored tile of \(i.label)", nil)) }
                        for i in n.inputs where i.evaluation == .materialized { stack.append(i) }
                    } else {
                        nodes.append("\(n.label) vertical ← per-tile intermediate")
                        queue.append((n.inputs[0], "per-tile intermediate of \(n.label)", "\(n.label) horizontal \(n.details)"))
                    }
                case .source:
                    var line = "\(n.label)\(n.details.isEmpty ? "" : " " + n.details)"
                    if env.workingSpace != nil, let s = n.sourceColorSpace?.name {
                        line += " + colormatch \(s) → workingspace (fused into the read)"
                    }
                    nodes.append(line)
                case .pointwise:
                    var line = "\(n.label)\(n.details.isEmpty ? "" : " " + n.details)"
                    if !pending.isEmpty {
                        line += pending.removeFirst()
                    } else if let p = n as? PointwiseNode, let run = PlanarChain(top: p, env: env) {
                        // Annotate from the run the renderer builds, so the report shows the program that runs.
                        var notes: [String] = []
                        for (stage, k) in zip(run.stages, run.nodesPerStage).reversed() {
                            if case .matrix = stage, k > 1 {
                                notes.append(" [with the \(k - 1) below: one 3×3 matrix]")
                                notes += Array(repeating: " [folded into the matrix above]", count: k - 1)
                            } else {
                                notes += Array(repeating: "", count: k)
                            }
                        }
                        let count = run.nodeCount
                        if count > 1 || run.stages.count > 1
                            || !(run.stages.first.map { if case .matrix = $0 { true } else { false } } ?? false)
                        {
                            notes[0] =
                                " [planar run of \(count) kernel\(count == 1 ? "" : "s"): \(RenderReport.transposes(env.stats.planarRuns.withLock { $0[ObjectIdentifier(p)] }))]"
                                + notes[0]
                        }
                        line += notes.removeFirst()
                        pending = notes
                    }
                    nodes.append(line)
                    stack.append(contentsOf: n.inputs.reversed())
                }
            }
            passes.append(Pass(target: target, nodes: nodes))
        }
        self.output = output
        self.rect = rect
        workers = renderer.workers
        tileWidth = renderer.tileWidth
        tileHeight = renderer.tileHeight
        workingFormat = env.workingFormat
        workingSpace = env.workingSpace?.name ?? "(no colour management)"
        self.passes = passes
        intermediates = seenIntermediates.map {
            Intermediate(node: $0.key, format: $0.value.0, width: $0.value.1.width, height: $0.value.1.height)
        }
        .sorted { $0.node < $1.node }
        self.materialized = materialized
        let s = env.stats
        tiles = s.tiles.load(ordering: .relaxed)
        materializations = s.materializations.load(ordering: .relaxed)
        cacheHits = s.cacheHits.load(ordering: .relaxed)
        sourceRestarts = s.sourceRestarts.load(ordering: .relaxed)
    }
}
