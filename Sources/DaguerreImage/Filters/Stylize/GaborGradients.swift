import DaguerreCore
import Foundation

/// The image's gradients by a 5×5 odd Gabor filter (CIGaborGradients; SPEC I4): for offsets x, y
/// in −2…2, the horizontal kernel is g(x, y) = exp(−(x² + y²)/(2σ²))·sin(2πx/λ) with σ = 1.25 and
/// λ = 8, scaled so that a ramp rising by 1 per pixel gives 1 (Σ g·x = 1), and the vertical one
/// the same turned a quarter, reading upward (Core Image's y-up sense); edge pixels repeat
/// outward. As ``SobelGradients``: red holds the horizontal gradient of the colour channel where
/// it is largest in magnitude (signed), green the vertical one, blue 0, alpha 1. Core Image
/// publishes no kernel; this is the definition used.
///
/// ```swift
/// let gradients = try image.applying(GaborGradients())
/// ```
public struct GaborGradients: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "GaborGradients", displayName: "Gabor Gradients", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Gradients by a 5×5 Gabor filter: the strongest horizontal one in red, the strongest vertical one in green.",
        parameters: [.image(\.inputImage)])

    /// The horizontal kernel, row by row from the top (dy = −2 … 2), dx = −2 … 2 across.
    static let kernel: [Float] = {
        let (sigma, lambda) = (1.25, 8.0)
        var g = [Double](repeating: 0, count: 25)
        var ramp = 0.0
        for dy in -2...2 {
            for dx in -2...2 {
                let v = exp(-Double(dx * dx + dy * dy) / (2 * sigma * sigma)) * sin(2 * Double.pi * Double(dx) / lambda)
                g[(dy + 2) * 5 + dx + 2] = v
                ramp += v * Double(dx)
            }
        }
        return g.map { Float($0 / ramp) }
    }()

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let k = Self.kernel
        return NeighbourhoodKernel.clamped(input, name: "gaborGradients", parameters: "σ 1.25 λ 8", rx: 2, ry: 2, digest: { _ in }) { w in
            var gx = SIMD4<Float>.zero
            var gy = SIMD4<Float>.zero
            for dy in -2...2 {
                for dx in -2...2 {
                    let v = w[dx, dy]
                    gx += v * k[(dy + 2) * 5 + dx + 2]
                    // Turned a quarter: the weight of dx across is the weight of −dy upward.
                    gy += v * k[(dx + 2) * 5 + (2 - dy)]
                }
            }
            return SIMD4(SobelGradients.strongest(gx), SobelGradients.strongest(gy), 0, 1)
        }
    }
}
