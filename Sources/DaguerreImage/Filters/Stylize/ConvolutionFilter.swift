import DaguerreCore

/// What Convolution3X3, 5X5, 7X7, 9Horizontal and 9Vertical and their RGB forms share (I4): a
/// weight vector laid out row by row, the first row the top of the window (as cv2.filter2D reads
/// its kernel: a correlation, not flipped), applied to all four premultiplied components, plus
/// `bias` on each; the RGB forms (ConvolutionRGB3X3…) weigh red, green and blue only and keep
/// each pixel's alpha. Edge pixels repeat outward (Core Image clamps convolutions to the edge),
/// so the output keeps the input's extent.
protocol ConvolutionFilter: Filter {
    var inputImage: Image? { get set }
    var weights: [Double] { get set }
    var bias: Double { get set }
    /// The window's width and height in pixels (odd).
    static var size: (width: Int, height: Int) { get }
    /// Whether only red, green and blue are convolved, alpha kept (the ConvolutionRGB filters).
    static var rgbOnly: Bool { get }
}

extension ConvolutionFilter {
    static var rgbOnly: Bool { false }

    /// The declaration of the filter `name` ("Convolution3X3", "ConvolutionRGB3X3"…), whose
    /// window `shape` reads as "a 3 by 3 window".
    static func declare(name: String, displayName: String, shape: String) -> FilterDeclaration<Self> {
        FilterDeclaration(
            name: name, displayName: displayName, categories: [.stylize, .video, .stillImage, .builtIn],
            description: rgbOnly
                ? "Convolves red, green and blue with \(shape) of weights, plus a bias; alpha is kept."
                : "Convolves with \(shape) of weights, plus a bias.",
            parameters: commonParameters)
    }
    /// The identity kernel: 1 at the centre.
    static var identityWeights: [Double] {
        var w = [Double](repeating: 0, count: size.width * size.height)
        w[w.count / 2] = 1
        return w
    }

    static var commonParameters: [FilterDeclaration<Self>.Parameter] {
        [
            .image(\.inputImage),
            .vector(
                \.weights, "inputWeights", "The \(size.width)×\(size.height) weights, row by row from the top.",
                count: size.width * size.height),
            .scalar(\.bias, "inputBias", rgbOnly ? "Added to red, green and blue." : "Added to every component of the result."),
        ]
    }

    func convolved() throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let (w, h) = Self.size
        let rx = w / 2
        let ry = h / 2
        let weights = self.weights
        let bias = self.bias
        // Only the taps that are not zero, as (dx, dy, weight).
        let rgbOnly = Self.rgbOnly
        let channels = SIMD4<Float>(1, 1, 1, rgbOnly ? 0 : 1)
        let taps: [(dx: Int, dy: Int, weight: SIMD4<Float>)] = (0..<(w * h)).compactMap { i in
            weights[i] == 0 ? nil : (i % w - rx, i / w - ry, channels * Float(weights[i]))
        }
        let b = channels * Float(bias)
        return NeighbourhoodKernel.rows(
            input, name: Self.declaration.name, parameters: "\(weights) bias \(bias)", rx: rx, ry: ry,
            digest: { d in
                d.add(weights)
                d.add(bias)
            }
        ) { rows, out, count in
            // Tap by tap along the row: each output's sum runs over the taps in the same order.
            out.update(repeating: b, count: count)
            for tap in taps {
                let src = rows[tap.dy + ry] + tap.dx
                for i in 0..<count { out[i].addProduct(src[i], tap.weight) }
            }
            if rgbOnly { for i in 0..<count { out[i].w = rows[ry][i].w } }
        }
    }
}
