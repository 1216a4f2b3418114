import DaguerreCore
import Foundation

/// The Droste effect, after M. C. Escher's Print Gallery (CIDroste; SPEC I4): the image holds a
/// smaller copy of itself in the inset rectangle from `insetPoint0` to `insetPoint1`, which
/// holds a smaller copy, and so on, wound into a spiral. Daguerre's definition (Core Image
/// does not publish its own): with c the inset's centre, ρ = min(input width ÷ inset width,
/// input height ÷ inset height) the scale between copies and L = ln ρ, the output point p gives
/// z = e^(−i·rotation)·(p − c)/zoom as a complex number (x + iy, y down) and w = ln z; the source
/// is w′ = γ·w with γ = periodicity − i·strands·L/(2π), so one turn around the centre passes
/// `strands` copies and shows `periodicity` turns of the image (whole numbers join seamlessly).
/// Re w′ is reduced modulo L into [ln r₀, ln r₀ + L), r₀ half the inset's shorter side;
/// z′ = e^w′, multiplied by ρ if it falls inside the inset; the input is read at c + z′. Every
/// read is within the inset grown ρ times about c; the extent is infinite. An inset no smaller
/// than the input (ρ ≤ 1) leaves the image as it is.
///
/// ```swift
/// let gallery = try photo.applying(Droste(insetPoint0: [200, 150], insetPoint1: [440, 330], strands: 1))
/// ```
public struct Droste: Filter {
    public var inputImage: Image?
    public var insetPoint0: [Double] = [200, 200]
    public var insetPoint1: [Double] = [400, 400]
    public var strands: Double = 1
    public var periodicity: Double = 1
    public var rotation: Double = 0
    public var zoom: Double = 1

    public init() {}
    public init(
        inputImage: Image? = nil, insetPoint0: [Double] = Self.defaults.insetPoint0, insetPoint1: [Double] = Self.defaults.insetPoint1,
        strands: Double = Self.defaults.strands, periodicity: Double = Self.defaults.periodicity,
        rotation: Double = Self.defaults.rotation, zoom: Double = Self.defaults.zoom
    ) {
        self.inputImage = inputImage
        self.insetPoint0 = insetPoint0
        self.insetPoint1 = insetPoint1
        self.strands = strands
        self.periodicity = periodicity
        self.rotation = rotation
        self.zoom = zoom
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Droste", displayName: "Droste", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Repeats the image inside itself, wound into a spiral.",
        parameters: [
            .image(\.inputImage),
            .position(\.insetPoint0, "inputInsetPoint0", "One corner of the rectangle the smaller copy fills.", min: -1e7, max: 1e7),
            .position(\.insetPoint1, "inputInsetPoint1", "The opposite corner.", min: -1e7, max: 1e7),
            .scalar(\.strands, "inputStrands", "Copies passed in one turn (spiral arms).", min: -10, max: 10),
            .scalar(\.periodicity, "inputPeriodicity", "Turns of the image per turn around the centre.", min: 1, max: 100, sliderMax: 5),
            .angle(\.rotation, "inputRotation", "Turns the result, in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
            .scalar(\.zoom, "inputZoom", "Magnifies the result.", min: 0.01, max: 1e4, sliderMin: 0.01, sliderMax: 10),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let e = input.extent
        let (p0, p1) = (SIMD2(insetPoint0[0], insetPoint0[1]), SIMD2(insetPoint1[0], insetPoint1[1]))
        let c = (p0 + p1) / 2
        let half = SIMD2(abs(p1.x - p0.x), abs(p1.y - p0.y)) / 2
        guard !e.isEmpty, e.width.isFinite, e.height.isFinite, half.x > 0, half.y > 0 else { return input }
        let rho = min(e.width / (2 * half.x), e.height / (2 * half.y))
        guard rho > 1.000001 else { return input }
        let L = log(rho)
        let r0 = log(min(half.x, half.y))
        let (gr, gi) = (periodicity, -strands * L / (2 * .pi))
        let (zm, turn) = (zoom, rotation)
        let outer = Rect(minX: c.x - rho * half.x, minY: c.y - rho * half.y, maxX: c.x + rho * half.x, maxY: c.y + rho * half.y)
        return Warp.image(
            input, name: "droste", extent: .infinite,
            parameters: [p0.x, p0.y, p1.x, p1.y, strands, periodicity, rotation, zoom, rho], roi: { _ in outer }
        ) { p in
            let d = RadialDistortion.rotate(p - c, -turn) / zm
            let r = (d * d).sum().squareRoot()
            guard r > 0 else { return nil }
            let (re, im) = (log(r), atan2(d.y, d.x))
            var sr = gr * re - gi * im
            let si = gr * im + gi * re
            sr -= L * ((sr - r0) / L).rounded(.down)
            var z = exp(sr) * SIMD2(cos(si), sin(si))
            if abs(z.x) < half.x, abs(z.y) < half.y { z *= rho }
            return c + z
        }
    }
}
