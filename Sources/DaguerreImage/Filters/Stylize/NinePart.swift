import DaguerreCore

/// What NinePartStretched and NinePartTiled share: the geometry of the nine parts.
///
/// Breakpoints are relative to the input's origin: columns left of `b0.x` and right of `b1.x`
/// (and rows above `b0.y`, below `b1.y`) keep their size; the middle grows by `grow`.
struct NinePartGeometry: Sendable {
    let origin: SIMD2<Double>
    let size: SIMD2<Double>
    let b0: SIMD2<Double>, b1: SIMD2<Double>, grow: SIMD2<Double>

    init(extent: Rect, b0: SIMD2<Double>, b1: SIMD2<Double>, grow: SIMD2<Double>) throws(DaguerreError) {
        origin = SIMD2(extent.minX, extent.minY); size = SIMD2(extent.width, extent.height)
        guard !extent.isInfinite, !extent.isEmpty else {
            throw .invalidArgument(what: "Nine-part input", problem: "it needs a finite, non-empty extent")
        }
        guard b0.x < b1.x, b0.y < b1.y, b0.x >= 0, b0.y >= 0, b1.x <= size.x, b1.y <= size.y else {
            throw .invalidParameter(filter: "NinePart", key: "inputBreakpoint0",
                                    problem: "breakpoints must satisfy 0 ≤ b0 < b1 ≤ the image size \(size), got \(b0) and \(b1)")
        }
        guard grow.x > -(b1.x - b0.x), grow.y > -(b1.y - b0.y) else {
            throw .invalidParameter(filter: "NinePart", key: "inputGrowAmount", problem: "the middle cannot shrink below zero")
        }
        self.b0 = b0; self.b1 = b1; self.grow = grow
    }

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

    func image(_ input: Image, name: String, tiled: Bool, flipY: Bool) -> Image {
        let g = self
        let node = SamplingNode(name: name, inputs: [input.node], extent: outputExtent,
                                parameters: "b0 \(b0) b1 \(b1) grow \(grow)\(tiled ? " flipY \(flipY)" : "")", outputFormat: nil,
                                digest: { d in d.add([g.b0.x, g.b0.y, g.b1.x, g.b1.y, g.grow.x, g.grow.y]); d.add(tiled); d.add(flipY) },
                                roi: { _, _ in input.extent }) { samplers, p in
            let x = NinePartGeometry.map(Double(p.x) - g.origin.x, b0: g.b0.x, b1: g.b1.x, grow: g.grow.x, tiled: tiled, flip: false)
            let y = NinePartGeometry.map(Double(p.y) - g.origin.y, b0: g.b0.y, b1: g.b1.y, grow: g.grow.y, tiled: tiled, flip: flipY)
            // Clamp inside the source so bilinear sampling never reads transparency at the seams.
            let sx = min(max(x, 0.5), g.size.x - 0.5) + g.origin.x, sy = min(max(y, 0.5), g.size.y - 0.5) + g.origin.y
            return samplers[0].sample(SIMD2(Float(sx), Float(sy)))
        }
        return Image(node)
    }

    static func parameters(tiled: Bool) -> [FilterParameter] {
        var p = [CommonParameters.inputImage,
                 FilterParameter(key: "inputBreakpoint0", kind: .position, description: "Lower-left… top-left corner of the middle part.", default: [50, 50], min: 0, max: 1e6),
                 FilterParameter(key: "inputBreakpoint1", kind: .position, description: "Opposite corner of the middle part.", default: [150, 150], min: 0, max: 1e6),
                 FilterParameter(key: "inputGrowAmount", kind: .offset, description: "How much wider and taller the output is.", default: [100, 100], min: -1e6, max: 1e6)]
        if tiled { p.append(FilterParameter(key: "inputFlipYTiles", kind: .boolean, description: "Mirror every other row of tiles.", default: true)) }
        return p
    }
}

/// Stretches an asset (a picture frame, a button) to a new size, stretching only its middle
/// row and column (CINinePartStretched, new in the seed, I4).
///
/// ```swift
/// let frame = try asset.applying(NinePartStretched(breakpoint0: [20, 20], breakpoint1: [80, 80], growAmount: [400, 200]))
/// ```
public struct NinePartStretched: Filter {
    public var inputImage: Image?
    public var breakpoint0: [Double], breakpoint1: [Double], growAmount: [Double]
    public init(inputImage: Image? = nil, breakpoint0: [Double] = [50, 50], breakpoint1: [Double] = [150, 150], growAmount: [Double] = [100, 100]) {
        self.inputImage = inputImage; self.breakpoint0 = breakpoint0; self.breakpoint1 = breakpoint1; self.growAmount = growAmount
    }
    public var values: [String: FilterValue] { filterValues(["inputBreakpoint0": .vector(breakpoint0), "inputBreakpoint1": .vector(breakpoint1), "inputGrowAmount": .vector(growAmount)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "NinePartStretched", displayName: "Nine Part Stretched",
        categories: [FilterCategory.geometry, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Grows an image by stretching its middle row and column; corners keep their size.",
        parameters: NinePartGeometry.parameters(tiled: false)
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage")
        let g = try NinePartGeometry(extent: input.extent, b0: a.point("inputBreakpoint0"), b1: a.point("inputBreakpoint1"), grow: a.point("inputGrowAmount"))
        return g.image(input, name: "ninePartStretched", tiled: false, flipY: false)
    }
}

/// Grows an asset by repeating its middle row and column (CINinePartTiled, new in the seed).
///
/// ```swift
/// let border = try asset.applying(NinePartTiled(breakpoint0: [20, 20], breakpoint1: [80, 80], growAmount: [400, 200]))
/// ```
public struct NinePartTiled: Filter {
    public var inputImage: Image?
    public var breakpoint0: [Double], breakpoint1: [Double], growAmount: [Double]
    public var flipYTiles: Bool
    public init(inputImage: Image? = nil, breakpoint0: [Double] = [50, 50], breakpoint1: [Double] = [150, 150], growAmount: [Double] = [100, 100], flipYTiles: Bool = true) {
        self.inputImage = inputImage; self.breakpoint0 = breakpoint0; self.breakpoint1 = breakpoint1; self.growAmount = growAmount; self.flipYTiles = flipYTiles
    }
    public var values: [String: FilterValue] { filterValues(["inputBreakpoint0": .vector(breakpoint0), "inputBreakpoint1": .vector(breakpoint1),
                                        "inputGrowAmount": .vector(growAmount), "inputFlipYTiles": .bool(flipYTiles)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "NinePartTiled", displayName: "Nine Part Tiled",
        categories: [FilterCategory.geometry, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Grows an image by tiling its middle row and column; corners keep their size.",
        parameters: NinePartGeometry.parameters(tiled: true)
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage")
        let g = try NinePartGeometry(extent: input.extent, b0: a.point("inputBreakpoint0"), b1: a.point("inputBreakpoint1"), grow: a.point("inputGrowAmount"))
        return g.image(input, name: "ninePartTiled", tiled: true, flipY: a.bool("inputFlipYTiles"))
    }
}
