import DaguerreCore

/// Stretches an asset (a picture frame, a button) to a new size, stretching only its middle
/// row and column (CINinePartStretched, new in the seed, I4).
///
/// ```swift
/// let frame = try asset.applying(NinePartStretched(breakpoint0: [20, 20], breakpoint1: [80, 80], growAmount: [400, 200]))
/// ```
public struct NinePartStretched: Filter, NinePartFilter {
    public var inputImage: Image?
    public var breakpoint0: [Double] = [50, 50]
    public var breakpoint1: [Double] = [150, 150]
    public var growAmount: [Double] = [100, 100]

    public init() {}
    public init(
        inputImage: Image? = nil, breakpoint0: [Double] = Self.defaults.breakpoint0, breakpoint1: [Double] = Self.defaults.breakpoint1,
        growAmount: [Double] = Self.defaults.growAmount
    ) {
        self.inputImage = inputImage
        self.breakpoint0 = breakpoint0
        self.breakpoint1 = breakpoint1
        self.growAmount = growAmount
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "NinePartStretched", displayName: "Nine Part Stretched", categories: [.distortionEffect, .stillImage, .builtIn],
        description: "Grows an image by stretching its middle row and column; corners keep their size.",
        parameters: commonParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return try geometry(of: input).image(input, name: "ninePartStretched", tiled: false, flipY: false)
    }
}
