import DaguerreCore
import Foundation

/// Upsamples a small image (colours or parameters, even 6×7) to the size of a full-size guide
/// while respecting the guide's edges (CIEdgePreserveUpsampleFilter, new in the seed, I4):
/// joint bilateral upsampling (Kopf et al. 2007). Each output pixel averages the small image's
/// nearby samples, weighted by distance in the small image (σ = spatial sigma, small pixels)
/// and by how close the guide's luminance there is to the guide's luminance here (σ = luma
/// sigma, perceptual units). The window is truncated at 3 small pixels.
///
/// ```swift
/// let lights = try guide.applying(EdgePreserveUpsample(smallImage: tinyAdjustmentMap))
/// ```
public struct EdgePreserveUpsample: Filter {
    public var inputImage: Image?
    public var smallImage: Image?
    public var spatialSigma: Double = 3
    public var lumaSigma: Double = 0.15

    public init() {}
    public init(
        inputImage: Image? = nil, smallImage: Image? = nil, spatialSigma: Double = Self.defaults.spatialSigma,
        lumaSigma: Double = Self.defaults.lumaSigma
    ) {
        self.inputImage = inputImage
        self.smallImage = smallImage
        self.spatialSigma = spatialSigma
        self.lumaSigma = lumaSigma
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "EdgePreserveUpsampleFilter", displayName: "Edge Preserve Upsample", categories: [.geometry, .stillImage, .builtIn],
        description: "Upsamples a small image to the guide's size, keeping the guide's edges.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The full-size guide."),
            .image(\.smallImage, "inputSmallImage", "The small image to upsample."),
            .scalar(\.spatialSigma, "inputSpatialSigma", "Spatial σ in small-image pixels.", min: 0.1, max: 5, sliderMax: 5),
            .scalar(\.lumaSigma, "inputLumaSigma", "Luminance σ (perceptual, 0…1).", min: 0.001, max: 1, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let guide = try required(\.inputImage)
        let small = try required(\.smallImage)
        let ss = spatialSigma
        let ls = lumaSigma
        let ge = guide.extent
        let se = small.extent
        guard !ge.isInfinite, !se.isInfinite, !ge.isEmpty, !se.isEmpty else {
            throw .invalidArgument(what: "EdgePreserveUpsample", problem: "both images need finite, non-empty extents")
        }
        let scale = SIMD2(se.width / ge.width, se.height / ge.height)  // guide → small
        let curve = PerceptualCurve.shared
        // The guide at the small image's resolution, as perceptual luminance.
        let smallGuide = PointwiseNode(
            name: "perceptualLuminance",
            inputs: [
                ResampleNode(
                    input: guide.node, sx: scale.x, sy: scale.y, tx: se.minX - ge.minX * scale.x, ty: se.minY - ge.minY * scale.y,
                    kernel: .bilinear, name: "guideDownsample")
            ], extent: se, digest: { _ in }
        ) { span in
            for i in 0..<span.count {
                let l = curve.encode(SpanMath.luminance(span.pixels[i]))
                span.pixels[i] = SIMD4(l, l, l, 1)
            }
        }
        let r = Int(min(3, ceil(1.5 * ss)))
        let inv2s = Float(1 / (2 * ss * ss))
        let inv2l = Float(1 / (2 * ls * ls))
        let node = SamplingNode(
            name: "edgePreserveUpsample", inputs: [guide.node, small.node, smallGuide], extent: ge,
            parameters: "σs \(ss) σl \(ls)", outputFormat: nil,
            digest: { d in
                d.add(ss)
                d.add(ls)
            },
            roi: { i, rect in
                if i == 0 { return rect }
                let x0 = (rect.minX - ge.minX) * scale.x + se.minX
                let y0 = (rect.minY - ge.minY) * scale.y + se.minY
                let x1 = (rect.maxX - ge.minX) * scale.x + se.minX
                let y1 = (rect.maxY - ge.minY) * scale.y + se.minY
                return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1).insetBy(dx: -Double(r + 1), dy: -Double(r + 1))
            }
        ) { s, p in
            let g = SpanMath.unpremultiply(s[0].read(x: Int(p.x), y: Int(p.y)))
            let lg = curve.encode(SpanMath.luminance(g))
            let qx = (Double(p.x) - ge.minX) * scale.x + se.minX
            let qy = (Double(p.y) - ge.minY) * scale.y + se.minY
            let cx = Int((qx - 0.5).rounded(.down))
            let cy = Int((qy - 0.5).rounded(.down))
            var acc = SIMD4<Float>()
            var wsum: Float = 0
            for j in (cy - r + 1)...(cy + r) {
                for i in (cx - r + 1)...(cx + r) {
                    guard Double(i) >= se.minX, Double(i) < se.maxX, Double(j) >= se.minY, Double(j) < se.maxY else { continue }
                    let dx = Float(Double(i) + 0.5 - qx)
                    let dy = Float(Double(j) + 0.5 - qy)
                    let dl = s[2].read(x: i, y: j).x - lg
                    let w = expf(-(dx * dx + dy * dy) * inv2s - dl * dl * inv2l)
                    acc.addProduct(s[1].read(x: i, y: j), SIMD4(repeating: w))
                    wsum += w
                }
            }
            return wsum > 0 ? acc / wsum : s[1].sample(SIMD2(Float(qx), Float(qy)))
        }
        return Image(node)
    }
}
