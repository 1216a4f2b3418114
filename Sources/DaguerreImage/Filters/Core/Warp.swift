import DaguerreCore

/// What the filters that say where each output pixel comes from share (SPEC I4, K3; Core
/// Image's warp kernels): the output pixel whose centre is p is the input sampled bilinearly at
/// `map(p)`, through a `SamplingNode` whose region of interest is the source rectangle the
/// filter names (padded for the bilinear footprint), or the whole input where the filter
/// cannot bound it. Off the input, `edge` says what is read: transparent black (Core Image's
/// default sampler), the nearest edge pixel (clamp) or the input repeated (wrap, for tiles).
///
/// ```swift
/// let mirrored = Warp.image(input, name: "mirror", extent: input.extent, parameters: [],
///                           roi: { _ in input.extent }) { p in SIMD2(input.extent.maxX + input.extent.minX - p.x, p.y) }
/// ```
enum Warp {
    /// What a sample off the input's extent reads.
    enum Edge: String, Sendable {
        case transparent, clamp, wrap
    }

    /// `input` warped by `map` (output point → input point; nil: transparent). `roi` gives the
    /// input rectangle the points of an output rectangle map into (nil: unknown, the whole
    /// input); `parameters` are every number `map` depends on (the cache key).
    static func image(
        _ input: Image, name: String, extent: Rect, parameters: [Double], edge: Edge = .transparent,
        roi: @escaping @Sendable (Rect) -> Rect?, map: @escaping @Sendable (SIMD2<Double>) -> SIMD2<Double>?
    ) -> Image {
        let whole = input.extent
        let pixels = whole.integral
        let node = SamplingNode(
            name: name, inputs: [input.node], extent: extent,
            parameters: parameters.map { String(format: "%.6g", $0) }.joined(separator: " ") + (edge == .transparent ? "" : " \(edge)"),
            outputFormat: nil,
            digest: { d in
                d.add(parameters)
                d.add(edge.rawValue)
            },
            roi: { _, rect in
                var r = roi(rect) ?? whole
                if ![r.minX, r.minY, r.maxX, r.maxY].allSatisfy({ !$0.isNaN }) { r = whole }
                r = r.insetBy(dx: -2, dy: -2)
                switch edge {
                case .transparent: return r
                case .wrap: return whole
                case .clamp: return clampedRect(r, into: whole)
                }
            }
        ) { samplers, dest in
            guard let q = map(SIMD2(Double(dest.x), Double(dest.y))), q.x.isFinite, q.y.isFinite else { return .zero }
            if edge == .transparent { return samplers[0].sample(SIMD2(Float(q.x), Float(q.y))) }
            return bilinear(samplers[0], q, pixels, edge)
        }
        return Image(node)
    }

    /// The rectangle of `extent`'s pixels that clamping the points of `r` reads.
    static func clampedRect(_ r: Rect, into extent: Rect) -> Rect {
        guard !extent.isEmpty, !r.isEmpty else { return .null }
        func lo(_ v: Double, _ a: Double, _ b: Double) -> Double { min(max(v, a), b - 1) }
        func hi(_ v: Double, _ a: Double, _ b: Double) -> Double { max(min(v, b), a + 1) }
        return Rect(
            minX: lo(r.minX, extent.minX, extent.maxX), minY: lo(r.minY, extent.minY, extent.maxY),
            maxX: hi(r.maxX, extent.minX, extent.maxX), maxY: hi(r.maxY, extent.minY, extent.maxY))
    }

    /// Bilinear interpolation at `p` (position and weights in double precision) reading pixel
    /// indices clamped into, or wrapped around, `e`, or as they are (transparent off the
    /// sampler's pixels; `e` unused).
    @inline(__always) static func bilinear(_ s: Sampler, _ p: SIMD2<Double>, _ e: IntRect = .zero, _ edge: Edge = .transparent)
        -> SIMD4<Float>
    {
        guard edge == .transparent || !e.isEmpty else { return .zero }
        let fx = p.x - 0.5
        let fy = p.y - 0.5
        let x0f = fx.rounded(.down)
        let y0f = fy.rounded(.down)
        guard abs(x0f) < 1e12, abs(y0f) < 1e12 else { return .zero }
        @inline(__always) func index(_ i: Int, _ lo: Int, _ n: Int) -> Int {
            switch edge {
            case .transparent: i
            case .clamp: min(max(i, lo), lo + n - 1)
            case .wrap: lo + ((i - lo) % n + n) % n
            }
        }
        let xa = index(Int(x0f), e.x, e.width)
        let xb = index(Int(x0f) + 1, e.x, e.width)
        let ya = index(Int(y0f), e.y, e.height)
        let yb = index(Int(y0f) + 1, e.y, e.height)
        let ax = Float(fx - x0f)
        let ay = Float(fy - y0f)
        let a = s.read(x: xa, y: ya)
        let b = s.read(x: xb, y: ya)
        let c = s.read(x: xa, y: yb)
        let d = s.read(x: xb, y: yb)
        let top = a + (b - a) * ax
        let bottom = c + (d - c) * ax
        return top + (bottom - top) * ay
    }

    /// The bounding box of points.
    static func bounds(_ points: [SIMD2<Double>]) -> Rect {
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        return Rect(minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0)
    }

    /// The square around `center` that holds a disc of `radius`.
    static func disc(_ center: SIMD2<Double>, _ radius: Double) -> Rect {
        Rect(minX: center.x - radius, minY: center.y - radius, maxX: center.x + radius, maxY: center.y + radius)
    }

    /// Whether `r` meets the disc of `radius` around `center`.
    static func meets(_ r: Rect, _ center: SIMD2<Double>, _ radius: Double) -> Bool {
        let dx = max(r.minX - center.x, 0, center.x - r.maxX)
        let dy = max(r.minY - center.y, 0, center.y - r.maxY)
        return dx * dx + dy * dy <= radius * radius
    }

    /// The farthest distance from `center` to a point of `r`.
    static func farthest(_ r: Rect, from center: SIMD2<Double>) -> Double {
        let dx = max(abs(r.minX - center.x), abs(r.maxX - center.x))
        let dy = max(abs(r.minY - center.y), abs(r.maxY - center.y))
        return (dx * dx + dy * dy).squareRoot()
    }
}
