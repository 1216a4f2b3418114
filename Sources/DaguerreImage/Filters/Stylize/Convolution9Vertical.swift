import DaguerreCore

/// Convolves with a 1 by 9 window (a column) of weights (CIConvolution9Vertical, I4); the layout, edges and bias are
/// ConvolutionFilter's.
///
/// ```swift
/// let smoothed = try image.applying(Convolution9Vertical(weights: Array(repeating: 1.0 / 9, count: 9)))
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

    public static let declaration = declare(
        name: "Convolution9Vertical", displayName: "Convolution 9 Vertical", shape: "a 1 by 9 window (a column)")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
