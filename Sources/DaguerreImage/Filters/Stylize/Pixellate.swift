import DaguerreCore

/// Square cells (CIPixellate, I4): the plane is cut into `scale`-pixel squares with a corner at
/// `center`, and each pixel takes the colour at its square's centre (see CellSampling).
///
/// ```swift
/// let blocky = try image.applying(Pixellate(center: [0, 0], scale: 16))
/// ```
public struct Pixellate: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var scale: Double = 8

    public init() {}
    public init(inputImage: Image? = nil, center: [Double] = Self.defaults.center, scale: Double = Self.defaults.scale) {
        self.inputImage = inputImage
        self.center = center
        self.scale = scale
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Pixellate", displayName: "Pixellate", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Makes the image out of squares, each the colour at its centre.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "A corner of the grid.", min: -1e6, max: 1e6),
            .scalar(\.scale, "inputScale", "The squares' size in pixels.", min: 1, max: 10000, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let s = scale
        return try CellSampling.image(
            input, name: "pixellate", parameters: "centre \(center) scale \(s)", reach: s,
            digest: { d in d.add([c.x, c.y, s]) }
        ) { p in
            c + (((p - c) / s).rounded(.down) + 0.5) * s
        }
    }
}
