import DaguerreCore

/// A sketch: the image's edges in black on transparency (CILineOverlay, I4). Core Image
/// describes the steps (noise reduction, edge detection, threshold, contrast) without a
/// formula; the definition here: NoiseReduction (noise level, sharpness), then the magnitude of
/// the Sobel gradient of its Rec. 709 luminance (as Edges computes it) times the edge
/// intensity, e; the result is black with alpha clamp((e − threshold)·contrast, 0, 1).
///
/// ```swift
/// let sketch = try photo.applying(LineOverlay()).composited(over: paper)
/// ```
public struct LineOverlay: Filter {
    public var inputImage: Image?
    public var nrNoiseLevel: Double = 0.07
    public var nrSharpness: Double = 0.71
    public var edgeIntensity: Double = 1
    public var threshold: Double = 0.1
    public var contrast: Double = 50

    public init() {}

    public static let declaration = FilterDeclaration<Self>(
        name: "LineOverlay", displayName: "Line Overlay", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Draws the image's edges in black on transparency.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.nrNoiseLevel, "inputNRNoiseLevel", "The noise reduction's noise level.", min: 0, sliderMax: 0.1),
            .scalar(\.nrSharpness, "inputNRSharpness", "The noise reduction's sharpness.", min: 0, sliderMax: 2),
            .scalar(\.edgeIntensity, "inputEdgeIntensity", "Multiplies the edge strength.", min: 0, sliderMax: 200),
            .scalar(\.threshold, "inputThreshold", "Edges weaker than this are dropped.", min: 0, sliderMax: 1),
            .scalar(\.contrast, "inputContrast", "How fast the lines turn opaque above the threshold.", min: 0.25, sliderMax: 200),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let cleaned = try NoiseReduction(inputImage: input, noiseLevel: nrNoiseLevel, sharpness: nrSharpness).outputImage()
        return Self.ink(cleaned, intensity: Float(edgeIntensity), threshold: Float(threshold), contrast: Float(contrast))
    }

    /// Black ink where `image`'s luminance has a Sobel gradient above `threshold` (times
    /// `intensity`), opaque `contrast` times as fast above it: the lines LineOverlay and
    /// ComicEffect draw.
    static func ink(_ image: Image, intensity k: Float, threshold t: Float, contrast c: Float) -> Image {
        let luminance = Image(
            PointwiseNode(name: "luminance", inputs: [image.node], extent: image.extent, digest: { _ in }) { span in
                for i in 0..<span.count { span.pixels[i] = SIMD4(repeating: SpanMath.luminance(span.pixels[i])) }
            })
        return NeighbourhoodKernel.clamped(
            luminance, name: "lineOverlay", parameters: "intensity \(k) threshold \(t) contrast \(c)", rx: 1, ry: 1,
            digest: { d in d.add([Double(k), Double(t), Double(c)]) }
        ) { w in
            let (gx, gy) = Edges.sobel(w)
            let e = (gx.x * gx.x + gy.x * gy.x).squareRoot() * k
            return SIMD4(0, 0, 0, min(max((e - t) * c, 0), 1))
        }
    }
}
