import DaguerreCore

/// Swipes from the image to the target image in bars (CIBarsSwipeTransition). Core Image
/// publishes no formula; this is the definition used (SPEC I4). The two images' extent is cut
/// into bars `width` pixels wide running along the direction (cos angle, sin angle); each bar is
/// a ``SwipeGeometry`` swipe across that extent with band width `barOffset`, the edge of bar k
/// being e(t) − barOffset·(k mod 2): every other bar lags `barOffset` pixels behind its
/// neighbours. Behind a bar's edge is the target, ahead of it the image. Bar k holds the pixels
/// whose centre's projection q on (−sin angle, cos angle) has ⌊q / width⌋ = k. Time 0 gives the
/// image and time 1 the target exactly. The extent is the union of the images' extents, which
/// must be finite.
///
/// ```swift
/// let swiped = try before.applying(BarsSwipeTransition(targetImage: after, time: 0.5))
/// ```
public struct BarsSwipeTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var angle: Double = 3.14159
    public var width: Double = 30
    public var barOffset: Double = 10
    public var time: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BarsSwipeTransition", displayName: "Bars Swipe", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Swipes the target image in over the image in bars, every other bar lagging behind its neighbours.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .angle(\.angle, "inputAngle", "The direction the bars move, in radians.", sliderMin: 0, sliderMax: 2 * Double.pi),
            .scalar(\.width, "inputWidth", "Each bar's width in pixels.", min: 2, sliderMax: 300),
            .scalar(\.barOffset, "inputBarOffset", "How far every other bar lags behind, in pixels.", min: 1, sliderMax: 100),
            TransitionTime.parameter(\.time),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        let extent = TransitionTime.extent(image, target)
        if time <= 0 { return image.cropped(to: extent) }
        if time >= 1 { return target.cropped(to: extent) }
        if extent.isInfinite {
            throw Self.invalid(\.inputImage, "the bars cross the images' extent, which is infinite: crop the image or the target first")
        }
        let geometry = SwipeGeometry(extent: extent, angle: angle, width: barOffset, time: time)
        let (barWidth, lag) = (Float(width), Float(barOffset))
        return Image(
            PointwiseNode(
                name: "barsSwipeTransition", inputs: [image.node, target.node], extent: extent,
                parameters: "\(geometry) bars \(barWidth)",
                digest: { d in
                    geometry.digest(&d)
                    d.add(barWidth)
                }
            ) { span in
                let s = span.pixels
                let b = span.input(1)
                for i in 0..<span.count {
                    let bar = Int((geometry.across(span.x + i, span.y) / barWidth).rounded(.down))
                    let edge = bar & 1 == 0 ? geometry.edge : geometry.edge - lag
                    if geometry.position(span.x + i, span.y) < edge { s[i] = b[i] }
                }
            })
    }
}
