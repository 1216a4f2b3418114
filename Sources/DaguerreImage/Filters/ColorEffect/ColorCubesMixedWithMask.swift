import DaguerreCore

/// Two colour cubes mixed by a mask (CIColorCubesMixedWithMask; SPEC I4): the image is looked
/// up in both cubes as ``ColorCubeWithColorSpace`` does (in `colorSpace`'s encoding, sRGB unless
/// given), and the two results are mixed by the mask's luminance as ``BlendWithMask`` mixes:
/// out = cube0(c) + (cube1(c) − cube0(c))·m, m the mask's Rec. 709 luminance clamped to [0, 1]
/// (0 outside the mask), on premultiplied working-space values. Where the mask is black the first cube applies, where white the second.
///
/// ```swift
/// let graded = try photo.applying(ColorCubesMixedWithMask(maskImage: skyMask, cubeDimension: 33, cube0Data: land, cube1Data: sky))
/// ```
public struct ColorCubesMixedWithMask: Filter {
    public var inputImage: Image?
    public var maskImage: Image?
    public var cubeDimension = 2
    public var cube0Data: [Float] = ColorCubeTable.identity(2)
    public var cube1Data: [Float] = ColorCubeTable.identity(2)
    public var colorSpace: ColorSpace = .sRGB
    public var extrapolate = false

    public init() {}
    public init(
        inputImage: Image? = nil, maskImage: Image? = nil, cubeDimension: Int = Self.defaults.cubeDimension,
        cube0Data: [Float] = Self.defaults.cube0Data, cube1Data: [Float] = Self.defaults.cube1Data,
        colorSpace: ColorSpace = Self.defaults.colorSpace, extrapolate: Bool = Self.defaults.extrapolate
    ) {
        self.inputImage = inputImage
        self.maskImage = maskImage
        self.cubeDimension = cubeDimension
        self.cube0Data = cube0Data
        self.cube1Data = cube1Data
        self.colorSpace = colorSpace
        self.extrapolate = extrapolate
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorCubesMixedWithMask", displayName: "Color Cubes Mixed With Mask",
        categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Maps colours through two 3D lookup tables and mixes the results by a mask's luminance.",
        parameters: [
            .image(\.inputImage),
            .image(\.maskImage, "inputMaskImage", "A greyscale mask: black takes the first cube, white the second."),
            .cubeDimension(\.cubeDimension),
            .cubeData(\.cube0Data, key: "inputCube0Data", doc: "The cube where the mask is black: 4·d³ floats, RGBA, red fastest."),
            .cubeData(\.cube1Data, key: "inputCube1Data", doc: "The cube where the mask is white: 4·d³ floats, RGBA, red fastest."),
            .colorSpace(\.colorSpace, "inputColorSpace", "The colour space whose encoded values index the cubes."),
            .boolean(\.extrapolate, "inputExtrapolate", "Continue the tables linearly past [0, 1] instead of clamping."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (input, mask) = (try required(\.inputImage), try required(\.maskImage))
        let encoded = input.matchedFromWorkingSpace(to: colorSpace)
        var looks: [Image] = []
        for key in [\Self.cube0Data, \Self.cube1Data] {
            let cube = try ColorCubeTable(
                dimension: cubeDimension, data: self[keyPath: key], for: Self.self, dimensionKey: \.cubeDimension, dataKey: key)
            looks.append(cube.apply(to: encoded, extrapolate: extrapolate, name: "colorCubesMixed").matchedToWorkingSpace(from: colorSpace))
        }
        return MaskBlend.luminance.blend(looks[1], over: looks[0], mask: mask)
    }
}
