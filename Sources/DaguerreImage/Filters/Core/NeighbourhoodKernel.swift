import DaguerreCore

/// Kernels that read a fixed window around each pixel (convolutions, the median, edge
/// detectors) with the input's edge pixels repeated outward, as Core Image's convolution
/// filters do: the output keeps the input's extent and its borders do not darken (I3, I4).
/// The window is `2·rx + 1` by `2·ry + 1` pixels; the work is scheduled by `StencilNode`.
///
/// ```swift
/// let right = NeighbourhoodKernel.clamped(image, name: "shift", parameters: "", rx: 1, ry: 0, digest: { _ in }) { w in
///     w[1, 0]
/// }
/// ```
enum NeighbourhoodKernel {
    /// The window around one output pixel: `w[dx, dy]` is the input pixel dx columns right and
    /// dy rows down of it (both within the window's half-sizes).
    struct Window {
        let rows: UnsafePointer<UnsafePointer<SIMD4<Float>>>
        let ry: Int
        let i: Int
        @inline(__always) subscript(dx: Int, dy: Int) -> SIMD4<Float> { rows[dy + ry][i + dx] }
    }

    /// `body(window)` computes each output pixel from its window.
    static func clamped(
        _ input: Image, name: String, parameters: String, rx: Int, ry: Int, digest: (inout DigestBuilder) -> Void,
        body: @escaping @Sendable (Window) -> SIMD4<Float>
    ) -> Image {
        rows(input, name: name, parameters: parameters, rx: rx, ry: ry, digest: digest) { rows, out, count in
            for i in 0..<count { out[i] = body(Window(rows: rows, ry: ry, i: i)) }
        }
    }

    /// `body` computes a whole output row at once (see `StencilNode.RowBody`), for kernels that
    /// reuse work between neighbouring pixels.
    static func rows(
        _ input: Image, name: String, parameters: String, rx: Int, ry: Int, digest: (inout DigestBuilder) -> Void,
        body: @escaping StencilNode.RowBody
    ) -> Image {
        let clamped = input.clampedToExtent()
        return Image(
            StencilNode(
                name: name, input: clamped.node, extent: input.extent, parameters: parameters, rx: rx, ry: ry, digest: digest, body: body))
    }
}
