import DaguerreCore

/// Convolves with a 9 by 1 window (a row) of weights (CIConvolution9Horizontal, I4); the layout, edges and bias are
/// ConvolutionFilter's.
///
/// ```swift
/// let smoothed = try image.applying(Convolution9Horizontal(weights: Array(repeating: 1.0 / 9, count: 9)))
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

    public static let declaration = declare(
        name: "Convolution9Horizontal", displayName: "Convolution 9 Horizontal", shape: "a 9 by 1 window (a row)")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
