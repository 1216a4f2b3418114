import DaguerreCore
import Foundation

/// A power curve on each colour channel (CIGammaAdjust): `sign(c)·|c|^power` on unpremultiplied
/// linear values. Evaluated through a table indexed by the value's Float16 bit pattern (built
/// once per filter with libm's `powf`): exact to half-float precision, which is the precision of
/// the default working format, at the cost of one conversion and a lookup per channel.
///
/// ```swift
/// let lifted = try image.applying(GammaAdjust(power: 0.8))
/// ```
public struct GammaAdjust: Filter {
    public var inputImage: Image?
    public var power: Double
    public init(inputImage: Image? = nil, power: Double = 1) { self.inputImage = inputImage; self.power = power }
    public var values: [String: FilterValue] { filterValues(["inputPower": .number(power)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "GammaAdjust", displayName: "Gamma Adjust",
        categories: [FilterCategory.colorAdjustment, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Raises each colour channel to a power.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputPower", kind: .scalar, description: "The exponent; 1 leaves the image unchanged.",
                                     default: 1, min: 0.01, max: 100, sliderMin: 0.25, sliderMax: 4)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), g = Float(a.number("inputPower"))
        if g == 1 { return input }
        let table = FloatTable((0..<65536).map { (bits: Int) -> Float in
            let x = Float(Float16(bitPattern: UInt16(bits)))
            return x.isFinite ? (x < 0 ? -powf(-x, g) : powf(x, g)) : x
        })
        return Image(PointwiseNode(name: "gammaAdjust", inputs: [input.node], extent: input.extent, parameters: "power \(g)",
                                   digest: { $0.add(g) }) { span in
            let t = table.values
            SpanMath.forEachUnpremultiplied(span) { v in
                let h = SIMD4<Float16>(v)
                return SIMD4(t[Int(h.x.bitPattern)], t[Int(h.y.bitPattern)], t[Int(h.z.bitPattern)], v.w)
            }
        })
    }
}
