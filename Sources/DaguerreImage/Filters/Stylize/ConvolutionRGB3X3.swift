import DaguerreCore

/// Convolves red, green and blue with a 3 by 3 window of weights, keeping alpha (CIConvolutionRGB3X3, I4); the layout,
/// edges and bias are ConvolutionFilter's.
///
/// ```swift
/// let smoothed = try image.applying(ConvolutionRGB3X3(weights: Array(repeating: 1.0 / 9, count: 9)))
/// ```
public struct ConvolutionRGB3X3: Filter, ConvolutionFilter {
    public var inputImage: Image?
    public var weights: [Double] = Self.identityWeights
    public var bias: Double = 0

    static let size = (width: 3, height: 3)
    static let rgbOnly = true

    public init() {}
    public init(inputImage: Image? = nil, weights: [Double] = Self.defaults.weights, bias: Double = Self.defaults.bias) {
        self.inputImage = inputImage
        self.weights = weights
        self.bias = bias
    }

    public static let declaration = declare(name: "ConvolutionRGB3X3", displayName: "Convolution RGB 3X3", shape: "a 3 by 3 window")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
