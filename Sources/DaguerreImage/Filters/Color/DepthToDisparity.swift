import DaguerreCore

/// Turns depth into disparity (CIDepthToDisparity; SPEC I4): each red, green and blue value v
/// becomes 1/v, 0 where v ≤ 0, alpha kept (see ``DepthReciprocal``).
///
/// ```swift
/// let disparity = try depthMap.applying(DepthToDisparity())
/// ```
public struct DepthToDisparity: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "DepthToDisparity", displayName: "Depth To Disparity", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Turns depth (metres) into disparity (1/metres).", parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        DepthReciprocal.image(try required(\.inputImage), name: "depthToDisparity")
    }
}
