/// CIE 1931 xy chromaticities of an RGB space's primaries and white point (W1, I8).
///
/// ```swift
/// let p3 = Primaries.displayP3
/// let toXYZ = p3.rgbToXYZ   // columns are the XYZ of R, G and B; white maps to Y = 1
/// ```
public struct Primaries: Sendable, Hashable {
    public var red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>

    public init(red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
    }

    public static let d65 = SIMD2<Double>(0.3127, 0.3290)
    public static let d50 = SIMD2<Double>(0.3457, 0.3585)
    public static let srgb = Primaries(red: [0.64, 0.33], green: [0.30, 0.60], blue: [0.15, 0.06], white: d65)
    public static let displayP3 = Primaries(red: [0.680, 0.320], green: [0.265, 0.690], blue: [0.150, 0.060], white: d65)
    public static let adobeRGB = Primaries(red: [0.64, 0.33], green: [0.21, 0.71], blue: [0.15, 0.06], white: d65)
    public static let bt2020 = Primaries(red: [0.708, 0.292], green: [0.170, 0.797], blue: [0.131, 0.046], white: d65)

    /// xy → XYZ with Y = 1.
    public static func xyz(_ xy: SIMD2<Double>) -> SIMD3<Double> { SIMD3(xy.x / xy.y, 1, (1 - xy.x - xy.y) / xy.y) }

    /// The normalised primary matrix (SMPTE RP 177): linear RGB → XYZ relative to this white.
    public var rgbToXYZ: Matrix3 {
        let r = Primaries.xyz(red)
        let g = Primaries.xyz(green)
        let b = Primaries.xyz(blue)
        let p = Matrix3([r.x, g.x, b.x, r.y, g.y, b.y, r.z, g.z, b.z])
        let s = p.inverse! * Primaries.xyz(white)
        return p * .diagonal(s.x, s.y, s.z)
    }
}
