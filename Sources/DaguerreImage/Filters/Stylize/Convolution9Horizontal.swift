import DaguerreCore

/// Convolves with a 9 by 1 (a row) window of weights (CIConvolution9Horizontal, I4); the layout, edges and bias
/// are ConvolutionFilter's.
///
/// ```swift
/// var sharpen = Convolution9Horizontal()
/// sharpen.inputImage = image
/// let out = try sharpen.outputImage()
/// ```
public struct Convolution9Horizontal: Filter, ConvolutionFilter {
    public var inputImage: Image?
    public var weights: [Double] = Self.identityWeights
    public var bias: Double = 0

    static let size = (width: 9, height: 1)

    public init() {}
    public init(inputImage: Image? = nil, weights: [Double] = Self.defaults.weights, bias: Double = Self.defaults.bias) {
        self.inputImage = inputImage
        self.weights = weights
        self.bias = bias
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Convolution9Horizontal", displayName: "Convolution 9 Horizontal", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Convolves with a 9 by 1 (a row) window of weights, plus a bias.",
        parameters: commonParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
