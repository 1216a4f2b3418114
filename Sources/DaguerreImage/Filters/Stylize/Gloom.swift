import DaguerreCore

/// A glow that dulls highlights (CIGloom, I4); the blur and the mix are GlowFilter's.
///
/// ```swift
/// let soft = try image.applying(Gloom(radius: 10, intensity: 0.5))
/// ```
public struct Gloom: Filter, GlowFilter {
    public var inputImage: Image?
    public var radius: Double = 10
    public var intensity: Double = 0.5

    static let brightens = false

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius, intensity: Double = Self.defaults.intensity) {
        self.inputImage = inputImage
        self.radius = radius
        self.intensity = intensity
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Gloom", displayName: "Gloom", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Dulls highlights by spreading darker surroundings into them.", parameters: commonParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try glow() }
}
