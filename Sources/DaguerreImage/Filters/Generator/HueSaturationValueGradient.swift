import DaguerreCore
import Foundation

/// A colour wheel (CIHueSaturationValueGradient, new in the seed, I4): hue by angle,
/// saturation by distance from the centre, at a given value (brightness), *in a given colour
/// space*, so a Display P3 wheel shows colours an sRGB wheel cannot. The disc of `radius` sits
/// in the extent [0, 0, 2r, 2r]; `softness` feathers its edge over that many pixels; `dither`
/// adds that many 1/255 steps of noise against banding.
///
/// ```swift
/// let wheel = try HueSaturationValueGradient(value: 1, radius: 300, colorSpace: .displayP3).outputImage()
/// ```
public struct HueSaturationValueGradient: Filter {
    public var value: Double = 1
    public var radius: Double = 300
    public var softness: Double = 1
    public var dither: Double = 1
    public var colorSpace: ColorSpace = .sRGB

    public init() {}
    public init(
        value: Double = Self.defaults.value, radius: Double = Self.defaults.radius, softness: Double = Self.defaults.softness,
        dither: Double = Self.defaults.dither, colorSpace: ColorSpace = Self.defaults.colorSpace
    ) {
        self.value = value
        self.radius = radius
        self.softness = softness
        self.dither = dither
        self.colorSpace = colorSpace
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "HueSaturationValueGradient", displayName: "Hue/Saturation/Value Gradient",
        categories: [.gradient, .generator, .video, .stillImage, .builtIn],
        description: "A hue/saturation disc at one value, in a chosen colour space.",
        parameters: [
            .scalar(\.value, "inputValue", "Brightness (HSV value).", min: 0, max: 10, sliderMax: 1),
            .scalar(\.radius, "inputRadius", "Disc radius in pixels.", min: 1, max: 100000, sliderMax: 1000),
            .scalar(\.softness, "inputSoftness", "Edge feather in pixels.", min: 0, max: 1000, sliderMax: 10),
            .scalar(\.dither, "inputDither", "Noise amplitude in 1/255 steps.", min: 0, max: 100, sliderMax: 3),
            .colorSpace(\.colorSpace, "inputColorSpace", "The space the wheel's colours are in."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let v = Float(value)
        let r = radius
        let soft = Float(softness)
        let dither = Float(self.dither)
        let space = colorSpace
        guard case .rgb(_, let transfer) = space.model else { throw Self.invalid(\.colorSpace, "\(space.name) is not an RGB space") }
        return Image(
            GeneratorNode(
                name: "hueSaturationValueGradient", extent: Rect(x: 0, y: 0, width: 2 * r, height: 2 * r),
                parameters: "value \(v) radius \(r) softness \(soft) dither \(dither) \(space.name)",
                digest: { d in
                    d.add(v)
                    d.add(r)
                    d.add(soft)
                    d.add(dither)
                    d.add(space)
                }
            ) { working in
                let m = working.flatMap { LinearMatrix.nonIdentity(space.linearMatrix(to: $0)) }
                let decode = working != nil
                let rf = Float(r)
                return { span in
                    let dy = Float(span.y) + 0.5 - rf
                    for i in 0..<span.count {
                        let x = span.x + i
                        let dx = Float(x) + 0.5 - rf
                        let d = (dx * dx + dy * dy).squareRoot()
                        let alpha = soft > 0 ? min(max((rf - d) / soft + 0.5, 0), 1) : (d <= rf ? 1 : 0)
                        if alpha == 0 {
                            span.pixels[i] = .zero
                            continue
                        }
                        var hue = atan2f(-dy, dx) / (2 * .pi)
                        if hue < 0 { hue += 1 }
                        var rgb = HueSaturationValueGradient.hsv(hue, min(d / rf, 1), v)
                        if dither > 0 {
                            // A stable hash of the pixel position, in [−0.5, 0.5).
                            var h = UInt32(truncatingIfNeeded: x &* 73856093 ^ span.y &* 19349663)
                            h ^= h >> 13
                            h &*= 0x5bd1e995
                            h ^= h >> 15
                            rgb += SIMD3(repeating: (Float(h & 0xffff) / 65536 - 0.5) * dither / 255)
                        }
                        var p = SIMD4(rgb.x, rgb.y, rgb.z, 1)
                        if decode {
                            p = SIMD4(transfer.decode(p.x), transfer.decode(p.y), transfer.decode(p.z), 1)
                            if let m { p = m.apply(p) }
                        }
                        span.pixels[i] = SIMD4(p.x * alpha, p.y * alpha, p.z * alpha, alpha)
                    }
                }
            })
    }

    /// HSV → RGB, hue in [0, 1).
    static func hsv(_ h: Float, _ s: Float, _ v: Float) -> SIMD3<Float> {
        let k = SIMD3<Float>(5, 3, 1) + h * 6
        let kk = SIMD3<Float>(
            k.x.truncatingRemainder(dividingBy: 6), k.y.truncatingRemainder(dividingBy: 6), k.z.truncatingRemainder(dividingBy: 6))
        let t = pointwiseMax(pointwiseMin(pointwiseMin(kk, 4 - kk), SIMD3(repeating: 1)), .zero)
        return v - v * s * t
    }
}
