import DaguerreCore

/// Tone maps an image to the dynamic range a display offers (CISystemToneMap; SPEC I4). Core
/// Image calls the operating system's tone mapper, "consistent with other frameworks", whose
/// policy is not published and does not exist on Linux; this is a documented approximation
/// built on ``ToneMapHeadroom``'s curve (BT.2390's roll-off, hue kept):
/// - the source headroom is the image's own peak, the largest max(R, G, B) over its pixels in
///   linear light (measured over the whole image, so it must be finite), at least 1;
/// - the target is 1 for `standard`, `displayHeadroom` for `high`, and for `constrainedHigh`
///   half the display's headroom in stops, √displayHeadroom (Apple's constrained range keeps
///   some, not all, of it).
/// A peak within the target changes nothing.
///
/// ```swift
/// let forThisScreen = try hdrPhoto.applying(SystemToneMap(displayHeadroom: 4, preferredDynamicRange: "constrainedHigh"))
/// ```
public struct SystemToneMap: Filter {
    public var inputImage: Image?
    public var displayHeadroom: Double = 1
    public var preferredDynamicRange: String = "standard"

    public init() {}
    public init(
        inputImage: Image? = nil, displayHeadroom: Double = Self.defaults.displayHeadroom,
        preferredDynamicRange: String = Self.defaults.preferredDynamicRange
    ) {
        (self.inputImage, self.displayHeadroom, self.preferredDynamicRange) = (inputImage, displayHeadroom, preferredDynamicRange)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SystemToneMap", displayName: "System Tone Map", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Rolls the image's highlights off into the range a display offers (standard, constrained high or high).",
        parameters: [
            .image(\.inputImage),
            .scalar(\.displayHeadroom, "displayHeadroom", "The display's headroom, in multiples of SDR white.", min: 1, max: 32),
            .string(\.preferredDynamicRange, "preferredDynamicRange", "standard, constrainedHigh or high."),
        ])

    /// The headroom the result may use.
    var target: Double {
        get throws(DaguerreError) {
            switch preferredDynamicRange {
            case "standard": return 1
            case "constrainedHigh": return displayHeadroom.squareRoot()
            case "high": return displayHeadroom
            default:
                throw Self.invalid(
                    \.preferredDynamicRange, "'\(preferredDynamicRange)' is not a dynamic range; give standard, constrainedHigh or high")
            }
        }
    }

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let target = try self.target
        guard !input.extent.isInfinite else {
            throw Self.invalid(\.inputImage, "the image is infinite; its peak is measured over the whole image, so crop it first")
        }
        let peaks = Image(
            PointwiseNode(
                name: "colourPeak", inputs: [input.node], extent: input.extent, digest: { _ in },
                span: { s in
                    for i in 0..<s.count {
                        let p = SpanMath.unpremultiply(s.pixels[i])
                        let m = max(p.x, max(p.y, p.z))
                        s.pixels[i] = SIMD4(m, m, m, 1)
                    }
                }))
        let peak = Image(AreaReductionNode(input: peaks.node, region: input.extent, operation: .maximum)).clampedToExtent()
        return Image(
            PointwiseNode(
                name: "systemToneMap", inputs: [input.node, peak.node], extent: input.extent, parameters: "target \(target)",
                digest: { $0.add(target) },
                span: { s in
                    guard s.count > 0 else { return }
                    // The peak is one number for the whole image: one curve per span.
                    let source = max(1, Double(s.input(1)[0].x))
                    guard source > target, source.isFinite else { return }
                    let curve = HighlightRollOff(sourcePeak: source, targetPeak: target)
                    for i in 0..<s.count { s.pixels[i] = curve.applyToPeak(s.pixels[i]) }
                }))
    }
}
