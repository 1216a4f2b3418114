import DaguerreCore

/// Convolves with a 7 by 7 window of weights (CIConvolution7X7, I4); the layout, edges and bias are
/// ConvolutionFilter's.
///
/// ```swift
/// let smoothed = try image.applying(Convolution7X7(weights: Array(repeating: 1.0 / 49, count: 49)))
/// ```
public struct Convolution7X7: Filter, ConvolutionFilter {
    public var inputImage: Image?
    public var weights: [Double] = Self.identityWeights
    public var bias: Double = 0

    static let size = (width: 7, height: 7)

    public init() {}
    public init(inputImage: Image? = nil, weights: [Double] = Self.defaults.weights, bias: Double = Self.defaults.bias) {
        self.inputImage = inputImage
        self.weights = weights
        self.bias = bias
    }

    public static let declaration = declare(name: "Convolution7X7", displayName: "Convolution 7X7", shape: "a 7 by 7 window")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try convolved() }
}
