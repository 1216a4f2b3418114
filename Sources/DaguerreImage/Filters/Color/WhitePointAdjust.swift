import DaguerreCore

/// Maps white to a new white point (CIWhitePointAdjust): each colour channel is scaled by the
/// colour's, out = in·c per channel on the working space's linear values (a von Kries-style
/// scaling in the working space's RGB; alpha kept), so white becomes `color` and black stays
/// black. Core Image does not publish its formula; this is the documented approximation used
/// here (I4). The colour is matched from its own colour space (sRGB unless given) into the
/// working space; white leaves the image unchanged.
///
/// ```swift
/// let warmer = try photo.applying(WhitePointAdjust(color: Color(red: 1, green: 0.9, blue: 0.75)))
/// ```
public struct WhitePointAdjust: Filter {
    public var inputImage: Image?
    public var color = Color(red: 1, green: 1, blue: 1, alpha: 1)

    public init() {}
    public init(inputImage: Image? = nil, color: Color = Self.defaults.color) {
        self.inputImage = inputImage
        self.color = color
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "WhitePointAdjust", displayName: "White Point Adjust", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Scales each channel so that white becomes the given colour.",
        parameters: [
            .image(\.inputImage),
            .color(\.color, "inputColor", "The colour white becomes."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        // The colour reaches the kernel as a second input, matched into the working space.
        let white = Image(color: Color(red: color.red, green: color.green, blue: color.blue, alpha: 1, colorSpace: color.colorSpace))
        return Image(
            PointwiseNode(
                name: "whitePointAdjust", inputs: [input.node, white.node], extent: input.extent, parameters: "\(color)", digest: { _ in }
            ) { span in
                let w = span.input(1)[0]
                let scale = SIMD4(w.x, w.y, w.z, 1)
                let p = span.pixels
                for i in 0..<span.count { p[i] *= scale }
            })
    }
}
