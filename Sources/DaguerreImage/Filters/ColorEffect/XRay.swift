import DaguerreCore

/// An X-ray film look (CIXRay): luminance inverted onto a ramp from a pale cyan-white (for black)
/// to a blue-black (for white). Core Image does not publish its ramp; this uses two sRGB stops at
/// the ends of encoded luminance (see `ColorRamp`), (0.92, 0.97, 1) and (0, 0.02, 0.06) (I4).
///
/// ```swift
/// let film = try photo.applying(XRay())
/// ```
public struct XRay: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    static let ramp = ColorRamp(name: "xRay", stops: [SIMD3(0.92, 0.97, 1), SIMD3(0, 0.02, 0.06)])

    public static let declaration = FilterDeclaration<Self>(
        name: "XRay", displayName: "X-Ray", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Inverts luminance onto a cold ramp, like an X-ray film.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.ramp.apply(to: try required(\.inputImage))
    }
}
