import DaguerreCore

/// Dots (CIPointillize, I4): Crystallize's seeds on a grid of `2·radius` squares with a corner at
/// `center`; a pixel within `radius` of its nearest seed takes the colour at that seed, others
/// are transparent (see CellSampling). Core Image publishes no formula; this is the definition
/// used.
///
/// ```swift
/// let dots = try image.applying(Pointillize(radius: 6)).composited(over: paper)
/// ```
public struct Pointillize: Filter {
    public var inputImage: Image?
    public var radius: Double = 20
    public var center: [Double] = [150, 150]

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius, center: [Double] = Self.defaults.center) {
        self.inputImage = inputImage
        self.radius = radius
        self.center = center
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Pointillize", displayName: "Pointillize", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Makes the image out of dots, each the colour at its centre.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The dots' radius in pixels.", min: 1, max: 10000, sliderMax: 100),
            .position(\.center, "inputCenter", "A corner of the dots' grid.", min: -1e6, max: 1e6),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let r = radius
        let spacing = 2 * r
        return try CellSampling.image(
            input, name: "pointillize", parameters: "radius \(r) centre \(center)", reach: r,
            digest: { d in d.add([c.x, c.y, r]) }
        ) { p in
            let q = c + Crystallize.nearestSeed((p - c) / spacing) * spacing
            return ((p - q) * (p - q)).sum() <= r * r ? q : nil
        }
    }
}
