import DaguerreCore

/// Adds fine noise to hide banding before the image is quantised (CIDither; SPEC I4), in a
/// perceptual space as Core Image does: each unpremultiplied red, green and blue is encoded with
/// the sRGB curve, moved by `intensity`·(n − ½), and decoded again, with n the
/// ``RandomGenerator``'s uniform number for that pixel and channel (so the same pixel always gets
/// the same noise, in any tile); alpha is kept. `intensity` is the noise's peak-to-peak size in
/// encoded units (1/255 is one 8-bit step). Core Image publishes no formula; this is the
/// definition used.
///
/// ```swift
/// let smooth = try gradient.applying(Dither(intensity: 2.0 / 255))
/// ```
public struct Dither: Filter {
    public var inputImage: Image?
    public var intensity: Double = 0.1

    public init() {}
    public init(inputImage: Image? = nil, intensity: Double = Self.defaults.intensity) {
        self.inputImage = inputImage
        self.intensity = intensity
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Dither", displayName: "Dither", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Adds fine noise in perceptual units, to hide banding.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.intensity, "inputIntensity", "The noise's peak-to-peak size in sRGB-encoded units.", min: 0, max: 5, sliderMax: 0.5),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let k = Float(intensity)
        let curve = TransferFunction.sRGB
        return Image(
            PointwiseNode(name: "dither", inputs: [input.node], extent: input.extent, parameters: "\(k)", digest: { $0.add(Double(k)) }) {
                span in
                let row = UInt64(UInt32(truncatingIfNeeded: span.y))
                for i in 0..<span.count {
                    let v = span.pixels[i]
                    guard v.w > 0 else { continue }
                    let u = SpanMath.unpremultiply(v)
                    let n = RandomGenerator.value(key: UInt64(UInt32(truncatingIfNeeded: span.x + i)) << 32 | row) - 0.5
                    let moved = SIMD4(
                        curve.decode(curve.encode(u.x) + k * n.x), curve.decode(curve.encode(u.y) + k * n.y),
                        curve.decode(curve.encode(u.z) + k * n.z), u.w)
                    span.pixels[i] = SpanMath.premultiply(moved)
                }
            })
    }
}
