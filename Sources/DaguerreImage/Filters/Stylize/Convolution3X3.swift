import DaguerreCore

/// Convolves with a 3 by 3 window of weights (CIConvolution3X3, I4); the layout, edges and bias
/// are ConvolutionFilter's.
///
/// ```swift
/// var sharpen = Convolution3X3()
/// sharpen.inputImage = image
/// let out = try sharpen.outputImage()
/// ```
public struct Convolution3X3: Filter, ConvolutionFilter {
    public var inputImage: Image?
    public var weights: [Double] = Self.identityWeights
    public var bias: Double = 0

    static let size = (width: 3, height: 3)

    public init() {}
    public init(inputImage: Image? = nil, weights: [Double] = Self.defaults.weights, bias: Double = Self.defaults.bias) {
        self.inputImage = inputImage
        self.weights = weights
        self.bias = bias
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Convolution3X3", displayName: "Convolution 3X3", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Convolves with a 3 by 3 window of weights, plus a bias.",
        parameters: commonParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
