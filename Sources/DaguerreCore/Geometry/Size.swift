// A width and a height (CGSize): a target size for previews and thumbnails.

/// A size in pixels (or any unit), as Core Graphics' CGSize.
///
/// ```swift
/// let target = Size(width: 640, height: 640)
/// let fit = min(target.width / image.extent.width, target.height / image.extent.height)
/// ```
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width.formatted())×\(height.formatted())" }
}

extension Double {
    /// Whole numbers without a fraction, others as Swift prints them.
    fileprivate func formatted() -> String { rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
