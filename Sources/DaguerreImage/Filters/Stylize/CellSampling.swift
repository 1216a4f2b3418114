import DaguerreCore

/// What Pixellate, HexagonalPixellate and Crystallize share (I4): the image is cut into cells
/// and every pixel takes the colour the input has at its cell's representative point (sampled
/// bilinearly, the point first clamped inside the input so edge cells do not fade). The output
/// keeps the input's extent, infinite for an infinite input.
enum CellSampling {
    /// `point(p)` is the representative point of the cell holding the pixel centre `p`, which
    /// must lie within `reach` pixels of `p`; nil leaves the pixel transparent.
    static func image(
        _ input: Image, name: String, parameters: String, reach: Double, digest: (inout DigestBuilder) -> Void,
        point: @escaping @Sendable (SIMD2<Double>) -> SIMD2<Double>?
    ) throws(DaguerreError) -> Image {
        let e = input.extent
        guard !e.isEmpty else {
            throw .invalidArgument(what: name, problem: "the input is empty: there is nothing to sample")
        }
        let node = SamplingNode(
            name: name, inputs: [input.node], extent: e, parameters: parameters, outputFormat: nil, digest: digest,
            roi: { _, rect in rect.insetBy(dx: -(reach + 2), dy: -(reach + 2)) }
        ) { s, p in
            guard let q = point(SIMD2<Double>(p)) else { return .zero }
            let x = min(max(q.x, e.minX + 0.5), e.maxX - 0.5)
            let y = min(max(q.y, e.minY + 0.5), e.maxY - 0.5)
            return s[0].sample(SIMD2(Float(x), Float(y)))
        }
        return Image(node)
    }
}
