/// A rectangle of whole pixels: the unit of tiles, regions of interest and buffers.
///
/// ```swift
/// let tile = IntRect(x: 512, y: 0, width: 512, height: 128)
/// tile.insetBy(-6).intersection(IntRect(x: 0, y: 0, width: 1000, height: 1000))
/// ```
public struct IntRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public init(width: Int, height: Int) { self.init(x: 0, y: 0, width: width, height: height) }

    public static let zero = IntRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// Pixel count; saturates at `Int.max` instead of overflowing (infinite extents clamp to 2^40).
    public var area: Int {
        if isEmpty { return 0 }
        let (a, o) = width.multipliedReportingOverflow(by: height)
        return o ? Int.max : a
    }

    public func intersection(_ o: IntRect) -> IntRect {
        let x0 = max(x, o.x)
        let y0 = max(y, o.y)
        let x1 = min(maxX, o.maxX)
        let y1 = min(maxY, o.maxY)
        return x1 > x0 && y1 > y0 ? IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .zero
    }
    public func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x)
        let y0 = min(y, o.y)
        return IntRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }
    /// Grows (negative `d`) or shrinks the rectangle on every side.
    public func insetBy(_ d: Int) -> IntRect { insetBy(dx: d, dy: d) }
    public func insetBy(dx: Int, dy: Int) -> IntRect {
        IntRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    public func contains(_ o: IntRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }
    public var description: String { "[\(x) \(y) \(width)×\(height)]" }
}
