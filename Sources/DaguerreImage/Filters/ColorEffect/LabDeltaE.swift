import DaguerreCore

/// How different two images look, pixel by pixel (CILabDeltaE; SPEC I4): the CIE 1994 colour
/// difference ΔE*94 (graphic arts weights; see ``CIELab``) of `image2`'s colour from the image's,
/// both unpremultiplied linear working-space colours taken to L*a*b* relative to D65. The result
/// is opaque grey with ΔE in red, green and blue: 0 for the same colour, about 1 to 2 a just
/// noticeable difference, up to about 100. It covers both images (a colour outside an image is
/// transparent black). Data, not colour: render it into the working space to read the numbers.
///
/// ```swift
/// let difference = try edited.applying(LabDeltaE(image2: original))
/// ```
public struct LabDeltaE: Filter {
    public var inputImage: Image?
    public var image2: Image?

    public init() {}
    public init(inputImage: Image? = nil, image2: Image? = nil) {
        self.inputImage = inputImage
        self.image2 = image2
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "LabDeltaE", displayName: "Lab Delta E", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "The CIE 1994 colour difference between two images, as a grey level from 0 up to about 100.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The reference image."),
            .image(\.image2, "inputImage2", "The image compared with it."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (a, b) = (try required(\.inputImage), try required(\.image2))
        return Image(
            PointwiseNode(name: "labDeltaE", inputs: [a.node, b.node], extent: a.extent.union(b.extent), digest: { _ in }) { span in
                let s = span.pixels
                let other = span.input(1)
                for i in 0..<span.count {
                    let (u, v) = (SpanMath.unpremultiply(s[i]), SpanMath.unpremultiply(other[i]))
                    let e = CIELab.deltaE94(CIELab.lab(SIMD3(u.x, u.y, u.z)), CIELab.lab(SIMD3(v.x, v.y, v.z)))
                    s[i] = SIMD4(e, e, e, 1)
                }
            })
    }
}
