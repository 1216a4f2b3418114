import DaguerreCore

/// A photographed page made to look scanned (CIDocumentEnhancer; SPEC I4): shadows and uneven
/// light removed, the paper made white, the ink darkened by `amount`. Core Image publishes no
/// method; this is a documented approximation, a flat-field correction:
/// - the paper's light, per channel: a grey-scale closing by a square of 2r + 1 pixels (its
///   maximum, which lifts the paper through ink strokes narrower than the square, then its
///   minimum, which takes back what the maximum added on the light's own slopes), then the mean
///   over the same square, which smooths the closing's steps; edges repeated;
///   r = max(2, round(shorter side / 100)), at most 1000;
/// - each colour divided by its paper light (illumination multiplies, so in linear light this
///   cancels it), 1 at the paper;
/// - the ink darkened: v ↦ max(0, 1 − (1 − min(v, 1))·(1 + amount)), so `amount` 0 only
///   flattens the light and 1 doubles every darkening.
/// It is meant for opaque scans; alpha is kept. The extent must be finite (r comes from it).
///
/// ```swift
/// let scanned = try pagePhoto.applying(DocumentEnhancer(amount: 1))
/// ```
public struct DocumentEnhancer: Filter {
    public var inputImage: Image?
    public var amount: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, amount: Double = Self.defaults.amount) {
        (self.inputImage, self.amount) = (inputImage, amount)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DocumentEnhancer", displayName: "Document Enhancer", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Removes shadows and uneven light from a photographed page, whitens the paper and darkens the ink.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.amount, "inputAmount", "How much darker the ink gets (0: the light is only evened).", min: 0, max: 10),
        ])

    /// The paper window's half-size for an image of `extent`.
    /// (At most 1000, converted only once bounded: a huge finite extent must not trap.)
    static func radius(for extent: Rect) -> Int { max(2, Int(min((min(extent.width, extent.height) / 100).rounded(), 1000))) }

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let e = input.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw Self.invalid(
                \.inputImage, "the image is infinite or empty (\(e)); the paper's scale comes from its size, so crop it first")
        }
        let r = Self.radius(for: e)
        let size = Double(2 * r + 1)
        let dilated = MorphologyNode.rectangle(input, width: size, height: size, operation: .maximum)
        let lifted = MorphologyNode.rectangle(dilated, width: size, height: size, operation: .minimum)
        let w = SeparableConvolutionNode.boxWeights(radius: r)
        let paper = Image(
            SeparableConvolutionNode(
                input: lifted.clampedToExtent().node, name: "documentPaper", parameters: "radius \(r)", horizontal: w, vertical: w)
        ).cropped(to: e)
        let gain = Float(1 + amount)
        return Image(
            PointwiseNode(
                name: "documentEnhancer", inputs: [input.node, paper.node], extent: e, parameters: "radius \(r), amount \(amount)",
                digest: { d in d.add([Double(r), amount]) },
                span: { s in
                    let light = s.input(1)
                    for i in 0..<s.count {
                        let p = s.pixels[i]
                        let l = light[i]
                        func channel(_ v: Float, _ paper: Float) -> Float {
                            let flat = min(v / max(paper, 1e-4), 1)
                            return max(0, 1 - (1 - flat) * gain)
                        }
                        let a = p.w
                        s.pixels[i] = SIMD4(channel(p.x, l.x) * a, channel(p.y, l.y) * a, channel(p.z, l.z) * a, a)
                    }
                }))
    }
}
