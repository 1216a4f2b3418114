import Foundation

/// A 2-D affine transform, `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (CGAffineTransform's
/// layout), used by `Image.transformed(by:)` and the AffineTransform filter.
///
/// ```swift
/// let t = AffineTransform2D(scaleX: 0.5, y: 0.5).translatedBy(x: 10, y: 0)
/// ```
public struct AffineTransform2D: Sendable, Hashable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }
    public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// Rotation by `angle` radians (clockwise on screen, since y points down).
    public init(rotationAngle angle: Double) {
        let c = cos(angle)
        let s = sin(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// `self` followed by `t`.
    public func concatenating(_ t: AffineTransform2D) -> AffineTransform2D {
        AffineTransform2D(
            a: a * t.a + b * t.c, b: a * t.b + b * t.d,
            c: c * t.a + d * t.c, d: c * t.b + d * t.d,
            tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    public func translatedBy(x: Double, y: Double) -> AffineTransform2D { concatenating(.init(translationX: x, y: y)) }
    public func scaledBy(x: Double, y: Double) -> AffineTransform2D { concatenating(.init(scaleX: x, y: y)) }

    public var determinant: Double { a * d - b * c }
    public var isInvertible: Bool { determinant.isFinite && abs(determinant) > 1e-12 }
    public var inverted: AffineTransform2D? {
        let det = determinant
        guard isInvertible else { return nil }
        return AffineTransform2D(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
    /// True when the transform only scales and translates (the separable resampling fast path).
    public var isAxisAligned: Bool { b == 0 && c == 0 }
    public var isIdentity: Bool { self == .identity }

    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }
    /// The bounding box of the transformed rectangle.
    public func apply(to r: Rect) -> Rect {
        if r.isEmpty { return .null }
        if r.isInfinite { return .infinite }
        let pts = [
            apply(x: r.minX, y: r.minY), apply(x: r.maxX, y: r.minY),
            apply(x: r.minX, y: r.maxY), apply(x: r.maxX, y: r.maxY),
        ]
        let xs = pts.map(\.x)
        let ys = pts.map(\.y)
        return Rect(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)
    }
    public var description: String { "[\(a) \(b) \(c) \(d) \(tx) \(ty)]" }
}
