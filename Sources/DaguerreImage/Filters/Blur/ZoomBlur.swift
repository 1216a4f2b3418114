import DaguerreCore
import Foundation

/// Blurs along lines through a centre, as if the camera zoomed during the exposure
/// (CIZoomBlur, I4). Core Image publishes no formula; the definition here: each pixel p is the
/// mean of `⌈amount⌉ + 1` bilinear samples at c + (p − c)·(1 − t·amount/100), t evenly spaced
/// over [0, 1], so a pixel's streak runs `amount` % of its distance towards the centre (none
/// at the centre). The output keeps the input's extent; samples outside it are transparent.
///
/// ```swift
/// let rush = try image.applying(ZoomBlur(center: [320, 240], amount: 10))
/// ```
public struct ZoomBlur: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var amount: Double = 20

    public init() {}
    public init(inputImage: Image? = nil, center: [Double] = Self.defaults.center, amount: Double = Self.defaults.amount) {
        self.inputImage = inputImage
        self.center = center
        self.amount = amount
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ZoomBlur", displayName: "Zoom Blur", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Averages along the line from each pixel towards a centre.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "The zoom's centre.", min: -1e6, max: 1e6),
            .scalar(
                \.amount, "inputAmount", "The streak's length, in percent of the distance to the centre.", min: -100, max: 200,
                sliderMin: 0, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let k = amount / 100
        if k == 0 { return input }
        let c = SIMD2(center[0], center[1])
        let n = Int(abs(amount).rounded(.up)) + 1
        let factors = (0..<n).map { i in Float(1 - k * Double(i) / Double(n - 1)) }
        let cf = SIMD2<Float>(c)
        let node = SamplingNode(
            name: "zoomBlur", inputs: [input.node], extent: input.extent, parameters: "centre \(center) amount \(amount)",
            outputFormat: nil,
            digest: { d in
                d.add([c.x, c.y, k])
            },
            roi: { _, rect in
                // Every sample lies between the pixel (t = 0) and its image at t = 1.
                let s = 1 - k
                let scaled = Rect(
                    minX: c.x + (rect.minX - c.x) * s, minY: c.y + (rect.minY - c.y) * s,
                    maxX: c.x + (rect.maxX - c.x) * s, maxY: c.y + (rect.maxY - c.y) * s)
                let lo = SIMD2(min(scaled.minX, scaled.maxX), min(scaled.minY, scaled.maxY))
                let hi = SIMD2(max(scaled.minX, scaled.maxX), max(scaled.minY, scaled.maxY))
                return rect.union(Rect(minX: lo.x, minY: lo.y, maxX: hi.x, maxY: hi.y)).insetBy(dx: -2, dy: -2)
            }
        ) { s, p in
            var acc = SIMD4<Float>()
            let d = p - cf
            for f in factors { acc += s[0].sample(cf + d * f) }
            return acc / Float(n)
        }
        return Image(node)
    }
}
