import DaguerreCore

/// Turns disparity into depth (CIDisparityToDepth; SPEC I4): each red, green and blue value v
/// becomes 1/v, 0 where v ≤ 0, alpha kept (see ``DepthReciprocal``).
///
/// ```swift
/// let depth = try disparityMap.applying(DisparityToDepth())
/// ```
public struct DisparityToDepth: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "DisparityToDepth", displayName: "Disparity To Depth", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Turns disparity (1/metres) into depth (metres).", parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        DepthReciprocal.image(try required(\.inputImage), name: "disparityToDepth")
    }
}
