import DaguerreCore

/// Swipes from the image to the target image (CISwipeTransition): a straight edge at `angle`
/// crosses `extent` as the time runs from 0 to 1 (the geometry is ``SwipeGeometry``'s), leaving
/// the target behind it; the last `width` of the target behind the edge is tinted by `color` at
/// `opacity` (clamped to [0, 1]), out = target + (color − target)·opacity on premultiplied
/// working-space values. Core Image publishes no formula; this is the definition used (SPEC I4).
/// Time 0 gives the image and time 1 the target exactly.
///
/// ```swift
/// let swiped = try before.applying(SwipeTransition(targetImage: after, time: 0.4))
/// ```
public struct SwipeTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var extent = Rect(x: 0, y: 0, width: 300, height: 300)
    public var color = Color(red: 1, green: 1, blue: 1, alpha: 1)
    public var time: Double = 0
    public var angle: Double = 0
    public var width: Double = 300
    public var opacity: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SwipeTransition", displayName: "Swipe", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Swipes a straight edge across the extent, leaving the target image behind it with a tinted band.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .rectangle(\.extent, "inputExtent", "The rectangle the edge crosses."),
            .color(\.color, "inputColor", "The band's tint."),
            TransitionTime.parameter(\.time),
            .angle(\.angle, "inputAngle", "The direction the edge moves, in radians.", sliderMin: -Double.pi, sliderMax: Double.pi),
            .scalar(\.width, "inputWidth", "The band's width in pixels.", min: 0.1, sliderMax: 1000),
            .scalar(\.opacity, "inputOpacity", "How strongly the band is tinted (0 untinted, 1 the colour).", min: 0, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        if time <= 0 { return image.cropped(to: TransitionTime.extent(image, target)) }
        if time >= 1 { return target.cropped(to: TransitionTime.extent(image, target)) }
        let geometry = SwipeGeometry(extent: extent, angle: angle, width: width, time: time)
        let alpha = Float(min(max(opacity, 0), 1))
        let tint = Image(color: Color(red: color.red, green: color.green, blue: color.blue, alpha: 1, colorSpace: color.colorSpace))
        return Image(
            PointwiseNode(
                name: "swipeTransition", inputs: [image.node, target.node, tint.node], extent: TransitionTime.extent(image, target),
                parameters: "\(geometry) \(color) opacity \(alpha)",
                digest: { d in
                    d.add(Double(geometry.cos))
                    d.add(Double(geometry.sin))
                    d.add(Double(geometry.edge))
                    d.add(Double(geometry.width))
                    d.add(Double(alpha))
                }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                let c = span.input(2)
                for i in 0..<span.count {
                    let p = geometry.position(span.x + i, span.y)
                    if p >= geometry.edge { continue }
                    s[i] = p >= geometry.edge - geometry.width ? b[i] + (c[0] - b[i]) * alpha : b[i]
                }
            })
    }
}
