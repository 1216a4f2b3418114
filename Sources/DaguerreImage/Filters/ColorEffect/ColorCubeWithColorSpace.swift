import DaguerreCore

/// Maps colours through a 3D lookup table in a given colour space (CIColorCubeWithColorSpace):
/// the working space's values are converted into `colorSpace`'s encoding (sRGB unless given: the
/// cube indexes sRGB-encoded values), looked up as ColorCube does (see `ColorCubeTable`), and the
/// result is taken as encoded in `colorSpace` and converted back (I4).
///
/// ```swift
/// let graded = try photo.applying(ColorCubeWithColorSpace(cubeDimension: 33, cubeData: lut, colorSpace: .displayP3))
/// ```
public struct ColorCubeWithColorSpace: Filter {
    public var inputImage: Image?
    public var cubeDimension = 2
    public var cubeData: [Float] = ColorCubeTable.identity(2)
    public var extrapolate = false
    public var colorSpace: ColorSpace = .sRGB

    public init() {}
    public init(
        inputImage: Image? = nil, cubeDimension: Int = Self.defaults.cubeDimension, cubeData: [Float] = Self.defaults.cubeData,
        extrapolate: Bool = Self.defaults.extrapolate, colorSpace: ColorSpace = Self.defaults.colorSpace
    ) {
        self.inputImage = inputImage
        self.cubeDimension = cubeDimension
        self.cubeData = cubeData
        self.extrapolate = extrapolate
        self.colorSpace = colorSpace
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorCubeWithColorSpace", displayName: "Color Cube with ColorSpace",
        categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Maps colours through a 3D lookup table indexed by values in the given colour space.",
        parameters: [
            .image(\.inputImage),
            .cubeDimension(\.cubeDimension),
            .cubeData(\.cubeData),
            .boolean(\.extrapolate, "inputExtrapolate", "Continue the table linearly past [0, 1] instead of clamping."),
            .colorSpace(\.colorSpace, "inputColorSpace", "The colour space whose encoded values index the cube."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let cube = try ColorCubeTable(
            dimension: cubeDimension, data: cubeData, for: Self.self, dimensionKey: \.cubeDimension, dataKey: \.cubeData)
        return cube.apply(to: input.matchedFromWorkingSpace(to: colorSpace), extrapolate: extrapolate, name: "colorCubeWithColorSpace")
            .matchedToWorkingSpace(from: colorSpace)
    }
}
