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
            s, x, y in
            let (gx, gy) = Self.sobel(s, x, y)
            let m = (gx * gx + gy * gy).squareRoot() * k
            return SIMD4(m.x, m.y, m.z, 1)
        }
    }

    /// The 3×3 Sobel derivatives (x to the right, y down) at (x, y), per component.
    @inline(__always) static func sobel(_ s: Sampler, _ x: Int, _ y: Int) -> (SIMD4<Float>, SIMD4<Float>) {
        let a = s.read(x: x - 1, y: y - 1)
        let b = s.read(x: x, y: y - 1)
        let c = s.read(x: x + 1, y: y - 1)
        let d = s.read(x: x - 1, y: y)
        let f = s.read(x: x + 1, y: y)
        let g = s.read(x: x - 1, y: y + 1)
        let h = s.read(x: x, y: y + 1)
        let i = s.read(x: x + 1, y: y + 1)
        return ((c + 2 * f + i) - (a + 2 * d + g), (g + 2 * h + i) - (a + 2 * b + c))
    }
}
