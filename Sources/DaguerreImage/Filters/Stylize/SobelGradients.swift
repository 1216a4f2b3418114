import DaguerreCore

/// The image's gradients by the 3×3 Sobel operator (CISobelGradients; SPEC I4): for each of red,
/// green and blue, gx = right column − left column and gy = upper row − lower row (Core Image's
/// y-up sense) with OpenCV's weights (1, 2, 1), edge pixels repeated outward. The result's red is
/// the horizontal gradient of the channel where it is largest in magnitude (signed), its green
/// the vertical gradient likewise, blue 0 and alpha 1. Values are signed and unbounded: render
/// into a float format to keep them. Core Image publishes no formula; this is the definition used.
///
/// ```swift
/// let gradients = try image.applying(SobelGradients())
/// ```
public struct SobelGradients: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "SobelGradients", displayName: "Sobel Gradients", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "The Sobel gradients: the strongest horizontal one in red, the strongest vertical one in green.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return NeighbourhoodKernel.clamped(input, name: "sobelGradients", parameters: "", rx: 1, ry: 1, digest: { _ in }) { w in
            let (gx, gy) = Edges.sobel(w)
            return SIMD4(Self.strongest(gx), Self.strongest(-gy), 0, 1)
        }
    }

    /// Of red, green and blue, the value largest in magnitude (the first of equals).
    @inline(__always) static func strongest(_ v: SIMD4<Float>) -> Float {
        var best = v.x
        if abs(v.y) > abs(best) { best = v.y }
        if abs(v.z) > abs(best) { best = v.z }
        return best
    }
}
