import DaguerreCore

/// The mask blend the BlendWith…Mask filters share (SPEC I4): on premultiplied working-space
/// values, out = background + (source − background)·m, with m the mask's weight at the pixel,
/// clamped to [0, 1]: 0 gives the background, 1 the source. Outside the mask's extent m is 0, so
/// the result's extent is the background's united with the part of the source the mask covers.
enum MaskBlend: String, Sendable {
    /// m = the mask's Rec. 709 luminance (its premultiplied linear values).
    case luminance
    /// m = the mask's alpha.
    case alpha

    func blend(_ source: Image, over background: Image, mask: Image) -> Image {
        let weight = self
        let extent = background.extent.union(source.extent.intersection(mask.extent))
        return Image(
            PointwiseNode(
                name: "blendWith\(rawValue)Mask", inputs: [source.node, background.node, mask.node], extent: extent,
                digest: { $0.add(weight.rawValue) }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                let m = span.input(2)
                switch weight {
                case .luminance:
                    for i in 0..<span.count { s[i] = Self.mix(b[i], s[i], SpanMath.luminance(SIMD4(m[i].x, m[i].y, m[i].z, 0))) }
                case .alpha:
                    for i in 0..<span.count { s[i] = Self.mix(b[i], s[i], m[i].w) }
                }
            })
    }

    @inline(__always) private static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>, _ m: Float) -> SIMD4<Float> {
        b + (s - b) * min(max(m, 0), 1)
    }
}
