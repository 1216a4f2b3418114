import DaguerreCore

/// Passes a copier's light bar over the image, leaving the target image behind it
/// (CICopyMachineTransition). Core Image publishes no formula; this is the definition used
/// (SPEC I4). The bar is the band of a ``SwipeGeometry`` swipe at `angle` across `extent`, `width`
/// pixels wide: ahead of it is the image, behind it the target, and inside it the target lit by
/// `color`, out = target + (color − target)·l, with the light l = min(1, opacity·(1 − |2(s − m)/w|))
/// peaking at the band's middle m (s the pixel's projection, on premultiplied working-space
/// values). Time 0 gives the image and time 1 the target exactly. The result covers `extent`.
///
/// ```swift
/// let copied = try before.applying(CopyMachineTransition(targetImage: after, time: 0.5))
/// ```
public struct CopyMachineTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var extent = Rect(x: 0, y: 0, width: 300, height: 300)
    public var color = Color(red: 0.6, green: 1, blue: 0.8, alpha: 1)
    public var time: Double = 0
    public var angle: Double = 0
    public var width: Double = 200
    public var opacity: Double = 1.3

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "CopyMachineTransition", displayName: "Copy Machine", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Passes a copier's light bar across the extent, leaving the target image behind it.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .rectangle(\.extent, "inputExtent", "The rectangle the bar crosses, and the result's extent."),
            .color(\.color, "inputColor", "The light's colour."),
            TransitionTime.parameter(\.time),
            .angle(\.angle, "inputAngle", "The direction the bar moves, in radians.", min: 0, sliderMax: 2 * Double.pi),
            .scalar(\.width, "inputWidth", "The bar's width in pixels.", min: 0.1, sliderMax: 500),
            .scalar(
                \.opacity, "inputOpacity", "How bright the light is at the bar's middle (above 1 widens its full-strength core).",
                min: 0, sliderMax: 3),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        if time <= 0 { return image.cropped(to: extent) }
        if time >= 1 { return target.cropped(to: extent) }
        let geometry = SwipeGeometry(extent: extent, angle: angle, width: width, time: time)
        let strength = Float(opacity)
        let light = Image(color: Color(red: color.red, green: color.green, blue: color.blue, alpha: 1, colorSpace: color.colorSpace))
        return Image(
            PointwiseNode(
                name: "copyMachineTransition", inputs: [image.node, target.node, light.node], extent: extent,
                parameters: "\(geometry) \(color) opacity \(strength)",
                digest: { d in
                    geometry.digest(&d)
                    d.add(strength)
                }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                let c = span.input(2)
                let middle = geometry.edge - geometry.width / 2
                for i in 0..<span.count {
                    let p = geometry.position(span.x + i, span.y)
                    if p >= geometry.edge { continue }
                    if p < geometry.edge - geometry.width {
                        s[i] = b[i]
                    } else {
                        let l = min(1, max(0, strength * (1 - abs(2 * (p - middle) / geometry.width))))
                        s[i] = b[i] + (c[0] - b[i]) * l
                    }
                }
            })
    }
}
