import DaguerreCore

/// A plane projective transform (3×3 matrix acting on (x, y, 1)), as the perspective filters
/// use it (SPEC I4): the one that takes a rectangle's corners, or a quadrilateral's, to another
/// quadrilateral's, built as unit square → quadrilateral after Heckbert's closed form.
///
/// ```swift
/// let h = try Homography(from: Rect(x: 0, y: 0, width: 100, height: 100), to: [[10, 0], [90, 5], [100, 100], [0, 95]])
/// let p = h.apply(SIMD2(50, 50))  // the image of the square's centre
/// ```
struct Homography: Sendable, Hashable {
    /// Row-major m[0...8].
    var m: [Double]

    init(_ m: [Double]) { self.m = m }

    /// The map of the unit square's corners (0,0), (1,0), (1,1), (0,1) onto `q` (top-left,
    /// top-right, bottom-right, bottom-left); nil when `q` is degenerate.
    static func squareToQuad(_ q: [SIMD2<Double>]) -> Homography? {
        let (p0, p1, p2, p3) = (q[0], q[1], q[2], q[3])
        let s = p0 - p1 + p2 - p3
        let d1 = p1 - p2
        let d2 = p3 - p2
        let den = d1.x * d2.y - d2.x * d1.y
        var g = 0.0
        var h = 0.0
        if s.x != 0 || s.y != 0 {
            guard abs(den) > 1e-12 else { return nil }
            g = (s.x * d2.y - d2.x * s.y) / den
            h = (d1.x * s.y - s.x * d1.y) / den
        }
        let r = Homography([
            p1.x - p0.x + g * p1.x, p3.x - p0.x + h * p3.x, p0.x,
            p1.y - p0.y + g * p1.y, p3.y - p0.y + h * p3.y, p0.y,
            g, h, 1,
        ])
        return r.inverse == nil ? nil : r
    }

    /// The map of `rect`'s corners onto `q` (top-left, top-right, bottom-right, bottom-left).
    init?(from rect: Rect, to q: [SIMD2<Double>]) {
        guard rect.width > 0, rect.height > 0, let s = Self.squareToQuad(q) else { return nil }
        let n = Homography([1 / rect.width, 0, -rect.minX / rect.width, 0, 1 / rect.height, -rect.minY / rect.height, 0, 0, 1])
        self = s.concatenating(after: n)
    }

    /// The map of quadrilateral `a` onto quadrilateral `b`.
    init?(from a: [SIMD2<Double>], to b: [SIMD2<Double>]) {
        guard let sa = Self.squareToQuad(a), let inv = sa.inverse, let sb = Self.squareToQuad(b) else { return nil }
        self = sb.concatenating(after: inv)
    }

    /// `self` applied after `first` (the matrix product self · first).
    func concatenating(after first: Homography) -> Homography {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { r[i * 3 + j] = (0..<3).reduce(0) { $0 + m[i * 3 + $1] * first.m[$1 * 3 + j] } } }
        return Homography(r)
    }

    var inverse: Homography? {
        let a = m
        let c0 = a[4] * a[8] - a[5] * a[7]
        let c1 = a[5] * a[6] - a[3] * a[8]
        let c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        guard det.isFinite, abs(det) > 1e-15 else { return nil }
        return Homography(
            [
                c0, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
                c1, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
                c2, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
            ].map { $0 / det })
    }

    /// The homogeneous image (x, y, w) of `p`.
    @inline(__always) func homogeneous(_ p: SIMD2<Double>) -> SIMD3<Double> {
        SIMD3(m[0] * p.x + m[1] * p.y + m[2], m[3] * p.x + m[4] * p.y + m[5], m[6] * p.x + m[7] * p.y + m[8])
    }

    /// The image of `p` (not finite on the line sent to infinity).
    @inline(__always) func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let h = homogeneous(p)
        return SIMD2(h.x / h.z, h.y / h.z)
    }

    /// The image of `rect` when it lies wholly on the side of the vanishing line where `w` has
    /// `sign` (then it is the corners' hull), else nil.
    func bounds(of rect: Rect, sign: Double) -> Rect? {
        guard !rect.isEmpty, !rect.isInfinite else { return nil }
        let corners = [SIMD2(rect.minX, rect.minY), SIMD2(rect.maxX, rect.minY), SIMD2(rect.maxX, rect.maxY), SIMD2(rect.minX, rect.maxY)]
        let hs = corners.map(homogeneous)
        guard hs.allSatisfy({ $0.z * sign > 1e-12 }) else { return nil }
        return Warp.bounds(hs.map { SIMD2($0.x / $0.z, $0.y / $0.z) })
    }

    /// The filter's sampling map: output point → input point, nil beyond the vanishing line
    /// (where `w` has the other sign than at points of the source).
    func samplingMap(sign: Double) -> @Sendable (SIMD2<Double>) -> SIMD2<Double>? {
        let m = self
        return { p in
            let h = m.homogeneous(p)
            guard h.z * sign > 0 else { return nil }
            return SIMD2(h.x / h.z, h.y / h.z)
        }
    }
}
