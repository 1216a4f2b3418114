import DaguerreCore
import Foundation

/// The reflection-group machinery the lattice tile filters share (SPEC I4; Core Image's
/// TileEffect category). Core Image does not publish these filters' formulas; Daguerre defines
/// each as a fold of the plane onto one fundamental region, in lattice coordinates (a, b) with
/// p = centre + a·e1 + b·e2, e1 = width·(cos θ, sin θ), e2 = width·(cos(θ + α), sin(θ + α)) (α,
/// the acute angle, is π/2 where the filter has none: a square lattice). The output pixel at p
/// is the input sampled bilinearly at the folded point, so the output is infinite and the region
/// of interest is always the fundamental region's bounding box in the input (padded).
///
/// ```swift
/// let lattice = TileLattice(center: [150, 150], angle: 0, width: 100)
/// let src = lattice.point(TileLattice.mirror(lattice.coordinates(SIMD2(420, 77))))
/// ```
struct TileLattice: Sendable {
    let center: SIMD2<Double>
    let e1: SIMD2<Double>
    let e2: SIMD2<Double>
    /// The inverse basis, rows of the matrix taking p − centre to (a, b).
    let inv1: SIMD2<Double>
    let inv2: SIMD2<Double>

    init(center: [Double], angle: Double, width: Double, acuteAngle: Double = .pi / 2) {
        self.center = SIMD2(center[0], center[1])
        e1 = width * SIMD2(cos(angle), sin(angle))
        e2 = width * SIMD2(cos(angle + acuteAngle), sin(angle + acuteAngle))
        let det = e1.x * e2.y - e2.x * e1.y
        inv1 = SIMD2(e2.y, -e2.x) / det
        inv2 = SIMD2(-e1.y, e1.x) / det
    }

    /// Whether the lattice has area (a width above zero, an angle that is not flat).
    var isDegenerate: Bool {
        let det = e1.x * e2.y - e2.x * e1.y
        return !(abs(det) > 1e-9) || !inv1.x.isFinite || !inv2.x.isFinite
    }

    @inline(__always) func coordinates(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let d = p - center
        return SIMD2((inv1 * d).sum(), (inv2 * d).sum())
    }

    @inline(__always) func point(_ ab: SIMD2<Double>) -> SIMD2<Double> { center + ab.x * e1 + ab.y * e2 }

    /// The input rectangle holding the region spanned by lattice points `region`.
    func sourceBounds(_ region: [SIMD2<Double>]) -> Rect { Warp.bounds(region.map(point)) }

    /// x − ⌊x⌋, in [0, 1).
    @inline(__always) static func fract(_ x: Double) -> Double { x - x.rounded(.down) }

    /// The triangle wave |x − 2·round(x/2)|, in [0, 1]: the line folded by mirrors at every integer.
    @inline(__always) static func tri(_ x: Double) -> Double { abs(x - 2 * (x / 2).rounded()) }

    /// Translation only: the cell [0, 1)².
    @inline(__always) static func translate(_ ab: SIMD2<Double>) -> SIMD2<Double> { SIMD2(fract(ab.x), fract(ab.y)) }

    /// Mirrors on every lattice line: the cell [0, 1]².
    @inline(__always) static func mirror(_ ab: SIMD2<Double>) -> SIMD2<Double> { SIMD2(tri(ab.x), tri(ab.y)) }

    /// p4: the 2×2 block of the cell turned 0°, 90°, 180°, 270° about the block's centre (1, 1).
    @inline(__always) static func pinwheel(_ ab: SIMD2<Double>) -> SIMD2<Double> {
        let a = ab.x - 2 * (ab.x / 2).rounded(.down)
        let b = ab.y - 2 * (ab.y / 2).rounded(.down)
        switch (a >= 1, b >= 1) {
        case (false, false): return SIMD2(a, b)
        case (true, false): return SIMD2(b, 2 - a)
        case (true, true): return SIMD2(2 - a, 2 - b)
        case (false, true): return SIMD2(2 - b, a)
        }
    }

    /// p4m: mirrored on the lattice lines and on the cell's diagonal, into 0 ≤ b ≤ a ≤ 1.
    @inline(__always) static func eightfold(_ ab: SIMD2<Double>) -> SIMD2<Double> {
        let m = mirror(ab)
        return m.y > m.x ? SIMD2(m.y, m.x) : m
    }

    /// pg: rows translated along a; odd rows mirrored across b = 1 and shifted by half a cell.
    @inline(__always) static func glide(_ ab: SIMD2<Double>) -> SIMD2<Double> {
        let b = ab.y - 2 * (ab.y / 2).rounded(.down)
        return b < 1 ? SIMD2(fract(ab.x), b) : SIMD2(fract(ab.x + 0.5), 2 - b)
    }

    /// p3m1: the equilateral triangle (0, 0), (1, 0), (½, √3/2) mirrored in its sides. The point
    /// is first moved by the group's translations (½·(3, √3) and (0, √3)) next to the triangle,
    /// then reflected in whichever side it lies beyond until it lies inside.
    @inline(__always) static func triangle(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let r3 = 3.0.squareRoot()
        var s = 2 * p.x / 3
        var t = (p.y - s * r3 / 2) / r3
        s -= s.rounded(.down)
        t -= t.rounded(.down)
        var q = s * SIMD2(1.5, r3 / 2) + t * SIMD2(0, r3)
        let n1 = SIMD2(r3 / 2, 0.5)
        let n2 = SIMD2(r3 / 2, -0.5)
        for _ in 0..<16 {
            if q.y < 0 {
                q.y = -q.y
                continue
            }
            let d1 = (n1 * q).sum() - r3 / 2
            if d1 > 0 {
                q -= 2 * d1 * n1
                continue
            }
            let d2 = (n2 * q).sum()
            if d2 < 0 {
                q -= 2 * d2 * n2
                continue
            }
            break
        }
        return q
    }

    /// p6m: `triangle`, then mirrored in the triangle's medians into the right triangle (0, 0),
    /// (½, 0), (½, √3/6).
    @inline(__always) static func twelvefold(_ p: SIMD2<Double>) -> SIMD2<Double> {
        var q = triangle(p)
        let n = SIMD2(-0.5, 3.0.squareRoot() / 2)
        for _ in 0..<8 {
            let d = (n * q).sum()
            if d > 0 {
                q -= 2 * d * n
                continue
            }
            if q.x > 0.5 {
                q.x = 1 - q.x
                continue
            }
            break
        }
        return q
    }

    /// p31m, after `triangle`: the point turned by a multiple of 120° about the triangle's centre
    /// (½, √3/6) into the wedge between that centre and the side from (0, 0) to (1, 0) (the
    /// directions from 210° to 330° seen from the centre).
    @inline(__always) static func threefold(_ q: SIMD2<Double>) -> SIMD2<Double> {
        let c = SIMD2(0.5, 0.5 / 3.0.squareRoot())
        let d = q - c
        let third = 2 * Double.pi / 3
        let k = ((atan2(d.y, d.x) - 7 * Double.pi / 6) / third).rounded(.down)
        let turn = -k * third
        return c + SIMD2(cos(turn) * d.x - sin(turn) * d.y, sin(turn) * d.x + cos(turn) * d.y)
    }

    /// p6: the hexagonal lattice of centres (1, 0), (½, √3/2); the point's offset from the nearest
    /// centre, turned by a multiple of 60° into the sector from 0° to 60°.
    @inline(__always) static func sixfold(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let r3 = 3.0.squareRoot()
        let b = p.y * 2 / r3
        let a = p.x - b / 2
        let a0 = a.rounded(.down)
        let b0 = b.rounded(.down)
        var best = SIMD2<Double>(0, 0)
        var bestDistance = Double.infinity
        for (i, j) in [(0.0, 0.0), (1, 0), (0, 1), (1, 1)] {
            let centre = SIMD2((a0 + i) + (b0 + j) / 2, (b0 + j) * r3 / 2)
            let d = p - centre
            let dist = (d * d).sum()
            if dist < bestDistance {
                bestDistance = dist
                best = d
            }
        }
        let sector = Double.pi / 3
        let k = (atan2(best.y, best.x) / sector).rounded(.down)
        let turn = -k * sector
        return SIMD2(cos(turn) * best.x - sin(turn) * best.y, sin(turn) * best.x + cos(turn) * best.y)
    }

    /// The common parameters of the centre-angle-width tiles, declared once.
    static func parameters<F: Filter>(
        center: WritableKeyPath<F, [Double]> & Sendable, angle: WritableKeyPath<F, Double> & Sendable,
        width: WritableKeyPath<F, Double> & Sendable
    ) -> [FilterDeclaration<F>.Parameter] {
        [
            .position(center, "inputCenter", "A corner of the tile.", min: -1e7, max: 1e7),
            .angle(angle, "inputAngle", "The tiling's rotation in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
            .scalar(width, "inputWidth", "The tile's width.", min: 0, max: 1e6, sliderMax: 200),
        ]
    }

    /// `input` folded by `fold` (lattice coordinates → fundamental region), the region given
    /// by its corner points in lattice coordinates.
    func image(
        _ input: Image, name: String, parameters: [Double], region: [SIMD2<Double>],
        fold: @escaping @Sendable (SIMD2<Double>) -> SIMD2<Double>
    ) -> Image {
        guard !isDegenerate else { return .empty }
        let source = sourceBounds(region)
        let lattice = self
        return Warp.image(input, name: name, extent: .infinite, parameters: parameters, roi: { _ in source }) { p in
            lattice.point(fold(lattice.coordinates(p)))
        }
    }

    /// The unit cell's corners in lattice coordinates.
    static let unitCell: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]
}
