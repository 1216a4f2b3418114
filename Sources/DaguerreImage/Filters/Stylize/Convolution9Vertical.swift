import DaguerreCore

/// Convolves with a 1 by 9 (a column) window of weights (CIConvolution9Vertical, I4); the layout, edges and bias
/// are ConvolutionFilter's.
///
/// ```swift
/// var sharpen = Convolution9Vertical()
/// sharpen.inputImage = image
/// let out = try sharpen.outputImage()
/// ```
public struct Convolution9Vertical: Filter, ConvolutionFilter {
    public var inputImage: Image?
    public var weights: [Double] = Self.identityWeights
    public var bias: Double = 0

    static let size = (width: 1, height: 9)

    public init() {}
    public init(inputImage: Image? = nil, weights: [Double] = Self.defaults.weights, bias: Double = Self.defaults.bias) {
        self.inputImage = inputImage
        self.weights = weights
        self.bias = bias
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Convolution9Vertical", displayName: "Convolution 9 Vertical", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Convolves with a 1 by 9 (a column) window of weights, plus a bias.",
        parameters: commonParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
