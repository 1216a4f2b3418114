import Foundation

/// A rectangle in image space, finite or infinite (generators and `clampedToExtent()` have an
/// infinite extent, I1).
///
/// Coordinates run left to right and **top to bottom** with pixel centres at half-integers, as in
/// files, libvips, OpenCV and Pillow (Core Image's origin is bottom-left; ARCHITECTURE.md says why
/// Daguerre differs). Stored as min/max edges so that infinite edges compose without NaN.
///
/// ```swift
/// let r = Rect(x: 0, y: 0, width: 4032, height: 3024)
/// r.insetBy(dx: -6, dy: -6).intersection(.infinite) == r.insetBy(dx: -6, dy: -6)
/// ```
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        minX = x
        minY = y
        maxX = x + width
        maxY = y + height
    }
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
    public init(_ r: IntRect) { self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height)) }

    public static let infinite = Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
    public static let null = Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var isInfinite: Bool { minX.isInfinite || minY.isInfinite || maxX.isInfinite || maxY.isInfinite }
    public var isEmpty: Bool { !(maxX > minX && maxY > minY) }
    public var midX: Double { (minX + maxX) / 2 }
    public var midY: Double { (minY + maxY) / 2 }

    public func intersection(_ o: Rect) -> Rect {
        let r = Rect(
            minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY),
            maxX: Swift.min(maxX, o.maxX), maxY: Swift.min(maxY, o.maxY))
        return r.isEmpty ? .null : r
    }
    public func union(_ o: Rect) -> Rect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return Rect(
            minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
            maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }
    /// Negative insets grow the rectangle (a blur's margin).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        if isEmpty { return self }
        return Rect(minX: minX + dx, minY: minY + dy, maxX: maxX - dx, maxY: maxY - dy)
    }
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
    }
    public func contains(_ o: Rect) -> Bool {
        o.isEmpty || (o.minX >= minX && o.minY >= minY && o.maxX <= maxX && o.maxY <= maxY)
    }
    /// The smallest whole-pixel rectangle containing this one; infinite edges become ±2^40.
    public var integral: IntRect {
        let big = Double(1 << 40)
        func c(_ v: Double) -> Double { Swift.min(Swift.max(v, -big), big) }
        if isEmpty { return .zero }
        let x0 = Int(c(minX).rounded(.down))
        let y0 = Int(c(minY).rounded(.down))
        let x1 = Int(c(maxX).rounded(.up))
        let y1 = Int(c(maxY).rounded(.up))
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    public var description: String {
        if isInfinite { return "[infinite]" }
        func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.4g", v) }
        return "[\(f(minX)) \(f(minY)) \(f(width))×\(f(height))]"
    }
}
