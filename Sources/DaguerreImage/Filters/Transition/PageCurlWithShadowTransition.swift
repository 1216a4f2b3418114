import DaguerreCore

/// Turns the image over like a page that casts a soft shadow on the target image
/// (CIPageCurlWithShadowTransition). Core Image publishes no formula; this is the definition
/// used (SPEC I4). The page curls exactly as ``PageCurlTransition`` defines it, with no shading
/// image, over the page E = `extent` (when empty: the image's extent), except that the curl line
/// runs on past the page by the shadow too: e = s₀ + time·(s₁ − s₀ + R + W), W = shadowSize·R.
/// The target image at pixel centres inside `shadowExtent` (when empty: E), from the curl line
/// on (x ≥ 0), lies under black of opacity d = shadowAmount for x ≤ R, falling linearly to 0 at
/// x = R + W (and 0 beyond): target′ = target·(1 − d) + (0, 0, 0, d) on premultiplied
/// working-space values, before the page's layers are composited over it. Time 0 gives the
/// image and time 1 the target exactly, cropped to E; the result covers E.
///
/// ```swift
/// let turning = try before.applying(PageCurlWithShadowTransition(targetImage: after, time: 0.5))
/// ```
public struct PageCurlWithShadowTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var backsideImage: Image?
    public var extent = Rect.null
    public var time: Double = 0
    public var angle: Double = 0
    public var radius: Double = 100
    public var shadowSize: Double = 0.5
    public var shadowAmount: Double = 0.7
    public var shadowExtent = Rect.null

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, backsideImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.backsideImage = backsideImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PageCurlWithShadowTransition", displayName: "Page Curl With Shadow",
        categories: [.transition, .video, .stillImage, .builtIn],
        description: "Curls the image over like a turning page casting a shadow, to reveal the target image.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0, the page."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1, under the page."),
            .optionalImage(\.backsideImage, "inputBacksideImage", "What the back of the page shows, mirrored (absent: the image)."),
            .rectangle(\.extent, "inputExtent", "The page, and the result's extent (empty: the image's extent)."),
            TransitionTime.parameter(\.time),
            .angle(\.angle, "inputAngle", "The direction the curl moves, in radians.", sliderMin: -Double.pi, sliderMax: Double.pi),
            .scalar(\.radius, "inputRadius", "The curl's radius in pixels.", min: 0.01, sliderMax: 400),
            .scalar(\.shadowSize, "inputShadowSize", "How far the shadow reaches past the curl, in radii.", min: 0, max: 1),
            .scalar(\.shadowAmount, "inputShadowAmount", "How dark the shadow is (its opacity).", min: 0, max: 1),
            .rectangle(\.shadowExtent, "inputShadowExtent", "Where the shadow may fall (empty: the page)."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        let page = extent.isEmpty ? image.extent : extent
        if time <= 0 || page.isEmpty { return image.cropped(to: page) }
        if time >= 1 { return target.cropped(to: page) }
        guard !page.isInfinite else {
            throw Self.invalid(\.extent, "the page would be the image's infinite extent: give an extent or crop the image first")
        }
        let reach = shadowSize * radius
        let geometry = PageCurlGeometry(extent: page, angle: angle, radius: radius, trail: reach, time: time)
        let shadow = PageCurlGeometry.Shadow(reach: reach, amount: shadowAmount, extent: shadowExtent.isEmpty ? page : shadowExtent)
        return PageCurlGeometry.image(
            name: "pageCurlWithShadowTransition", image: image, target: target, backside: backsideImage, shading: nil,
            shadow: shadow, extent: page, geometry: geometry)
    }
}
