import DaguerreCore
import Foundation

/// Mirrors a triangle of the image in its sides over the whole plane, fading with every mirror
/// (CITriangleKaleidoscope; SPEC I4, K3). Core Image does not publish its formula; Daguerre's:
/// the equilateral triangle of side `size` centred on `point`, its corners at
/// `point` + size·R(rotation)·(−½, −√3/6), (½, −√3/6) and (0, √3/3) (R turns by `rotation`
/// radians, clockwise on screen since y grows down), is mirrored in its sides (the fold
/// `TileLattice.triangle`, wallpaper group p3m1), and the colour of a point n mirror lines away
/// from the central triangle (the lines crossed on the way to it) is multiplied by `decay`ⁿ;
/// alpha is kept, so the copies fade towards black.
///
/// ```swift
/// let k = try photo.applying(TriangleKaleidoscope(point: [200, 150], size: 180, rotation: 0.4, decay: 0.85)).cropped(to: photo.extent)
/// ```
public struct TriangleKaleidoscope: Filter {
    public var inputImage: Image?
    public var point: [Double] = [150, 150]
    public var size: Double = 700
    public var rotation: Double = 5.92429
    public var decay: Double = 0.85

    public init() {}
    public init(
        inputImage: Image? = nil, point: [Double] = Self.defaults.point, size: Double = Self.defaults.size,
        rotation: Double = Self.defaults.rotation, decay: Double = Self.defaults.decay
    ) {
        self.inputImage = inputImage
        self.point = point
        self.size = size
        self.rotation = rotation
        self.decay = decay
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "TriangleKaleidoscope", displayName: "Triangle Kaleidoscope", categories: [.tileEffect, .stillImage, .builtIn],
        description: "Mirrors a triangle of the image in its sides, fading with every mirror.",
        parameters: [
            .image(\.inputImage),
            .position(\.point, "inputPoint", "The centre of the triangle read.", min: -1e7, max: 1e7),
            .scalar(\.size, "inputSize", "The triangle's side.", min: 0, max: 1e6, sliderMax: 1000),
            .angle(
                \.rotation, "inputRotation", "The triangle's rotation in radians.", min: -1e4, max: 1e4, sliderMin: 0, sliderMax: 2 * .pi),
            .scalar(\.decay, "inputDecay", "The factor the colour is multiplied by at every mirror.", min: 0, max: 1, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        // The lattice's corner is the triangle's first corner; its side runs along `rotation`.
        let r3 = 3.0.squareRoot()
        let turn = SIMD2(cos(rotation), sin(rotation))
        let corner = SIMD2(point[0], point[1]) - size * SIMD2(0.5 * turn.x - r3 / 6 * turn.y, 0.5 * turn.y + r3 / 6 * turn.x)
        let lattice = TileLattice(center: [corner.x, corner.y], angle: rotation, width: size)
        guard !lattice.isDegenerate else { return .empty }
        let source = lattice.sourceBounds([SIMD2(0, 0), SIMD2(1, 0), SIMD2(0.5, r3 / 2)]).insetBy(dx: -2, dy: -2)
        let d = Float(decay)
        let parameters = point + [size, rotation, decay]
        let node = SamplingNode(
            name: "triangleKaleidoscope", inputs: [input.node], extent: .infinite,
            parameters: parameters.map { String(format: "%.6g", $0) }.joined(separator: " "), outputFormat: nil,
            digest: { $0.add(parameters) }, roi: { _, _ in source }
        ) { samplers, dest in
            let ab = lattice.coordinates(SIMD2(Double(dest.x), Double(dest.y)))
            let q = lattice.point(TileLattice.triangle(ab))
            var c = samplers[0].sample(SIMD2(Float(q.x), Float(q.y)))
            let n = Self.mirrorsCrossed(ab)
            if n > 0 {
                let f = d == 0 ? 0 : Float(pow(Double(d), Double(n)))
                c = SIMD4(c.x * f, c.y * f, c.z * f, c.w)
            }
            return c
        }
        return Image(node)
    }

    /// How many mirror lines of the triangle (0, 0), (1, 0), (½, √3/2) lie between it and `p`:
    /// each of the three families of lines (y = k·√3/2, √3x − y = k·√3, √3x + y = k·√3) has the
    /// triangle in its band k = 0, and a point in band k is |k| lines away.
    static func mirrorsCrossed(_ p: SIMD2<Double>) -> Int {
        let r3 = 3.0.squareRoot()
        let bands = [2 * p.y / r3, p.x - p.y / r3, p.x + p.y / r3].map { $0.rounded(.down) }
        guard bands.allSatisfy({ abs($0) < 1e9 }) else { return Int.max / 4 }
        return bands.reduce(0) { $0 + Int(abs($1)) }
    }
}
