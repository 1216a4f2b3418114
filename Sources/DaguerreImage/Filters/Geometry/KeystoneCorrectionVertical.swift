import DaguerreCore

/// Makes the left and right guide edges parallel by turning the camera up or down (a pitch): converging verticals, as when a building is photographed from below.
/// (CIKeystoneCorrectionVertical; SPEC I4). The guide and the model are KeystoneCorrection's;
/// rotationFilter() is the camera turn it found (Core Image's `outputRotationFilter`).
///
/// ```swift
/// let f = KeystoneCorrectionVertical(
///     inputImage: photo, topLeft: [412, 80], topRight: [1630, 95], bottomRight: [1850, 1400], bottomLeft: [190, 1390])
/// let straightened = try f.outputImage()
/// ```
public struct KeystoneCorrectionVertical: Filter, KeystoneCorrectionFilter {
    public static let axes = KeystoneCorrection.Axes.vertical
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
        name: "KeystoneCorrectionVertical", displayName: "Keystone Correction Vertical",
        categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Straightens converging verticals by a pitch of the camera.", parameters: keystoneParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try corrected() }
}
