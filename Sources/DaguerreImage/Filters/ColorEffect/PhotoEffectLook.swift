import DaguerreCore

/// The looks of the PhotoEffect filters (SPEC I4). Core Image implements them as colour cubes
/// it does not publish; these are documented approximations of their character, not Apple's
/// tables. On each unpremultiplied colour, with x its sRGB encoding (the working space's values
/// through the sRGB curve; clamped to [0, 1] first unless extrapolating, as a cube would be) and
/// y = 0.2126·r + 0.7152·g + 0.0722·b of x:
///
///     1. colour:   x = y + saturation·(x − y)          (mono looks: x = (y, y, y))
///     2. contrast: x = x − contrast·x·(1 − x)·(1 − 2x)  (an S-curve for contrast > 0)
///     3. tint:     x = lift + gain·x                    (per channel)
///
/// then decoded with the sRGB curve; alpha kept.
struct PhotoEffectLook: Sendable {
    let name: String
    let mono: Bool
    let saturation: Float
    let contrast: Float
    let gain: SIMD3<Float>
    let lift: SIMD3<Float>

    init(_ name: String, mono: Bool = false, saturation: Float = 1, contrast: Float, gain: SIMD3<Float>, lift: SIMD3<Float>) {
        self.name = name
        self.mono = mono
        self.saturation = saturation
        self.contrast = contrast
        self.gain = gain
        self.lift = lift
    }

    func apply(to input: Image, extrapolate: Bool) -> Image {
        let look = self
        let curve = PerceptualCurve.shared
        let weights = SIMD3<Float>(0.2126, 0.7152, 0.0722)
        return Image(
            PointwiseNode(
                name: name, inputs: [input.node], extent: input.extent, parameters: "extrapolate \(extrapolate)",
                digest: { $0.add(extrapolate) }
            ) { span in
                SpanMath.forEachUnpremultiplied(span) { v in
                    let e = curve.encode(v)
                    var x = SIMD3(e.x, e.y, e.z)
                    if !extrapolate { x = pointwiseMin(pointwiseMax(x, .zero), SIMD3(repeating: 1)) }
                    let y = (x * weights).sum()
                    x = look.mono ? SIMD3(repeating: y) : y + look.saturation * (x - y)
                    x = x - look.contrast * x * (1 - x) * (1 - 2 * x)
                    x = look.lift + look.gain * x
                    let out = curve.decode(SIMD4(x, 0))
                    return SIMD4(out.x, out.y, out.z, v.w)
                }
            })
    }
}
