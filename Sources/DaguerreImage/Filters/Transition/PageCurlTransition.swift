import DaguerreCore

/// Turns the image over like a page, its curl sweeping across the extent to reveal the target
/// image (CIPageCurlTransition). Core Image publishes no formula; this is the definition used
/// (SPEC I4), on premultiplied working-space values, in Daguerre's coordinates (y down, pixel
/// centres at half-integers).
///
/// The curl moves along m = (cos angle, sin angle); p·m is a pixel centre's projection and s₀,
/// s₁ the lowest and highest projections of `extent`'s corners. The curl line (where the
/// cylinder, its axis perpendicular to m, touches the page) lies at
/// e = s₀ + time·(s₁ − s₀ + radius); x = e − p·m is how far
/// behind it a pixel centre is. Behind the line the page has lifted and rolled round a cylinder
/// of radius R = `radius` resting on the line: the page point at unrolled distance u behind the
/// line sits at angle φ = u/R, seen at x = R·sin φ, up to the cylinder's top (φ = π), after
/// which the page lies flat and face down, seen at x = π·R − u. The page point seen at p at
/// unrolled distance u is P = p + (x − u)·m. From the top:
/// - x < 0: the back of the page at u = π·R − x, P = p + (2x − π·R)·m, over the image's pixel;
/// - 0 ≤ x ≤ R: the back at φ = π − asin(x/R), u = R·φ (the upper half), over the front at
///   φ = asin(x/R), u = R·φ (the lower half), over the target image's pixel;
/// - x > R: the target image's pixel.
/// The front at P is the image restricted to the extent's whole pixels (the page) and sampled
/// bilinearly there (transparent off the page); the back is `backsideImage` (the image when
/// absent) restricted to the page and sampled bilinearly at (X₀ + X₁ − Pₓ, P_y), X₀ and X₁ the
/// page's left and right edges: a sheet's back mirrors its front left to right. Layers are
/// composited source-over: out = top + (1 − top.α)·(under + (1 − under.α)·target), with no
/// target ahead of the line (x < 0). A partly transparent backside lets the layers under it show.
///
/// With `shadingImage`, the curled layers (the cylinder and the face-down page, not the flat
/// page) have red, green and blue multiplied by the shading image's, clamped to [0, 1], read
/// bilinearly along the middle row of a lit sphere: at (c.x + n·(w − 1)/2, c.y), c the centre of
/// the shading image's extent (of `extent` when it is infinite) and w its width, n the visible
/// face's normal along m: x/R on the lower half, −x/R on the upper half, 0 face down. Without
/// it nothing is shaded. Time 0 gives the image and time 1 the target exactly, cropped to
/// `extent`; the result covers `extent`.
///
/// ```swift
/// let turning = try before.applying(PageCurlTransition(targetImage: after, backsideImage: paper, time: 0.5))
/// ```
public struct PageCurlTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var backsideImage: Image?
    public var shadingImage: Image?
    public var extent = Rect(x: 0, y: 0, width: 300, height: 300)
    public var time: Double = 0
    public var angle: Double = 0
    public var radius: Double = 100

    public init() {}
    public init(
        inputImage: Image? = nil, targetImage: Image? = nil, backsideImage: Image? = nil, shadingImage: Image? = nil,
        time: Double = Self.defaults.time
    ) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.backsideImage = backsideImage
        self.shadingImage = shadingImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PageCurlTransition", displayName: "Page Curl", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Curls the image over like a turning page to reveal the target image.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0, the page."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1, under the page."),
            .optionalImage(\.backsideImage, "inputBacksideImage", "What the back of the page shows, mirrored (absent: the image)."),
            .optionalImage(\.shadingImage, "inputShadingImage", "A lit sphere whose colours shade the curl (absent: no shading)."),
            .rectangle(\.extent, "inputExtent", "The page, and the result's extent."),
            TransitionTime.parameter(\.time),
            .angle(\.angle, "inputAngle", "The direction the curl moves, in radians.", sliderMin: -Double.pi, sliderMax: Double.pi),
            .scalar(\.radius, "inputRadius", "The curl's radius in pixels.", min: 0.01, sliderMax: 400),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        if time <= 0 || extent.isEmpty { return image.cropped(to: extent) }
        if time >= 1 { return target.cropped(to: extent) }
        let geometry = PageCurlGeometry(extent: extent, angle: angle, radius: radius, trail: 0, time: time)
        return PageCurlGeometry.image(
            name: "pageCurlTransition", image: image, target: target, backside: backsideImage, shading: shadingImage, shadow: nil,
            extent: extent, geometry: geometry)
    }
}
