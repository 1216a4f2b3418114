import DaguerreCore

/// Convolves with a 5 by 5 window of weights (CIConvolution5X5, I4); the layout, edges and bias are
/// ConvolutionFilter's.
///
/// ```swift
/// let smoothed = try image.applying(Convolution5X5(weights: Array(repeating: 1.0 / 25, count: 25)))
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

    public static let declaration = declare(name: "Convolution5X5", displayName: "Convolution 5X5", shape: "a 5 by 5 window")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
