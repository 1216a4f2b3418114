import DaguerreCore

/// Grey-scale morphology per channel: the maximum (dilation) or minimum (erosion) over a
/// structuring element, a rectangle or a disc (SPEC I3: a region node that recomputes its margin
/// per tile). The window covers only pixels inside the input's extent (outside pixels are
/// ignored, not treated as transparent), so the output keeps the input's extent and edges are
/// neither darkened nor grown: OpenCV's default border for `dilate` and `erode`.
///
/// Each row of the element is a horizontal run, computed for every needed half-width with the
/// van Herk / Gil-Werman algorithm (three comparisons a pixel whatever the width); a rectangle is
/// then one vertical run of the same kind, a disc the extreme over its rows.
final class MorphologyNode: ImageNode, @unchecked Sendable {
    enum Operation: String, Sendable { case maximum, minimum }

    /// The element: for each row offset dy in −ry…ry, the half-width of its run.
    let halfWidths: [Int]
    let operation: Operation
    let name: String
    let parameters: String
    var rx: Int { halfWidths.max() ?? 0 }
    var ry: Int { halfWidths.count / 2 }

    init(input: ImageNode, operation: Operation, halfWidths: [Int], name: String, parameters: String) {
        self.operation = operation
        self.halfWidths = halfWidths
        self.name = name
        self.parameters = parameters
        super.init(extent: input.extent, inputs: [input], kind: "morphology:" + operation.rawValue) { d in
            d.add(halfWidths.map(Double.init))
        }
    }

    /// `input`'s morphology by a `width`×`height` rectangle, centred; each size is rounded and
    /// made odd (an even size goes up by one), as Core Image's rectangle filters do.
    static func rectangle(_ input: Image, width: Double, height: Double, operation: Operation) -> Image {
        let w = Int(width.rounded()) | 1
        let h = Int(height.rounded()) | 1
        if w == 1 && h == 1 { return input }
        return Image(
            MorphologyNode(
                input: input.node, operation: operation, halfWidths: [Int](repeating: w / 2, count: h), name: "morphologyRectangle",
                parameters: "\(operation.rawValue) \(w)×\(h)"))
    }

    /// The disc of radius `r`: the pixels with dx² + dy² ≤ r².
    static func discHalfWidths(radius r: Double) -> [Int] {
        let ry = Int(r.rounded(.down))
        return (-ry...ry).map { dy in Int((r * r - Double(dy * dy)).squareRoot().rounded(.down)) }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { name }
    override var details: String { parameters }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        rect.insetBy(dx: -rx, dy: -ry).intersection(inputs[0].pixelExtent)
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let valid = roi(for: rect, input: 0)
        let dod = rect.intersection(pixelExtent)
        guard !valid.isEmpty, !dod.isEmpty else { return ZeroProducer(rect: rect) }
        // The input's valid rows, padded left and right by the identity so every run reads
        // inside the buffer: columns valid.x − rx … valid.maxX + rx.
        let identity: Float = operation == .maximum ? -.infinity : .infinity
        let padded = valid.width + 2 * rx
        let src = context.arena.allocate(SIMD4<Float>.self, count: padded * valid.height)
        let input = try context.producer(of: inputs[0], rect: valid)
        for r in 0..<valid.height {
            let row = src + r * padded
            row.initialize(repeating: SIMD4(repeating: identity), count: rx)
            input.row(valid.y + r, into: row + rx)
            (row + rx + valid.width).initialize(repeating: SIMD4(repeating: identity), count: rx)
        }
        let maximum = operation == .maximum
        if Set(halfWidths).count == 1 {
            // A rectangle: one run per input row, then each output row is the extreme of its
            // rows' runs, computed when the row is asked for.
            let w = halfWidths[0]
            let n = dod.width
            let runs = context.arena.allocate(SIMD4<Float>.self, count: n * valid.height)
            let scratch = context.arena.allocate(SIMD4<Float>.self, count: 2 * (n + 2 * rx))
            for r in 0..<valid.height {
                let first = src + r * padded + rx + (dod.x - valid.x) - w
                Self.run(first, count: n, window: 2 * w + 1, into: runs + r * n, scratch: scratch, maximum: maximum)
            }
            return RectangleMorphologyProducer(rect: rect, dod: dod, valid: valid, runs: runs, ry: ry, maximum: maximum)
        }
        let out = context.arena.allocate(SIMD4<Float>.self, count: rect.width * rect.height)
        let view = TileView(base: UnsafeMutableRawPointer(out), rect: rect, bytesPerRow: rect.width * 16, format: .rgbaf)
        // Horizontal runs for each distinct half-width, over the output's columns.
        let n = dod.width
        let runs = context.arena.allocate(SIMD4<Float>.self, count: n * valid.height)
        let scratch = context.arena.allocate(SIMD4<Float>.self, count: 2 * (n + 2 * rx))
        let acc = context.arena.allocate(SIMD4<Float>.self, count: n * dod.height)
        acc.initialize(repeating: SIMD4(repeating: identity), count: n * dod.height)
        for w in Set(halfWidths).sorted() {
            // Run of half-width w ending at output column x: input columns x − w … x + w.
            for r in 0..<valid.height {
                let first = src + r * padded + rx + (dod.x - valid.x) - w
                Self.run(first, count: n, window: 2 * w + 1, into: runs + r * n, scratch: scratch, maximum: maximum)
            }
            for (i, hw) in halfWidths.enumerated() where hw == w {
                let dy = i - ry
                for y in dod.y..<dod.maxY {
                    let sy = y + dy
                    guard sy >= valid.y, sy < valid.maxY else { continue }
                    Self.combine(runs + (sy - valid.y) * n, into: acc + (y - dod.y) * n, count: n, maximum: maximum)
                }
            }
        }
        // Into the tile; pixels outside the extent stay transparent.
        out.initialize(repeating: .zero, count: rect.width * rect.height)
        for y in dod.y..<dod.maxY {
            (out + (y - rect.y) * rect.width + (dod.x - rect.x)).update(from: acc + (y - dod.y) * n, count: n)
        }
        return TileRowProducer(view: view, rect: rect, extent: pixelExtent)
    }

    /// dst[x] = extreme of src[x … x + window − 1] for `count` outputs (van Herk / Gil-Werman:
    /// prefix extremes within blocks of `window`, suffix extremes, one comparison to join).
    static func run(
        _ src: UnsafePointer<SIMD4<Float>>, count: Int, window k: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>,
        scratch: UnsafeMutablePointer<SIMD4<Float>>, maximum: Bool
    ) {
        if maximum {
            run(src, count: count, window: k, into: dst, scratch: scratch, Maximum.self)
        } else {
            run(src, count: count, window: k, into: dst, scratch: scratch, Minimum.self)
        }
    }

    @inline(__always) static func run<Op: Extreme>(
        _ src: UnsafePointer<SIMD4<Float>>, count: Int, window k: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>,
        scratch: UnsafeMutablePointer<SIMD4<Float>>, _: Op.Type
    ) {
        if k == 1 {
            dst.update(from: src, count: count)
            return
        }
        if k <= 7 {
            // A short window: its k − 1 comparisons straight from the source beat the three
            // passes over scratch rows.
            for x in 0..<count {
                var m = src[x]
                for j in 1..<k { m = Op.of(m, src[x + j]) }
                dst[x] = m
            }
            return
        }
        let len = count + k - 1
        let g = scratch
        let h = scratch + len
        @inline(__always) func op(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { Op.of(a, b) }
        // Block by block of k: g the running extreme from each block's start, h to its end.
        var start = 0
        while start < len {
            let end = min(start + k, len)
            g[start] = src[start]
            for i in (start + 1)..<end { g[i] = op(g[i - 1], src[i]) }
            h[end - 1] = src[end - 1]
            var i = end - 2
            while i >= start {
                h[i] = op(h[i + 1], src[i])
                i -= 1
            }
            start = end
        }
        for x in 0..<count { dst[x] = op(h[x], g[x + k - 1]) }
    }

    @inline(__always)
    static func combine(_ src: UnsafePointer<SIMD4<Float>>, into acc: UnsafeMutablePointer<SIMD4<Float>>, count: Int, maximum: Bool) {
        if maximum {
            for x in 0..<count { acc[x] = pointwiseMax(acc[x], src[x]) }
        } else {
            for x in 0..<count { acc[x] = pointwiseMin(acc[x], src[x]) }
        }
    }

    /// A rectangle's output rows: the extreme of the 2·ry + 1 runs around each, those inside the
    /// input only.
    final class RectangleMorphologyProducer: RowProducer {
        let rect: IntRect, dod: IntRect, valid: IntRect
        let runs: UnsafeMutablePointer<SIMD4<Float>>
        let ry: Int
        let maximum: Bool
        init(rect: IntRect, dod: IntRect, valid: IntRect, runs: UnsafeMutablePointer<SIMD4<Float>>, ry: Int, maximum: Bool) {
            self.rect = rect
            self.dod = dod
            self.valid = valid
            self.runs = runs
            self.ry = ry
            self.maximum = maximum
        }
        func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
            guard clear(outside: dod, row: y, out) else { return }
            let n = dod.width
            let dst = out + (dod.x - rect.x)
            let top = max(y - ry, valid.y)
            let bottom = min(y + ry, valid.maxY - 1)
            dst.update(from: runs + (top - valid.y) * n, count: n)
            if top < bottom {
                for sy in (top + 1)...bottom {
                    MorphologyNode.combine(runs + (sy - valid.y) * n, into: dst, count: n, maximum: maximum)
                }
            }
        }
    }

    /// The component-wise extreme a morphology takes, as a type so each loop is compiled for one.
    protocol Extreme { static func of(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> }
    enum Maximum: Extreme { @inline(__always) static func of(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { pointwiseMax(a, b) } }
    enum Minimum: Extreme { @inline(__always) static func of(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { pointwiseMin(a, b) } }
}
