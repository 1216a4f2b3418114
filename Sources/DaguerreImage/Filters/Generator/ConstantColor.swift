import DaguerreCore

/// An infinite image of one colour (CIConstantColorGenerator); the colour is in its own colour
/// space (sRGB unless given) and matched to the working space.
///
/// ```swift
/// let p3Red = try ConstantColor(color: Color(red: 1, green: 0, blue: 0, colorSpace: .displayP3)).outputImage()
/// ```
public struct ConstantColor: Filter {
    public var color = Color(red: 1, green: 0, blue: 0, alpha: 1)

    public init() {}
    public init(color: Color = Self.defaults.color) { self.color = color }

    public static let declaration = FilterDeclaration<Self>(
        name: "ConstantColorGenerator", displayName: "Constant Color", categories: [.generator, .video, .stillImage, .builtIn],
        description: "An infinite image of one colour.",
        parameters: [.color(\.color, "inputColor", "The colour.")])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { Image(color: color) }
}
