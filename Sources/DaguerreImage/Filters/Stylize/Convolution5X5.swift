import DaguerreCore

/// Convolves with a 5 by 5 window of weights (CIConvolution5X5, I4); the layout, edges and bias
/// are ConvolutionFilter's.
///
/// ```swift
/// var sharpen = Convolution5X5()
/// sharpen.inputImage = image
/// let out = try sharpen.outputImage()
/// ```
public struct Convolution5X5: Filter, ConvolutionFilter {
    public var inputImage: Image?
    public var weights: [Double] = Self.identityWeights
    public var bias: Double = 0

    static let size = (width: 5, height: 5)

    public init() {}
    public init(inputImage: Image? = nil, weights: [Double] = Self.defaults.weights, bias: Double = Self.defaults.bias) {
        self.inputImage = inputImage
        self.weights = weights
        self.bias = bias
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Convolution5X5", displayName: "Convolution 5X5", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Convolves with a 5 by 5 window of weights, plus a bias.",
        parameters: commonParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
