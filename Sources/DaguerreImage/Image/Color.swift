import DaguerreCore

/// A colour with alpha, in a colour space (CIColor). Components are *not* premultiplied.
///
/// ```swift
/// let red = Color(red: 1, green: 0, blue: 0)                      // sRGB
/// let p3red = Color(red: 1, green: 0, blue: 0, colorSpace: .displayP3)
/// ```
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var red: Double, green: Double, blue: Double, alpha: Double
    public var colorSpace: ColorSpace

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1, colorSpace: ColorSpace = .sRGB) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.colorSpace = colorSpace
    }
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Premultiplied value in `working` (or unconverted when colour management is off).
    func premultiplied(in working: ColorSpace?) -> SIMD4<Float> {
        var rgb = SIMD3(red, green, blue)
        if let working, let converted = colorSpace.convert(rgb, to: working) { rgb = converted }
        let a = Float(alpha)
        return SIMD4(Float(rgb.x) * a, Float(rgb.y) * a, Float(rgb.z) * a, a)
    }
    public var description: String { "(\(red) \(green) \(blue) \(alpha)) \(colorSpace.name)" }
}
