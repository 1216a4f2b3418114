import DaguerreCore

/// What DepthToDisparity and DisparityToDepth do (SPEC I4): disparity is the reciprocal of depth
/// (1/metres), and depth of disparity, so both map each red, green and blue value v to 1/v,
/// with 0 (no measurement) for v ≤ 0; alpha is kept. They read the values as they are: give them
/// depth or disparity data tagged as linear (or render with colour management off).
///
/// ```swift
/// let disparity = DepthReciprocal.image(depth, name: "depthToDisparity")
/// ```
enum DepthReciprocal {
    static func image(_ input: Image, name: String) -> Image {
        Image(
            PointwiseNode(name: name, inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
                let s = span.pixels
                for i in 0..<span.count {
                    let v = s[i]
                    s[i] = SIMD4(v.x > 0 ? 1 / v.x : 0, v.y > 0 ? 1 / v.y : 0, v.z > 0 ? 1 / v.z : 0, v.w)
                }
            })
    }
}
