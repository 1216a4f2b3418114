import DaguerreCore

/// The distance from each pixel to the nearest pixel of a mask, up to a limit
/// (DistanceGradientFromRedMask; SPEC I4): the mask is the input's pixels whose red is above
/// one half; the distance is Euclidean, between pixel centres, exact (the squared-distance
/// transform of Felzenszwalb and Huttenlocher, a column pass then a row pass). No library here
/// offers one that runs per tile, so it is written out.
///
/// Per tile: the mask is read over the tile grown by the limit (a nearer mask pixel cannot lie
/// further out), transformed in double precision, and the result written as min(d, limit)/limit
/// in red, green and blue, alpha 1. The extent is infinite: far from the mask every pixel is 1.
///
/// Signed (SignedDistanceGradientFromRedMask): pixels of the mask get minus their distance to
/// the nearest pixel outside it (beyond the input's extent is outside), −min(d, limit)/limit, so
/// the result runs from −1 deep inside through 0 at the edge to 1 far outside.
final class DistanceTransformNode: ImageNode, @unchecked Sendable {
    let limit: Double
    /// The reach in whole pixels.
    let reach: Int

    /// Whether mask pixels get their (negative) distance to the outside.
    let signed: Bool

    init(input: ImageNode, limit: Double, signed: Bool = false) {
        self.limit = limit
        self.signed = signed
        // The filters declare the limit (at most 1000); bounded here too before the conversion.
        reach = Int(min(max(limit.isFinite ? limit : 0, 0), 100_000).rounded(.up)) + 1
        super.init(extent: .infinite, inputs: [input], kind: signed ? "signedDistanceFromRedMask" : "distanceFromRedMask") { d in
            d.add(limit)
        }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { "distanceFromRedMask" }
    override var details: String { "limit \(limit)" }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        IntRect(x: rect.x - reach, y: rect.y - reach, width: rect.width + 2 * reach, height: rect.height + 2 * reach)
            .intersection(inputs[0].pixelExtent)
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let (w, h) = (rect.width + 2 * reach, rect.height + 2 * reach)
        let window = IntRect(x: rect.x - reach, y: rect.y - reach, width: w, height: h)
        try context.env.limits.check(width: w, height: h, what: "distance transform window")
        var mask = [Bool](repeating: false, count: w * h)
        let r = roi(for: rect, input: 0)
        if !r.isEmpty {
            let view = try context.tile(of: inputs[0], rect: r)
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX where view.pixel(x: x, y: y).x > 0.5 { mask[(y - window.y) * w + (x - window.x)] = true }
            }
        }
        let shown = reach..<(reach + rect.height)
        let toMask = distances(from: mask, width: w, height: h, rows: shown)
        let toOutside = signed ? distances(from: mask.map { !$0 }, width: w, height: h, rows: shown) : []
        var rows = [SIMD4<Float>](repeating: .zero, count: rect.width * rect.height)
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let i = (y + reach) * w + x + reach
                let inside = signed && mask[i]
                let d = inside ? toOutside[i] : toMask[i]
                let v = Float(limit > 0 ? min(d, limit) / limit : (d > 0 ? 1 : 0))
                rows[y * rect.width + x] = inside ? SIMD4(-v, -v, -v, 1) : SIMD4(v, v, v, 1)
            }
        }
        return BufferProducer(rect: rect, pixels: rows)
    }

    /// Each window pixel's Euclidean distance to the nearest `seeds` pixel (a column pass, then
    /// a row pass over `rows` only, the ones the tile shows); 1e15 where there is none in the
    /// window.
    func distances(from seeds: [Bool], width w: Int, height h: Int, rows: Range<Int>) -> [Double] {
        var squared = seeds.map { $0 ? 0.0 : 1e30 }
        var line = [Double](repeating: 0, count: max(w, h))
        var out = [Double](repeating: 0, count: max(w, h))
        for x in 0..<w {
            for y in 0..<h { line[y] = squared[y * w + x] }
            Self.transform(line, count: h, into: &out)
            for y in 0..<h { squared[y * w + x] = out[y] }
        }
        for y in rows {
            for x in 0..<w { line[x] = squared[y * w + x] }
            Self.transform(line, count: w, into: &out)
            for x in 0..<w { squared[y * w + x] = out[x].squareRoot() }
        }
        return squared
    }

    /// The squared distance transform of `f` (squared distances to start from) along a line:
    /// d(q) = min over p of (q − p)² + f(p), by the lower envelope of parabolas.
    static func transform(_ f: [Double], count n: Int, into d: inout [Double]) {
        guard n > 0 else { return }
        var v = [Int](repeating: 0, count: n)
        var z = [Double](repeating: 0, count: n + 1)
        var k = 0
        z[0] = -.infinity
        z[1] = .infinity
        @inline(__always) func meet(_ q: Int, _ p: Int) -> Double {
            ((f[q] + Double(q * q)) - (f[p] + Double(p * p))) / Double(2 * (q - p))
        }
        for q in 1..<n {
            var s = meet(q, v[k])
            while s <= z[k] {  // z[0] is −∞, so k stays ≥ 0
                k -= 1
                s = meet(q, v[k])
            }
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = .infinity
        }
        k = 0
        for q in 0..<n {
            while z[k + 1] < Double(q) { k += 1 }
            let dq = Double(q - v[k])
            d[q] = dq * dq + f[v[k]]
        }
    }
}
