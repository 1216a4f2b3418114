import DaguerreCore

/// Saturation that spares colours already saturated (CIVibrance): each pixel's chroma is
/// scaled by `1 + amount·(1 − s)`, where s is its own saturation, in linear light.
///
/// ```swift
/// let livelier = try image.applying(Vibrance(amount: 0.5))
/// ```
public struct Vibrance: Filter {
    public var inputImage: Image?
    public var amount: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, amount: Double = Self.defaults.amount) {
        self.inputImage = inputImage
        self.amount = amount
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Vibrance", displayName: "Vibrance", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Raises the saturation of dull colours more than of vivid ones.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.amount, "inputAmount", "−1 mutes, +1 boosts dull colours.", min: -1, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let k = Float(amount)
        if k == 0 { return input }
        let luma = SpanMath.luma
        let lr = luma.x
        let lg = luma.y
        let lb = luma.z
        return Image(
            PointwiseNode(
                name: "vibrance", inputs: [input.node], extent: input.extent, parameters: "amount \(k)",
                planar: { s in
                    let r = s.r
                    let g = s.g
                    let b = s.b
                    let k = k
                    for i in 0..<s.count {
                        let x = r[i]
                        let y = g[i]
                        let z = b[i]
                        let hi = PlanarMath.max(x, PlanarMath.max(y, z))
                        let lo = PlanarMath.min(x, PlanarMath.min(y, z))
                        // 1 − saturation = lo / hi, clamped to [0, 1] (lo ≤ hi, so only below); grey (and
                        // black) get the full boost. One instruction per max and min (PlanarMath).
                        let unsat = hi > 0 ? PlanarMath.max(lo / hi, 0) : 1
                        let f = 1 + k * unsat
                        let l = lr * x + lg * y + lb * z
                        r[i] = l + (x - l) * f
                        g[i] = l + (y - l) * f
                        b[i] = l + (z - l) * f
                    }
                }, digest: { $0.add(k) }))
    }
}
