import DaguerreCore

/// A colour ramp indexed by luminance, for the colour effects whose ramps Core Image does not
/// publish (Thermal, XRay) (I4). The index is t = the sRGB encoding of the pixel's Rec. 709
/// luminance (unpremultiplied linear working-space values), clamped to [0, 1]; the stops are
/// sRGB-encoded colours at equal steps of t, interpolated linearly between neighbours in encoded
/// values and decoded to linear light (taken in the working space's primaries, sRGB's by
/// default); alpha kept.
struct ColorRamp: Sendable {
    let name: String
    /// sRGB-encoded colours at t = 0, 1/(n − 1), …, 1 (at least two).
    let stops: [SIMD3<Float>]

    func apply(to input: Image) -> Image {
        let table = FloatTable(stops.flatMap { [$0.x, $0.y, $0.z, 0] })
        let segments = Float(stops.count - 1)
        let last = stops.count - 1
        let curve = PerceptualCurve.shared
        let stops = self.stops
        return Image(
            PointwiseNode(
                name: name, inputs: [input.node], extent: input.extent, parameters: "\(stops)",
                digest: { d in d.add(stops.flatMap { [Double($0.x), Double($0.y), Double($0.z)] }) }
            ) { span in
                let s = UnsafeRawPointer(table.values).assumingMemoryBound(to: SIMD4<Float>.self)
                SpanMath.forEachUnpremultiplied(span) { v in
                    let t = min(max(curve.encode(SpanMath.luminance(SIMD4(v.x, v.y, v.z, 0))), 0), 1) * segments
                    let k = min(Int(t), last - 1)
                    let f = t - Float(k)
                    let encoded = s[k] + (s[k + 1] - s[k]) * f
                    let linear = curve.decode(encoded)
                    return SIMD4(linear.x, linear.y, linear.z, v.w)
                }
            })
    }
}
