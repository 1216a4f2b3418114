import DaguerreCore

/// An infinite image of one colour (CIConstantColorGenerator); the colour is in its own colour
/// space (sRGB unless given) and matched to the working space.
///
/// ```swift
/// let p3Red = try ConstantColor(color: Color(red: 1, green: 0, blue: 0, colorSpace: .displayP3)).outputImage()
/// ```
public struct ConstantColor: Filter {
    public var color: Color
    public init(color: Color = .black) { self.color = color }
    public var values: [String: FilterValue] { ["inputColor": .color(color)] }
    public static let descriptor = FilterDescriptor(
        name: "ConstantColor", displayName: "Constant Color",
        categories: [FilterCategory.generator, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "An infinite image of one colour.",
        parameters: [FilterParameter(key: "inputColor", kind: .color, description: "The colour.", default: .color(.black))]
    ) { a throws(DaguerreError) in Image(color: a.color("inputColor")) }
}
