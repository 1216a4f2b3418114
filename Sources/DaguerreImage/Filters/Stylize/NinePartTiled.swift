import DaguerreCore

/// Grows an asset by repeating its middle row and column (CINinePartTiled, new in the seed).
///
/// ```swift
/// let border = try asset.applying(NinePartTiled(breakpoint0: [20, 20], breakpoint1: [80, 80], growAmount: [400, 200]))
/// ```
public struct NinePartTiled: Filter, NinePartFilter {
    public var inputImage: Image?
    public var breakpoint0: [Double] = [50, 50]
    public var breakpoint1: [Double] = [150, 150]
    public var growAmount: [Double] = [100, 100]
    public var flipYTiles = false

    public init() {}
    public init(
        inputImage: Image? = nil, breakpoint0: [Double] = Self.defaults.breakpoint0, breakpoint1: [Double] = Self.defaults.breakpoint1,
        growAmount: [Double] = Self.defaults.growAmount, flipYTiles: Bool = Self.defaults.flipYTiles
    ) {
        self.inputImage = inputImage
        self.breakpoint0 = breakpoint0
        self.breakpoint1 = breakpoint1
        self.growAmount = growAmount
        self.flipYTiles = flipYTiles
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "NinePartTiled", displayName: "Nine Part Tiled", categories: [.distortionEffect, .stillImage, .builtIn],
        description: "Grows an image by tiling its middle row and column; corners keep their size.",
        parameters: commonParameters + [.boolean(\.flipYTiles, "inputFlipYTiles", "Mirror every other row of tiles.")])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return try geometry(of: input).image(input, name: "ninePartTiled", tiled: true, flipY: flipYTiles)
    }
}
