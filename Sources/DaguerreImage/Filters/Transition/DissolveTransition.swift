import DaguerreCore

/// Cross-fades from the image to the target image (CIDissolveTransition). Core Image publishes
/// no formula; this is the linear mix on premultiplied working-space values,
/// out = image + (target − image)·t with t the time clamped to [0, 1], so time 0 gives the
/// image and time 1 the target exactly (SPEC I4). Outside an image's extent it is clear.
///
/// ```swift
/// let halfway = try before.applying(DissolveTransition(targetImage: after, time: 0.5))
/// ```
public struct DissolveTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var time: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DissolveTransition", displayName: "Dissolve", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Cross-fades from the image to the target image as the time runs from 0 to 1.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            TransitionTime.parameter(\.time),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        let t = Float(min(max(time, 0), 1))
        return Image(
            PointwiseNode(
                name: "dissolveTransition", inputs: [image.node, target.node], extent: TransitionTime.extent(image, target),
                parameters: "time \(t)", digest: { $0.add(Double(t)) }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                if t == 1 {
                    for i in 0..<span.count { s[i] = b[i] }
                } else if t > 0 {
                    for i in 0..<span.count { s[i] += (b[i] - s[i]) * t }
                }
            })
    }
}
