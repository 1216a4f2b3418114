import DaguerreCore
import Dispatch
import Foundation
import Synchronization

/// The band/tile scheduler (I3, I6).
///
/// 1. Propagate the output rectangle down the graph to get every node's region of interest.
/// 2. Materialize the nodes that need it (image processors, reductions), each for the union of
///    what the render needs, through the intermediate cache (K1, K2).
/// 3. Open a session per file source, decoding only the columns asked for.
/// 4. For each band of output rows: propagate the band to the sources and let them decode its
///    rows (serially, in file order); then render the band's tiles in parallel, each worker
///    pulling its tile's rows through the fused graph; then hand the band to the sink.
///
/// Bands go top to bottom, so sequential decoders and streaming encoders never seek, and the
/// memory held is a band's worth of rows, not the image.
struct Renderer {
    let env: RenderEnvironment
    let arenas: ArenaPool
    let workers: Int
    let tileWidth: Int
    let tileHeight: Int

    // MARK: Graph traversal

    /// Nodes reachable from `root`, parents before children; does not descend into nodes
    /// that are already materialized (their inputs were rendered by their own pass).
    func topologicalOrder(_ root: ImageNode) -> [ImageNode] {
        var visited = Set<ObjectIdentifier>()
        var post: [ImageNode] = []
        func visit(_ n: ImageNode) {
            guard visited.insert(ObjectIdentifier(n)).inserted else { return }
            if n.evaluation != .materialized { for i in n.inputs { visit(i) } }
            post.append(n)
        }
        visit(root)
        return post.reversed()
    }

    /// Each node's region of interest for producing `rect` at the root.
    func regionsOfInterest(_ order: [ImageNode], rect: IntRect) -> [ObjectIdentifier: IntRect] {
        var roi: [ObjectIdentifier: IntRect] = [:]
        guard let root = order.first else { return roi }
        roi[ObjectIdentifier(root)] = rect
        for n in order {
            guard let r = roi[ObjectIdentifier(n)] else { continue }
            let wanted = r.intersection(n.pixelExtent)
            roi[ObjectIdentifier(n)] = wanted
            guard !wanted.isEmpty, n.evaluation != .materialized else { continue }
            for (i, input) in n.inputs.enumerated() {
                let need = n.roi(for: wanted, input: i)
                let key = ObjectIdentifier(input)
                roi[key] = (roi[key] ?? .zero).union(need)
            }
        }
        return roi
    }

    // MARK: Rendering

    /// Renders `root` over `rect` into `sink`.
    func render(_ root: ImageNode, rect: IntRect, sink: RenderSink) throws(DaguerreError) {
        do {
            try run(root, rect: rect, sink: sink)
            try sink.finish()
        } catch {
            sink.abort()
            throw error
        }
    }

    private func run(_ root: ImageNode, rect: IntRect, sink: RenderSink) throws(DaguerreError) {
        guard !rect.isEmpty else { throw .invalidArgument(what: "Render rectangle \(rect)", problem: "it is empty") }
        let order = topologicalOrder(root)
        let whole = regionsOfInterest(order, rect: rect)

        // Materialize leaves first (reverse order: children before parents).
        for n in order.reversed() where n.evaluation == .materialized {
            guard let r = whole[ObjectIdentifier(n)], !r.isEmpty else { continue }
            try materialize(n, rect: r)
        }

        var sessions: [ObjectIdentifier: SourceSession] = [:]
        for n in order {
            guard let f = n as? FileSourceNode, let r = whole[ObjectIdentifier(n)], !r.isEmpty else { continue }
            sessions[ObjectIdentifier(n)] = try SourceSession(node: f, columns: r.x..<r.maxX, rows: r.y..<r.maxY, stats: env.stats)
        }
        let pass = RenderPass(env: env, sessions: sessions)

        let tw = min(tileWidth, rect.width)
        let across = (rect.width + tw - 1) / tw
        let tileRowsPerBand = max(1, min(8, (2 * workers + across - 1) / across))
        // Bands pace a streaming sink and the file sources' decoding; without either, every
        // tile goes in one sweep, so the workers wait for each other once, not at every band.
        let bandHeight = sessions.isEmpty && !sink.needsBands ? rect.height : tileHeight * tileRowsPerBand
        let firstError = Mutex<DaguerreError?>(nil)

        var by = rect.y
        var bands: [IntRect] = []
        while by < rect.maxY {
            let band = IntRect(x: rect.x, y: by, width: rect.width, height: min(bandHeight, rect.maxY - by))
            bands.append(band)
            by += band.height
        }
        // Each source's rows per band, so the next band's rows can be decoded during this one.
        let sourceRows: [[ObjectIdentifier: IntRect]] = sessions.isEmpty ? [] : bands.map { regionsOfInterest(order, rect: $0) }
        // Each window's size: the most rows a band holds, from its first to the next band's last.
        for (key, s) in sessions {
            var most = 0
            for bi in bands.indices {
                guard let r = sourceRows[bi][key], !r.isEmpty else { continue }
                let next = bi + 1 < bands.count ? sourceRows[bi + 1][key] : nil
                most = max(most, max(r.maxY, next.map { $0.isEmpty ? r.maxY : $0.maxY } ?? r.maxY) - r.y)
            }
            s.reserve(rows: most)
        }
        for (bi, band) in bands.enumerated() {
            // Work that runs beside this band's tiles: encoding the previous band, decoding the next.
            var background: [@Sendable () -> Void] = []
            if let t = sink.backgroundTask() { background.append(t) }
            if !sessions.isEmpty {
                for (key, s) in sessions { if let r = sourceRows[bi][key], !r.isEmpty { try s.prepare(rows: r.y..<r.maxY) } }
                if bi + 1 < bands.count {
                    for (key, s) in sessions {
                        if let r = sourceRows[bi + 1][key], !r.isEmpty, let t = try s.prefetch(rows: r.y..<r.maxY) { background.append(t) }
                    }
                }
            }
            sink.beginBand(band)
            var tiles: [IntRect] = []
            var ty = band.y
            while ty < band.maxY {
                let th = min(tileHeight, band.maxY - ty)
                var tx = band.x
                while tx < band.maxX {
                    tiles.append(IntRect(x: tx, y: ty, width: min(tw, band.maxX - tx), height: th))
                    tx += tw
                }
                ty += th
            }
            let work = UnsafeTransfer((root, sink, pass, tiles, background))
            let body: @Sendable (Int) -> Void = { i in
                let (root, sink, pass, tiles, background) = work.value
                // The background tasks come first, so they start as early as possible.
                if i < background.count {
                    background[i]()
                    return
                }
                let i = i - background.count
                if firstError.withLock({ $0 != nil }) { return }
                do throws(DaguerreError) {
                    try renderTile(root, rect: tiles[i], pass: pass, sink: sink)
                } catch {
                    firstError.withLock { if $0 == nil { $0 = error } }
                }
            }
            let iterations = background.count + tiles.count
            if iterations == 1 || workers == 1 {
                for i in 0..<iterations { body(i) }
            } else {
                WorkerPool.forEach(iterations, body)
            }
            for s in sessions.values { try s.wait() }
            if let e = firstError.withLock({ $0 }) { throw e }
            try sink.endBand(band)
        }
    }

    private func renderTile(_ root: ImageNode, rect: IntRect, pass: RenderPass, sink: RenderSink) throws(DaguerreError) {
        try arenas.withArena { (arena: Arena) throws(DaguerreError) in
            let ctx = TileContext(env: env, pass: pass, arena: arena)
            let producer = try ctx.producer(of: root, rect: rect)
            let row = ctx.rowBuffer(rect.width)
            if let chain = producer as? PlanarChainProducer, chain.dod == rect, let planar = sink as? PlanarRenderSink, planar.acceptsPlanes
            {
                // A planar run on top and an output that packs planes: no transpose out.
                let scratch = arena.allocate(UInt16.self, count: 3 * rect.width)
                for y in rect.y..<rect.maxY {
                    planar.put(y: y, x: rect.x, planes: chain.planes(y, scratch: row), scratch: scratch)
                }
                chain.rowsPackedFromPlanes += rect.height
            } else if let source = producer as? SourceRowProducer, source.converter.passesFloatRGB,
                let packing = sink as? PackingRenderSink, packing.converter.packsFloatRGB
            {
                // A bare RGB float source (a RAW develop) into RGB8 or RGB16: packed from its
                // stored rows, with no spreading to four-float pixels and back.
                for y in rect.y..<rect.maxY {
                    if let floats = source.floatRGB(y) {
                        packing.converter.convert(floatRGB: floats, count: rect.width, into: packing.destination(y: y, x: rect.x))
                    } else {
                        producer.row(y, into: row)
                        sink.put(y: y, x: rect.x, count: rect.width, pixels: row)
                    }
                }
            } else {
                for y in rect.y..<rect.maxY {
                    producer.row(y, into: row)
                    sink.put(y: y, x: rect.x, count: rect.width, pixels: row)
                }
            }
            env.stats.tiles.add(1, ordering: .relaxed)
        }
    }

    // MARK: Materialization

    private func materialize(_ node: ImageNode, rect: IntRect) throws(DaguerreError) {
        if let m = env.materializedBuffer(for: node), m.rect.contains(rect) { return }
        let format = node.outputFormat ?? env.workingFormat
        let key = IntermediateCache.Key(digest: node.digest, rect: rect, format: format)
        if let cached = env.cache?.get(key) {
            env.stats.cacheHits.add(1, ordering: .relaxed)
            env.materialized.withLock { $0[ObjectIdentifier(node)] = cached }
            return
        }
        guard let m = node as? MaterializingNode else {
            throw .unsupported(feature: "Materializing \(node.label)", hint: "internal: the node does not implement materialization")
        }
        let made = try m.materialize(rect: rect, renderer: self)
        env.stats.materializations.add(1, ordering: .relaxed)
        env.materialized.withLock { $0[ObjectIdentifier(node)] = made }
        env.cache?.put(key, made)
    }

    /// Renders `node` over `rect` into a new buffer in `format`, in the working space (no output
    /// colour matching): how a materialized node gets its input.
    func renderToBuffer(_ node: ImageNode, rect: IntRect, format: PixelFormat) throws(DaguerreError) -> PixelBuffer {
        var buffer = try PixelBuffer(width: max(rect.width, 1), height: max(rect.height, 1), format: format, limits: env.limits)
        guard !rect.isEmpty else { return buffer }
        let conv = try OutputConverter(
            format: format, alpha: .premultiplied, destination: nil, working: nil, workingFormat: env.workingFormat)
        let bpr = buffer.bytesPerRow
        try buffer.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) throws(DaguerreError) in
            guard let base = raw.baseAddress else { return }
            let sink = BufferSink(base: base, bytesPerRow: bpr, origin: (rect.x, rect.y), converter: conv)
            try render(node, rect: rect, sink: sink)
        }
        return buffer
    }
}

/// Nodes computed once per render for a whole rectangle (image processors, reductions).
protocol MaterializingNode: ImageNode {
    func materialize(rect: IntRect, renderer: Renderer) throws(DaguerreError) -> MaterializedBuffer
}
