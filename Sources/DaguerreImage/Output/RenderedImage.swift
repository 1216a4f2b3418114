import DaguerreCore
import Synchronization

/// A rendered image (CGImage from `createCGImage(_:from:format:colorSpace:deferred:)`, I7).
///
/// Deferred, it holds only the recipe: ``copyPixels(in:)`` renders just the rectangle asked
/// for, and ``buffer()`` renders everything on first use and keeps it. Immediate, the context
/// renders the whole image at creation.
///
/// ```swift
/// let rendered = try context.createRenderedImage(image, format: .rgbah, colorSpace: .extendedLinearSRGB, deferred: true)
/// let corner = try rendered.copyPixels(in: IntRect(x: 0, y: 0, width: 64, height: 64))
/// ```
public final class RenderedImage: Sendable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let colorSpace: ColorSpace?
    let context: Context
    let image: Image
    let rect: IntRect
    private let rendered = Mutex<PixelBuffer?>(nil)

    init(context: Context, image: Image, rect: IntRect, format: PixelFormat, colorSpace: ColorSpace?) {
        self.context = context
        self.image = image
        self.rect = rect
        self.format = format
        self.colorSpace = colorSpace
        width = rect.width
        height = rect.height
    }

    /// True once the whole image has been rendered.
    public var isRendered: Bool { rendered.withLock { $0 != nil } }

    /// The whole image, rendering it the first time.
    public func buffer() throws(DaguerreError) -> PixelBuffer {
        if let b = rendered.withLock({ $0 }) { return b }
        let b = try context.createBuffer(image, bounds: Rect(rect), format: format, colorSpace: colorSpace)
        rendered.withLock { $0 = b }
        return b
    }

    /// Pixels of `sub` (in this image's own coordinates, origin top-left), rendering only them.
    public func copyPixels(in sub: IntRect) throws(DaguerreError) -> PixelBuffer {
        guard IntRect(width: width, height: height).contains(sub), !sub.isEmpty else {
            throw .invalidArgument(what: "Rectangle \(sub)", problem: "it must lie inside the \(width)×\(height) image")
        }
        let r = Rect(x: Double(rect.x + sub.x), y: Double(rect.y + sub.y), width: Double(sub.width), height: Double(sub.height))
        return try context.createBuffer(image, bounds: r, format: format, colorSpace: colorSpace)
    }
}
