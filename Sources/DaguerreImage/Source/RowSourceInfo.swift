// What the engine must know of a row source before it reads a row: size, layout and colour.
import DaguerreCore

/// A ``RowSource``'s size, pixel layout, alpha and colour space, known before any row is read.
///
/// ```swift
/// let info = RowSourceInfo(kind: "RAW develop", width: 4032, height: 3024, pixelFormat: .rgbf,
///                          alpha: .premultiplied, colorSpace: .extendedLinearSRGB)
/// ```
public struct RowSourceInfo: Sendable, Hashable {
    /// What produces the rows, for render reports and messages ("jpeg", "RAW develop").
    public var kind: String
    public var width: Int
    public var height: Int
    /// The layout rows are produced in.
    public var pixelFormat: PixelFormat
    /// Straight or premultiplied alpha.
    public var alpha: PixelBuffer.AlphaMode
    /// The colour space the rows are in.
    public var colorSpace: ColorSpace

    public init(
        kind: String, width: Int, height: Int, pixelFormat: PixelFormat, alpha: PixelBuffer.AlphaMode = .straight,
        colorSpace: ColorSpace = .sRGB
    ) {
        self.kind = kind
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.alpha = alpha
        self.colorSpace = colorSpace
    }
}
