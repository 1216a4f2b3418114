import DaguerreCore
import Foundation

/// Reveals the target image through holes that open in the image (CIModTransition). Core Image
/// publishes no formula; this is the definition used (SPEC I4). Pixel centres are taken relative
/// to `center`, turned by −angle into (a, b) and scaled to P = (a / radius, b / compression); the
/// holes are centred on the lattice of even P (the "mod" of P by 2), and a pixel's distance from
/// its hole's centre is m = |P − 2⌊P/2 + ½⌋| / √2, from 0 at the centre to 1 at a cell's corner.
/// The target shows where m < time, the image elsewhere, so the holes grow until they cover the
/// plane. Time 0 gives the image and time 1 the target exactly. The extent is the union of the
/// images' extents.
///
/// ```swift
/// let holes = try before.applying(ModTransition(targetImage: after, time: 0.5))
/// ```
public struct ModTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var center: [Double] = [150, 150]
    public var time: Double = 0
    public var angle: Double = 2
    public var radius: Double = 150
    public var compression: Double = 300

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ModTransition", displayName: "Mod", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Reveals the target image through a lattice of growing holes in the image.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .position(\.center, "inputCenter", "A hole's centre.", min: -1e7, max: 1e7),
            TransitionTime.parameter(\.time),
            .angle(\.angle, "inputAngle", "The lattice's rotation, in radians.", sliderMin: -Double.pi, sliderMax: Double.pi),
            .scalar(\.radius, "inputRadius", "Half the holes' spacing along the turned x axis, in pixels.", min: 1, sliderMax: 200),
            .scalar(
                \.compression, "inputCompression", "Half the holes' spacing along the turned y axis, in pixels.", min: 1,
                sliderMax: 800),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        let extent = TransitionTime.extent(image, target)
        if time <= 0 { return image.cropped(to: extent) }
        if time >= 1 { return target.cropped(to: extent) }
        let (c, s) = (Float(cos(angle)), Float(sin(angle)))
        let (cx, cy) = (Float(center[0]), Float(center[1]))
        let (r, k, t) = (Float(radius), Float(compression), Float(time))
        let rim = t * Float(2).squareRoot()
        return Image(
            PointwiseNode(
                name: "modTransition", inputs: [image.node, target.node], extent: extent,
                parameters: "centre \(cx),\(cy) angle \(angle) radius \(r) compression \(k) time \(t)",
                digest: { d in
                    for v in [cx, cy, c, s, r, k, t] { d.add(v) }
                }
            ) { span in
                let p = span.pixels
                let b = span.input(1)
                let y = Float(span.y) + 0.5 - cy
                for i in 0..<span.count {
                    let x = Float(span.x + i) + 0.5 - cx
                    let u = (x * c + y * s) / r
                    let v = (y * c - x * s) / k
                    let du = u - 2 * (u / 2 + 0.5).rounded(.down)
                    let dv = v - 2 * (v / 2 + 0.5).rounded(.down)
                    let m: Float = (du * du + dv * dv).squareRoot()
                    if m < rim { p[i] = b[i] }
                }
            })
    }
}
