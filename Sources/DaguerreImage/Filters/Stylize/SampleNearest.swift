import DaguerreCore

/// The image unchanged, but sampled without interpolation by whatever transforms or warps it
/// next (CISampleNearest; SPEC I4): ``Image/samplingNearest()`` by name. Scaled up, each pixel
/// becomes a hard-edged block; turned, no new colours appear between pixels.
///
/// ```swift
/// let blocks = try icon.applying(SampleNearest()).transformed(by: AffineTransform2D(scaleX: 8, y: 8))
/// ```
public struct SampleNearest: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "SampleNearest", displayName: "Sample Nearest", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Makes later transforms and warps read the nearest pixel instead of blending neighbours.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try required(\.inputImage).samplingNearest() }
}
