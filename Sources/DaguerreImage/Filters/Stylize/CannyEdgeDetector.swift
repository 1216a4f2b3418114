import DaguerreCore
import Foundation

/// Thin edges by Canny's method (CICannyEdgeDetector; SPEC I4), with a bounded hysteresis so it
/// runs in tiles. On the luminance L (Rec. 709 of the unpremultiplied linear colour, or its sRGB
/// encoding with `perceptual`), with edge pixels repeated outward at every step:
/// 1. L is smoothed by a Gaussian of standard deviation `gaussianSigma` (as ``GaussianBlur``);
/// 2. the gradient (gx, gy) is the 3×3 Sobel operator divided by 8 (a change per pixel), its
///    magnitude m = √(gx² + gy²);
/// 3. a pixel survives if m is at least both neighbours' along its gradient's direction, taken
///    to the nearest of 0°, 45°, 90° and 135° (|gy| ≤ |gx|·tan 22.5° is horizontal,
///    |gy| ≥ |gx|·tan 67.5° vertical, otherwise the diagonal gx·gy's sign picks);
/// 4. survivors with m ≥ `thresholdHigh` are edges, with m ≥ `thresholdLow` candidates;
/// 5. `hysteresisPasses` times, every candidate next to an edge (8-connected) becomes one.
/// Edges are white, the rest black, alpha 1. Core Image publishes no formula; this is the
/// definition used.
///
/// ```swift
/// let edges = try photo.applying(CannyEdgeDetector(gaussianSigma: 2, hysteresisPasses: 4))
/// ```
public struct CannyEdgeDetector: Filter {
    public var inputImage: Image?
    public var gaussianSigma: Double = 1.6
    public var perceptual = false
    public var thresholdHigh: Double = 0.05
    public var thresholdLow: Double = 0.02
    public var hysteresisPasses: Double = 1

    public init() {}
    public init(
        inputImage: Image? = nil, gaussianSigma: Double = Self.defaults.gaussianSigma, perceptual: Bool = Self.defaults.perceptual,
        thresholdHigh: Double = Self.defaults.thresholdHigh, thresholdLow: Double = Self.defaults.thresholdLow,
        hysteresisPasses: Double = Self.defaults.hysteresisPasses
    ) {
        self.inputImage = inputImage
        self.gaussianSigma = gaussianSigma
        self.perceptual = perceptual
        self.thresholdHigh = thresholdHigh
        self.thresholdLow = thresholdLow
        self.hysteresisPasses = hysteresisPasses
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "CannyEdgeDetector", displayName: "Canny Edge Detector", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Thin white edges on black by Canny's method, with a bounded hysteresis.",
        parameters: [
            .image(\.inputImage),
            .scalar(
                \.gaussianSigma, "inputGaussianSigma", "The smoothing's standard deviation in pixels.", min: 0, max: 100, sliderMax: 10),
            .boolean(\.perceptual, "inputPerceptual", "Find edges in the sRGB-encoded luminance rather than the linear one."),
            .scalar(\.thresholdHigh, "inputThresholdHigh", "The gradient an edge must reach (per pixel).", min: 0, sliderMax: 0.5),
            .scalar(\.thresholdLow, "inputThresholdLow", "The gradient a candidate must reach (per pixel).", min: 0, sliderMax: 0.5),
            .integer(\.hysteresisPasses, "inputHysteresisPasses", "How many times edges grow into candidates.", min: 0, max: 20),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let luminance = LuminanceImage.of(input, perceptual: perceptual)
        var smooth = luminance
        if gaussianSigma > 0 {
            smooth = try GaussianBlur(inputImage: luminance.clampedToExtent(), radius: gaussianSigma).outputImage().cropped(
                to: input.extent)
        }
        // (m, gx, gy, 1)
        let gradient = NeighbourhoodKernel.clamped(smooth, name: "cannyGradient", parameters: "", rx: 1, ry: 1, digest: { _ in }) { w in
            let (gx, gy) = Edges.sobel(w)
            let (x, y) = (gx.x / 8, gy.x / 8)
            return SIMD4((x * x + y * y).squareRoot(), x, y, 1)
        }
        let (high, low) = (Float(thresholdHigh), Float(thresholdLow))
        // 1 for an edge, 0.5 for a candidate, 0 for neither.
        let (tan22, tan67) = (Float(tan(Double.pi / 8)), Float(tan(3 * Double.pi / 8)))
        var state = NeighbourhoodKernel.clamped(
            gradient, name: "cannyThin", parameters: "high \(high) low \(low)", rx: 1, ry: 1,
            digest: { d in d.add([Double(high), Double(low)]) }
        ) { w in
            let c = w[0, 0]
            let (m, gx, gy) = (c.x, c.y, c.z)
            let (ax, ay) = (abs(gx), abs(gy))
            let (a, b): (Float, Float)
            if ay <= ax * tan22 {
                (a, b) = (w[-1, 0].x, w[1, 0].x)
            } else if ay >= ax * tan67 {
                (a, b) = (w[0, -1].x, w[0, 1].x)
            } else if (gx > 0) == (gy > 0) {
                (a, b) = (w[-1, -1].x, w[1, 1].x)
            } else {
                (a, b) = (w[1, -1].x, w[-1, 1].x)
            }
            let kept = m >= a && m >= b && m > 0
            let v: Float = kept && m >= high ? 1 : (kept && m >= low ? 0.5 : 0)
            return SIMD4(v, v, v, 1)
        }
        for pass in 0..<Int(hysteresisPasses.rounded()) {
            state = NeighbourhoodKernel.clamped(state, name: "cannyHysteresis", parameters: "pass \(pass)", rx: 1, ry: 1, digest: { _ in })
            {
                w in
                let c = w[0, 0].x
                guard c == 0.5 else { return w[0, 0] }
                for dy in -1...1 {
                    for dx in -1...1 where w[dx, dy].x == 1 { return SIMD4(1, 1, 1, 1) }
                }
                return w[0, 0]
            }
        }
        return Image(
            PointwiseNode(name: "cannyEdges", inputs: [state.node], extent: input.extent, digest: { _ in }) { span in
                for i in 0..<span.count { span.pixels[i] = span.pixels[i].x == 1 ? SIMD4(1, 1, 1, 1) : SIMD4(0, 0, 0, 1) }
            })
    }
}
