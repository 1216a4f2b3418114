import DaguerreCore

/// Edges in colour (CIEdges, I4): per component, the magnitude of the 3×3 Sobel gradient
/// (√(Gx² + Gy²), OpenCV's unscaled Sobel kernels) times the intensity, on an opaque result;
/// edge pixels repeat outward (see NeighbourhoodKernel). Core Image publishes no formula; this
/// is the definition used.
///
/// ```swift
/// let lines = try image.applying(Edges(intensity: 2))
/// ```
public struct Edges: Filter {
    public var inputImage: Image?
    public var intensity: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, intensity: Double = Self.defaults.intensity) {
        self.inputImage = inputImage
        self.intensity = intensity
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Edges", displayName: "Edges", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Shows each component's Sobel gradient magnitude.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.intensity, "inputIntensity", "Multiplies the gradient.", min: 0, sliderMax: 10),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let k = Float(intensity)
        return NeighbourhoodKernel.clamped(input, name: "edges", parameters: "intensity \(k)", rx: 1, ry: 1, digest: { d in d.add(k) }) {
            w in
            let (gx, gy) = Self.sobel(w)
            let m = (gx * gx + gy * gy).squareRoot() * k
            return SIMD4(m.x, m.y, m.z, 1)
        }
    }

    /// The 3×3 Sobel derivatives (x to the right, y down) at the window's centre, per component.
    @inline(__always) static func sobel(_ w: NeighbourhoodKernel.Window) -> (SIMD4<Float>, SIMD4<Float>) {
        let a = w[-1, -1]
        let b = w[0, -1]
        let c = w[1, -1]
        let d = w[-1, 0]
        let f = w[1, 0]
        let g = w[-1, 1]
        let h = w[0, 1]
        let i = w[1, 1]
        return ((c + 2 * f + i) - (a + 2 * d + g), (g + 2 * h + i) - (a + 2 * b + c))
    }
}
