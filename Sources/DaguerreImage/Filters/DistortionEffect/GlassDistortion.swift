import DaguerreCore
import Foundation

/// Looks at the image through textured glass (CIGlassDistortion; SPEC I4): the texture is a
/// height map, its Rec. 709 luminance clamped to [0, 1], tiled over the plane with one tile
/// centred on `center`. The output pixel at p reads the input bilinearly at p + scale·∇h/2,
/// where ∇h is the height's central difference at p's pixel, ((h(x+1) − h(x−1)), (h(y+1) −
/// h(y−1))): each raised part of the texture acts as a small lens that draws the image toward
/// its top (magnifies), and a flat texture leaves the image as it is. Core Image does not publish
/// its formula; this is Daguerre's definition. The texture needs a finite, non-empty extent.
/// Extent: the input's, grown by half the scale.
///
/// ```swift
/// let frosted = try photo.applying(GlassDistortion(texture: pebbles, center: [320, 240], scale: 40))
/// ```
public struct GlassDistortion: Filter {
    public var inputImage: Image?
    public var texture: Image?
    public var center: [Double] = [150, 150]
    public var scale: Double = 200

    public init() {}
    public init(
        inputImage: Image? = nil, texture: Image? = nil, center: [Double] = Self.defaults.center, scale: Double = Self.defaults.scale
    ) {
        self.inputImage = inputImage
        self.texture = texture
        self.center = center
        self.scale = scale
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "GlassDistortion", displayName: "Glass Distortion", categories: [.distortionEffect, .stillImage, .builtIn],
        description: "Looks at the image through glass whose relief a texture gives.",
        parameters: [
            .image(\.inputImage),
            .image(\.texture, "inputTexture", "The glass's relief: bright is raised. Tiled over the image."),
            .position(\.center, "inputCenter", "Where the middle of one texture tile lies.", min: -1e7, max: 1e7),
            .scalar(
                \.scale, "inputScale", "How strongly the relief bends the view, in pixels.", min: 0, max: 1e5, sliderMin: 0, sliderMax: 500),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let glass = try required(\.texture)
        let t = glass.extent
        guard !t.isEmpty, t.width.isFinite, t.height.isFinite else {
            throw .invalidArgument(what: "GlassDistortion", problem: "the texture needs a finite, non-empty extent (crop it first)")
        }
        let tile = t.integral
        let s = scale
        // The tile's pixel grid placed so that its middle lies on the centre (whole pixels).
        let shiftX = Int((center[0] - Double(tile.width) / 2).rounded(.down)) - tile.x
        let shiftY = Int((center[1] - Double(tile.height) / 2).rounded(.down)) - tile.y
        let reach = s / 2 + 2
        let extent = input.extent.isEmpty ? Rect.null : input.extent.insetBy(dx: -s / 2 - 1, dy: -s / 2 - 1)
        let node = SamplingNode(
            name: "glassDistortion", inputs: [input.node, glass.node], extent: extent,
            parameters: String(format: "scale %.6g tile %d %d", s, shiftX, shiftY), outputFormat: nil,
            digest: { d in d.add([s, Double(shiftX), Double(shiftY)]) },
            // The input within half the scale; the texture read wrapped, so all of one tile.
            roi: { i, rect in i == 0 ? rect.insetBy(dx: -reach, dy: -reach) : Rect(tile) }
        ) { samplers, dest in
            let x = Int(Double(dest.x).rounded(.down)) - shiftX
            let y = Int(Double(dest.y).rounded(.down)) - shiftY
            @inline(__always) func height(_ i: Int, _ j: Int) -> Float {
                let u = tile.x + ((i - tile.x) % tile.width + tile.width) % tile.width
                let v = tile.y + ((j - tile.y) % tile.height + tile.height) % tile.height
                return min(max(SpanMath.luminance(samplers[1].read(x: u, y: v)), 0), 1)
            }
            let g = SIMD2(height(x + 1, y) - height(x - 1, y), height(x, y + 1) - height(x, y - 1))
            return samplers[0].sample(SIMD2(Float(dest.x), Float(dest.y)) + Float(s / 2) * g)
        }
        return Image(node)
    }
}
