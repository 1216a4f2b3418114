import DaguerreCore

/// A glow that spreads light into darker surroundings (CIBloom, I4); the blur and the mix are GlowFilter's.
///
/// ```swift
/// let soft = try image.applying(Bloom(radius: 10, intensity: 0.5))
/// ```
public struct Bloom: Filter, GlowFilter {
    public var inputImage: Image?
    public var radius: Double = 10
    public var intensity: Double = 0.5

    static let brightens = true

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius, intensity: Double = Self.defaults.intensity) {
        self.inputImage = inputImage
        self.radius = radius
        self.intensity = intensity
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Bloom", displayName: "Bloom", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Softens edges and spreads light into darker surroundings.", parameters: commonParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try glow() }
}
