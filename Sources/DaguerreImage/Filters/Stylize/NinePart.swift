import DaguerreCore

/// What NinePartStretched and NinePartTiled share: their common parameters, declared once, and
/// the geometry of the nine parts.
protocol NinePartFilter: Filter {
    var inputImage: Image? { get set }
    var breakpoint0: [Double] { get set }
    var breakpoint1: [Double] { get set }
    var growAmount: [Double] { get set }
}

extension NinePartFilter {
    static var commonParameters: [FilterDeclaration<Self>.Parameter] {
        [
            .image(\.inputImage),
            .position(\.breakpoint0, "inputBreakpoint0", "Lower-left… top-left corner of the middle part.", min: 0, max: 1e6),
            .position(\.breakpoint1, "inputBreakpoint1", "Opposite corner of the middle part.", min: 0, max: 1e6),
            .offset(\.growAmount, "inputGrowAmount", "How much wider and taller the output is.", min: -1e6, max: 1e6),
        ]
    }

    /// The nine parts of `input`, checked against its size.
    func geometry(of input: Image) throws(DaguerreError) -> NinePartGeometry {
        let extent = input.extent
        guard !extent.isInfinite, !extent.isEmpty else {
            throw .invalidArgument(what: "Nine-part input", problem: "it needs a finite, non-empty extent")
        }
        let size = SIMD2(extent.width, extent.height)
        let b0 = SIMD2(breakpoint0[0], breakpoint0[1])
        let b1 = SIMD2(breakpoint1[0], breakpoint1[1])
        let grow = SIMD2(growAmount[0], growAmount[1])
        guard b0.x < b1.x, b0.y < b1.y, b0.x >= 0, b0.y >= 0, b1.x <= size.x, b1.y <= size.y else {
            throw Self.invalid(
                \.breakpoint0,
                "breakpoints must satisfy 0 ≤ b0 < b1 ≤ the image size (\(size.x), \(size.y)), got (\(b0.x), \(b0.y)) and (\(b1.x), \(b1.y))"
            )
        }
        guard grow.x > -(b1.x - b0.x), grow.y > -(b1.y - b0.y) else {
            throw Self.invalid(\.growAmount, "the middle cannot shrink below zero")
        }
        return NinePartGeometry(origin: SIMD2(extent.minX, extent.minY), size: size, b0: b0, b1: b1, grow: grow)
    }
}

/// The geometry of the nine parts. Breakpoints are relative to the input's origin: columns left
/// of `b0.x` and right of `b1.x` (and rows above `b0.y`, below `b1.y`) keep their size; the
/// middle grows by `grow`.
struct NinePartGeometry: Sendable {
    let origin: SIMD2<Double>
    let size: SIMD2<Double>
    let b0: SIMD2<Double>, b1: SIMD2<Double>, grow: SIMD2<Double>

    var outputExtent: Rect { Rect(x: origin.x, y: origin.y, width: size.x + grow.x, height: size.y + grow.y) }

    /// Output coordinate → input coordinate along one axis.
    @inline(__always) static func map(_ v: Double, b0: Double, b1: Double, grow: Double, tiled: Bool, flip: Bool) -> Double {
        if v < b0 { return v }
        let mid = b1 - b0
        if v >= b1 + grow { return v - grow }
        let t = v - b0
        if !tiled { return b0 + t * mid / (mid + grow) }
        let k = (t / mid).rounded(.down)
        var f = t - k * mid
        if flip && Int(k) % 2 != 0 { f = mid - f }
        return b0 + f
    }

    /// The input region that output `rect` samples, in image coordinates. Per axis: the mapped
    /// centres of its first and last pixels (the map rises piece by piece and keeps the pieces
    /// in order), the whole middle when a tiled middle is crossed, clamped as the samples are,
    /// and two pixels more each side for the bilinear taps.
    func sourceRect(for rect: Rect, tiled: Bool) -> Rect {
        func axis(_ lo: Double, _ hi: Double, origin: Double, size: Double, b0: Double, b1: Double, grow: Double) -> (Double, Double) {
            let first = lo - origin + 0.5
            let last = hi - origin - 0.5
            var a = Self.map(first, b0: b0, b1: b1, grow: grow, tiled: tiled, flip: false)
            var b = Self.map(last, b0: b0, b1: b1, grow: grow, tiled: tiled, flip: false)
            if tiled && last >= b0 && first < b1 + grow {
                a = min(a, b0)
                b = max(b, b1)
            }
            a = min(max(a, 0.5), size - 0.5)
            b = min(max(b, 0.5), size - 0.5)
            return (origin + (a - 0.5).rounded(.down) - 2, origin + (b - 0.5).rounded(.down) + 3)
        }
        let x = axis(rect.minX, rect.maxX, origin: origin.x, size: size.x, b0: b0.x, b1: b1.x, grow: grow.x)
        let y = axis(rect.minY, rect.maxY, origin: origin.y, size: size.y, b0: b0.y, b1: b1.y, grow: grow.y)
        return Rect(minX: x.0, minY: y.0, maxX: x.1, maxY: y.1)
    }

    func image(_ input: Image, name: String, tiled: Bool, flipY: Bool) -> Image {
        let g = self
        let node = SamplingNode(
            name: name, inputs: [input.node], extent: outputExtent,
            parameters: "b0 \(b0) b1 \(b1) grow \(grow)\(tiled ? " flipY \(flipY)" : "")", outputFormat: nil,
            digest: { d in
                d.add([g.b0.x, g.b0.y, g.b1.x, g.b1.y, g.grow.x, g.grow.y])
                d.add(tiled)
                d.add(flipY)
            },
            roi: { _, rect in g.sourceRect(for: rect, tiled: tiled) }
        ) { samplers, p in
            let x = NinePartGeometry.map(Double(p.x) - g.origin.x, b0: g.b0.x, b1: g.b1.x, grow: g.grow.x, tiled: tiled, flip: false)
            let y = NinePartGeometry.map(Double(p.y) - g.origin.y, b0: g.b0.y, b1: g.b1.y, grow: g.grow.y, tiled: tiled, flip: flipY)
            // Clamp inside the source so bilinear sampling never reads transparency at the seams.
            let sx = min(max(x, 0.5), g.size.x - 0.5) + g.origin.x
            let sy = min(max(y, 0.5), g.size.y - 0.5) + g.origin.y
            return samplers[0].sample(SIMD2(Float(sx), Float(sy)))
        }
        return Image(node)
    }
}
