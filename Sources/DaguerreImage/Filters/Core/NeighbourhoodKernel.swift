import DaguerreCore

/// Kernels that read a fixed window around each pixel (convolutions, the median, edge
/// detectors) with the input's edge pixels repeated outward, as Core Image's convolution
/// filters do: the output keeps the input's extent and its borders do not darken (I3, I4).
/// The window is `2·rx + 1` by `2·ry + 1` pixels.
///
/// ```swift
/// let right = NeighbourhoodKernel.clamped(image, name: "shift", parameters: "", rx: 1, ry: 0, digest: { _ in }) { s, x, y in
///     s.read(x: x + 1, y: y)
/// }
/// ```
enum NeighbourhoodKernel {
    /// `body(sampler, x, y)` computes the pixel whose top-left corner is (x, y), reading only
    /// within ±`rx` columns and ±`ry` rows of it.
    static func clamped(
        _ input: Image, name: String, parameters: String, rx: Int, ry: Int, digest: (inout DigestBuilder) -> Void,
        body: @escaping @Sendable (Sampler, Int, Int) -> SIMD4<Float>
    ) -> Image {
        let node = SamplingNode(
            name: name, inputs: [input.clampedToExtent().node], extent: input.extent, parameters: parameters, outputFormat: nil,
            digest: digest, roi: { _, r in r.insetBy(dx: -Double(rx), dy: -Double(ry)) }
        ) { s, p in body(s[0], Int(p.x.rounded(.down)), Int(p.y.rounded(.down))) }
        return Image(node)
    }
}
