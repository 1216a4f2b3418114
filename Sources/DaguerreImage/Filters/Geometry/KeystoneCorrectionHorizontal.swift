import DaguerreCore

/// Makes the top and bottom guide edges parallel by turning the camera left or right (a yaw): converging horizontals, as when a wall is photographed at an angle.
/// (CIKeystoneCorrectionHorizontal; SPEC I4). The guide and the model are KeystoneCorrection's;
/// rotationFilter() is the camera turn it found (Core Image's `outputRotationFilter`).
///
/// ```swift
/// let f = KeystoneCorrectionHorizontal(
///     inputImage: photo, topLeft: [412, 80], topRight: [1630, 95], bottomRight: [1850, 1400], bottomLeft: [190, 1390])
/// let straightened = try f.outputImage()
/// ```
public struct KeystoneCorrectionHorizontal: Filter, KeystoneCorrectionFilter {
    public static let axes = KeystoneCorrection.Axes.horizontal
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
        name: "KeystoneCorrectionHorizontal", displayName: "Keystone Correction Horizontal",
        categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Straightens converging horizontals by a yaw of the camera.", parameters: keystoneParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try corrected() }
}
