import DaguerreCore

/// Convolves red, green and blue with a 7 by 7 window of weights, keeping alpha (CIConvolutionRGB7X7, I4); the layout,
/// edges and bias are ConvolutionFilter's.
///
/// ```swift
/// let smoothed = try image.applying(ConvolutionRGB7X7(weights: Array(repeating: 1.0 / 49, count: 49)))
/// ```
public struct ConvolutionRGB7X7: Filter, ConvolutionFilter {
    public var inputImage: Image?
    public var weights: [Double] = Self.identityWeights
    public var bias: Double = 0

    static let size = (width: 7, height: 7)
    static let rgbOnly = true

    public init() {}
    public init(inputImage: Image? = nil, weights: [Double] = Self.defaults.weights, bias: Double = Self.defaults.bias) {
        self.inputImage = inputImage
        self.weights = weights
        self.bias = bias
    }

    public static let declaration = declare(name: "ConvolutionRGB7X7", displayName: "Convolution RGB 7X7", shape: "a 7 by 7 window")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
