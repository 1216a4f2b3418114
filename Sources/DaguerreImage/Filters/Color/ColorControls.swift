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
    public var saturation: Double = 1
    public var brightness: Double = 0
    public var contrast: Double = 1

    public init() {}
    public init(
        inputImage: Image? = nil, saturation: Double = Self.defaults.saturation, brightness: Double = Self.defaults.brightness,
        contrast: Double = Self.defaults.contrast
    ) {
        self.inputImage = inputImage
        self.saturation = saturation
        self.brightness = brightness
        self.contrast = contrast
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorControls", displayName: "Color Controls", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Adjusts saturation (linear light), brightness and contrast (perceptual values).",
        parameters: [
            .image(\.inputImage),
            .scalar(\.saturation, "inputSaturation", "0 is grey, 1 unchanged.", min: 0, max: 100, sliderMax: 2),
            .scalar(\.brightness, "inputBrightness", "Added to perceptual values.", min: -10, max: 10, sliderMin: -1, sliderMax: 1),
            .scalar(\.contrast, "inputContrast", "Scale around middle grey.", min: 0, max: 100, sliderMin: 0.25, sliderMax: 4),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let s = Float(saturation)
        let b = Float(brightness)
        let c = Float(contrast)
        let curve = PerceptualCurve.shared
        let perceptual = b != 0 || c != 1
        // Saturation alone mixes each pixel with its luminance: a 3×3 matrix.
        let l = SpanMath.luma
        let sd = Double(s)
        let sat = Matrix3((0..<3).flatMap { r in (0..<3).map { col in (1 - sd) * Double(l[col]) + (r == col ? sd : 0) } })
        return Image(
            PointwiseNode(
                name: "colorControls", inputs: [input.node], extent: input.extent,
                parameters: "saturation \(s) brightness \(b) contrast \(c)", linear: perceptual ? nil : sat,
                digest: { d in
                    d.add(s)
                    d.add(b)
                    d.add(c)
                }
            ) { span in
                let s = s
                let b = b
                let c = c
                let perceptual = perceptual
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
