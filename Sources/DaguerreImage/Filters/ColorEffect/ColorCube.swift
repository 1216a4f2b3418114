import DaguerreCore

/// Maps colours through a 3D lookup table (CIColorCube): each unpremultiplied colour on the
/// working space's linear values indexes the cube, looked up by trilinear interpolation (see
/// `ColorCubeTable` for the layout and the extrapolation) (I4). The default is the identity cube
/// of dimension 2, which leaves colours in [0, 1] unchanged.
///
/// ```swift
/// let graded = try photo.applying(ColorCube(cubeDimension: 17, cubeData: lut))
/// ```
public struct ColorCube: Filter {
    public var inputImage: Image?
    public var cubeDimension = 2
    public var cubeData: [Float] = ColorCubeTable.identity(2)
    public var extrapolate = false

    public init() {}
    public init(
        inputImage: Image? = nil, cubeDimension: Int = Self.defaults.cubeDimension, cubeData: [Float] = Self.defaults.cubeData,
        extrapolate: Bool = Self.defaults.extrapolate
    ) {
        self.inputImage = inputImage
        self.cubeDimension = cubeDimension
        self.cubeData = cubeData
        self.extrapolate = extrapolate
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorCube", displayName: "Color Cube", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Maps colours through a 3D lookup table with trilinear interpolation.",
        parameters: [
            .image(\.inputImage),
            .cubeDimension(\.cubeDimension),
            .cubeData(\.cubeData),
            .boolean(\.extrapolate, "inputExtrapolate", "Continue the table linearly past [0, 1] instead of clamping."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let cube = try ColorCubeTable(
            dimension: cubeDimension, data: cubeData, for: Self.self, dimensionKey: \.cubeDimension, dataKey: \.cubeData)
        return cube.apply(to: input, extrapolate: extrapolate, name: "colorCube")
    }
}
