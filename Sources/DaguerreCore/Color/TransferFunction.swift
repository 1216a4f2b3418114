import Foundation

/// The curve between a colour space's encoded values and linear light (W1, I2).
///
/// Every curve is extended past [0, 1] the way Apple's extended spaces are: mirrored through
/// the origin for negative values and continued for values above 1, so wide-gamut and HDR
/// values survive a round trip.
///
/// ```swift
/// TransferFunction.sRGB.decode(0.5)   // 0.214 (linear)
/// TransferFunction.sRGB.encode(0.214) // 0.5
/// ```
public enum TransferFunction: Sendable, Hashable {
    case linear
    /// IEC 61966-2-1 (sRGB and Display P3).
    case sRGB
    /// A pure power law, `linear = encoded^γ` (Adobe RGB 1998 uses 563/256).
    case gamma(Double)
    /// ITU-R BT.709 / BT.2020 camera curve (OETF), with its α and β.
    case rec709(alpha: Double, beta: Double)
    /// ICC parametric curve type 4: `Y = (aX + b)^g` for X ≥ d, else `cX`.
    case parametric(g: Double, a: Double, b: Double, c: Double, d: Double)
    /// A sampled decode curve on [0, 1] (ICC `curv`), with its inverse sampled alike.
    case table(TransferTable)

    public static let bt2020 = TransferFunction.rec709(alpha: 1.099, beta: 0.018)  // ITU-R BT.2020 table 4 (10-bit), as colour-science
    public static let adobeRGB = TransferFunction.gamma(563.0 / 256.0)

    public var isLinear: Bool { if case .linear = self { return true } else { return false } }

    /// Encoded → linear.
    @inlinable public func decode(_ v: Double) -> Double {
        let s: Double = v < 0 ? -1 : 1
        let x = abs(v)
        switch self {
        case .linear: return v
        case .sRGB: return s * (x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4))
        case .gamma(let g): return s * pow(x, g)
        case .rec709(let a, let b): return s * (x < 4.5 * b ? x / 4.5 : pow((x + a - 1) / a, 1 / 0.45))
        case .parametric(let g, let a, let b, let c, let d): return s * (x >= d ? pow(a * x + b, g) : c * x)
        case .table(let t): return s * t.decode(x)
        }
    }

    /// Linear → encoded.
    @inlinable public func encode(_ v: Double) -> Double {
        let s: Double = v < 0 ? -1 : 1
        let x = abs(v)
        switch self {
        case .linear: return v
        case .sRGB: return s * (x <= 0.0031308 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055)
        case .gamma(let g): return s * pow(x, 1 / g)
        case .rec709(let a, let b): return s * (x < b ? 4.5 * x : a * pow(x, 0.45) - (a - 1))
        case .parametric(let g, let a, let b, let c, let d):
            let xd = d >= 0 ? (c * d) : 0
            return s * (x >= xd && a != 0 ? (pow(x, 1 / g) - b) / a : (c != 0 ? x / c : 0))
        case .table(let t): return s * t.encode(x)
        }
    }

    @inlinable public func decode(_ v: Float) -> Float { Float(decode(Double(v))) }
    @inlinable public func encode(_ v: Float) -> Float { Float(encode(Double(v))) }

    /// The same curve as ICC parametric type-4 parameters, when it has such a form.
    public var parametricParameters: [Double]? {
        switch self {
        case .linear: return [1, 1, 0, 1, 0]
        case .sRGB: return [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        case .gamma(let g): return [g, 1, 0, 0, 0]
        case .rec709(let a, let b): return [1 / 0.45, 1 / a, (a - 1) / a, 1 / 4.5, 4.5 * b]
        case .parametric(let g, let a, let b, let c, let d): return [g, a, b, c, d]
        case .table: return nil
        }
    }
}

/// A sampled, monotonic decode curve on [0, 1] and its inverse, from an ICC `curv` tag.
public struct TransferTable: Sendable, Hashable {
    public let forward: [Float]  // encoded (uniform) → linear
    public let inverse: [Float]  // linear (uniform) → encoded

    public init(forward: [Float], inverse: [Float]) {
        self.forward = forward
        self.inverse = inverse
    }

    @inlinable func lookup(_ t: [Float], _ x: Double) -> Double {
        let n = t.count - 1
        if x >= 1 { return Double(t[n]) * x }  // continue proportionally above 1
        let f = max(0, x) * Double(n)
        let i = min(Int(f), n - 1)
        let w = f - Double(i)
        return Double(t[i]) * (1 - w) + Double(t[i + 1]) * w
    }
    @inlinable public func decode(_ x: Double) -> Double { lookup(forward, x) }
    @inlinable public func encode(_ x: Double) -> Double { lookup(inverse, x) }
}
