import DaguerreCore
import Foundation

/// Moves each pixel by a second image (CIDisplacementDistortion; SPEC I4): the output pixel at
/// p reads the input bilinearly at p + scale·(r − ½, ½ − g), where r and g are the displacement
/// image's red and green at p's pixel, clamped to [0, 1]: red above one half moves the read to
/// the right, green above one half moves it up (Core Image's y-up sense), so a grey map of 0.5
/// leaves the image as it is and a grey gradient shifts it along the diagonal. Where the
/// displacement image has no pixels nothing moves. Core Image does not publish its formula; this
/// is Daguerre's definition. Extent: the input's, grown by half the scale.
///
/// ```swift
/// let rippled = try photo.applying(DisplacementDistortion(displacementImage: ripples, scale: 30))
/// ```
public struct DisplacementDistortion: Filter {
    public var inputImage: Image?
    public var displacementImage: Image?
    public var scale: Double = 50

    public init() {}
    public init(inputImage: Image? = nil, displacementImage: Image? = nil, scale: Double = Self.defaults.scale) {
        self.inputImage = inputImage
        self.displacementImage = displacementImage
        self.scale = scale
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DisplacementDistortion", displayName: "Displacement Distortion",
        categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Moves each pixel as far as a second image's red and green say.",
        parameters: [
            .image(\.inputImage),
            .image(\.displacementImage, "inputDisplacementImage", "Red moves reads across, green up and down; 0.5 is still."),
            .scalar(
                \.scale, "inputScale", "The largest move, from value 0 to 1, in pixels.", min: 0, max: 1e5, sliderMin: 0, sliderMax: 200),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let map = try required(\.displacementImage)
        let s = scale
        let reach = s / 2 + 2
        let extent = input.extent.isEmpty ? Rect.null : input.extent.insetBy(dx: -s / 2 - 1, dy: -s / 2 - 1)
        let box = map.extent
        let node = SamplingNode(
            name: "displacementDistortion", inputs: [input.node, map.node], extent: extent,
            parameters: String(format: "scale %.6g", s), outputFormat: nil, digest: { d in d.add([s]) },
            // The input within half the scale (and the bilinear footprint); the map at each pixel.
            roi: { i, rect in i == 0 ? rect.insetBy(dx: -reach, dy: -reach) : rect }
        ) { samplers, dest in
            let m = samplers[1]
            let x = Int(Double(dest.x).rounded(.down))
            let y = Int(Double(dest.y).rounded(.down))
            var offset = SIMD2<Float>.zero
            let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
            if px > box.minX, px < box.maxX, py > box.minY, py < box.maxY {
                let v = m.read(x: x, y: y)
                let r = min(max(v.x, 0), 1)
                let g = min(max(v.y, 0), 1)
                offset = Float(s) * SIMD2(r - 0.5, 0.5 - g)
            }
            return samplers[0].sample(SIMD2(Float(dest.x), Float(dest.y)) + offset)
        }
        return Image(node)
    }
}
