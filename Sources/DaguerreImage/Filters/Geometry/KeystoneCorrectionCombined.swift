import DaguerreCore

/// Makes the guide a rectangle's picture by turning the camera every way it needs (roll, pitch and yaw): the left and right edges come out vertical, the top and bottom parallel.
/// (CIKeystoneCorrectionCombined; SPEC I4). The guide and the model are KeystoneCorrection's;
/// rotationFilter() is the camera turn it found (Core Image's `outputRotationFilter`).
///
/// ```swift
/// let f = KeystoneCorrectionCombined(
///     inputImage: photo, topLeft: [412, 80], topRight: [1630, 95], bottomRight: [1850, 1400], bottomLeft: [190, 1390])
/// let straightened = try f.outputImage()
/// ```
public struct KeystoneCorrectionCombined: Filter, KeystoneCorrectionFilter {
    public static let axes = KeystoneCorrection.Axes.both
    public var inputImage: Image?
    public var focalLength: Double = 28
    public var topLeft: [Double]?
    public var topRight: [Double]?
    public var bottomRight: [Double]?
    public var bottomLeft: [Double]?

    public init() {}
    public init(
        inputImage: Image? = nil, focalLength: Double = Self.defaults.focalLength, topLeft: [Double]? = nil, topRight: [Double]? = nil,
        bottomRight: [Double]? = nil, bottomLeft: [Double]? = nil
    ) {
        (self.inputImage, self.focalLength) = (inputImage, focalLength)
        (self.topLeft, self.topRight, self.bottomRight, self.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "KeystoneCorrectionCombined", displayName: "Keystone Correction Combined",
        categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Straightens verticals and horizontals together by turning the camera.", parameters: keystoneParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try corrected() }
}
