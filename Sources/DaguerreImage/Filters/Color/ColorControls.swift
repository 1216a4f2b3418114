import DaguerreCore

/// Saturation, brightness and contrast (CIColorControls).
///
/// Saturation mixes with luminance in linear light (so greys stay grey and hues stay put);
/// brightness adds and contrast scales around middle grey on perceptual (sRGB-curve) values,
/// where those words mean what photographers expect.
///
/// ```swift
/// let punchy = try image.applying(ColorControls(saturation: 1.3, contrast: 1.1))
/// ```
public struct ColorControls: Filter {
    public var inputImage: Image?
    public var saturation: Double, brightness: Double, contrast: Double
    public init(inputImage: Image? = nil, saturation: Double = 1, brightness: Double = 0, contrast: Double = 1) {
        self.inputImage = inputImage; self.saturation = saturation; self.brightness = brightness; self.contrast = contrast
    }
    public var values: [String: FilterValue] { filterValues(["inputSaturation": .number(saturation), "inputBrightness": .number(brightness), "inputContrast": .number(contrast)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "ColorControls", displayName: "Color Controls",
        categories: [FilterCategory.colorAdjustment, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Adjusts saturation (linear light), brightness and contrast (perceptual values).",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputSaturation", kind: .scalar, description: "0 is grey, 1 unchanged.", default: 1, min: 0, max: 100, sliderMax: 2),
                     FilterParameter(key: "inputBrightness", kind: .scalar, description: "Added to perceptual values.", default: 0, min: -10, max: 10, sliderMin: -1, sliderMax: 1),
                     FilterParameter(key: "inputContrast", kind: .scalar, description: "Scale around middle grey.", default: 1, min: 0, max: 100, sliderMin: 0.25, sliderMax: 4)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage")
        let s = Float(a.number("inputSaturation")), b = Float(a.number("inputBrightness")), c = Float(a.number("inputContrast"))
        let curve = PerceptualCurve.shared
        let perceptual = b != 0 || c != 1
        // Saturation alone mixes each pixel with its luminance: a 3×3 matrix.
        let l = SpanMath.luma, sd = Double(s)
        let sat = Matrix3((0..<3).flatMap { r in (0..<3).map { col in (1 - sd) * Double(l[col]) + (r == col ? sd : 0) } })
        return Image(PointwiseNode(name: "colorControls", inputs: [input.node], extent: input.extent,
                                   parameters: "saturation \(s) brightness \(b) contrast \(c)", linear: perceptual ? nil : sat,
                                   digest: { d in d.add(s); d.add(b); d.add(c) }) { span in
            let s = s, b = b, c = c, perceptual = perceptual
            SpanMath.forEachUnpremultiplied(span) { v in
                let y = SpanMath.luminance(v)
                var o = SIMD4(repeating: y) + (v - SIMD4(repeating: y)) * s
                o.w = v.w
                if perceptual {
                    var e = curve.encode(o)
                    e = (e - 0.5) * c + 0.5 + b
                    e.w = v.w
                    o = curve.decode(e)
                }
                return o
            }
        })
    }
}
