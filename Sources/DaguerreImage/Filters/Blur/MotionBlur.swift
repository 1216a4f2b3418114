import DaguerreCore
import Foundation

/// Blurs along a line, as if the camera moved during the exposure (CIMotionBlur, I4). Core
/// Image publishes no formula; the definition here: the mean of `2·⌈radius⌉ + 1` bilinear
/// samples evenly spaced from −radius to +radius pixels along the direction `angle` (radians,
/// counter-clockwise from +x as seen on screen, as in Core Image: in these y-down coordinates
/// the step is (cos θ, −sin θ)). Pixels outside the image count as transparent, so edges fade,
/// as with GaussianBlur; the extent grows by the streak.
///
/// ```swift
/// let panned = try image.applying(MotionBlur(radius: 12, angle: .pi / 6))
/// ```
public struct MotionBlur: Filter {
    public var inputImage: Image?
    public var radius: Double = 20
    public var angle: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius, angle: Double = Self.defaults.angle) {
        self.inputImage = inputImage
        self.radius = radius
        self.angle = angle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MotionBlur", displayName: "Motion Blur", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Averages along a line through each pixel.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "Half the streak's length, in pixels.", min: 0, max: 1000, sliderMax: 100),
            .angle(
                \.angle, "inputAngle", "The streak's direction in radians, counter-clockwise from +x.", sliderMin: -.pi, sliderMax: .pi),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let r = radius
        let a = angle
        if r == 0 { return input }
        let n = 2 * Int(r.rounded(.up)) + 1
        let step = SIMD2(Float(cos(a)), Float(-sin(a)))
        let offsets = (0..<n).map { k in step * Float(-r + 2 * r * Double(k) / Double(n - 1)) }
        let mx = (r * abs(cos(a))).rounded(.up) + 1
        let my = (r * abs(sin(a))).rounded(.up) + 1
        let scale = SIMD4<Float>(repeating: 1 / Float(n))
        let node = SamplingNode(
            name: "motionBlur", inputs: [input.node], extent: input.extent.insetBy(dx: -mx, dy: -my),
            parameters: "radius \(r) angle \(a)", outputFormat: nil,
            digest: { d in
                d.add(r)
                d.add(a)
            },
            roi: { _, rect in rect.insetBy(dx: -mx, dy: -my) }
        ) { s, p in
            var acc = SIMD4<Float>()
            for o in offsets { acc += s[0].sample(p + o) }
            return acc * scale
        }
        return Image(node)
    }
}
