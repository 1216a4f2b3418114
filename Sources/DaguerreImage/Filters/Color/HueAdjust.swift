import DaguerreCore
import Foundation

/// Rotates hue by an angle in radians (CIHueAdjust). Core Image does not publish its formula;
/// this uses W3C Filter Effects' `hue-rotate` matrix (a rotation about the grey axis that keeps
/// Rec. 709 luminance), with cos θ and sin θ of the angle, on the working space's linear values
/// (premultiplied: the matrix is linear and leaves alpha alone) (I4):
///
///     M = L + cos θ·(I − L) + sin θ·S,   L = rows of (0.213, 0.715, 0.072),
///     S = [[−0.213, −0.715, 0.928], [0.143, 0.140, −0.283], [−0.787, 0.715, 0.072]]
///
/// ```swift
/// let shifted = try photo.applying(HueAdjust(angle: .pi / 3))
/// ```
public struct HueAdjust: Filter {
    public var inputImage: Image?
    /// Radians.
    public var angle: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, angle: Double = Self.defaults.angle) {
        self.inputImage = inputImage
        self.angle = angle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "HueAdjust", displayName: "Hue Adjust", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Rotates every colour's hue about the grey axis by the angle, keeping luminance.",
        parameters: [
            .image(\.inputImage),
            .angle(\.angle, "inputAngle", "The rotation in radians.", min: -1e6, max: 1e6, sliderMin: -.pi, sliderMax: .pi),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        if angle == 0 { return input }
        let c = cos(angle)
        let s = sin(angle)
        let l: [Double] = [0.213, 0.715, 0.072]
        let sinPart: [Double] = [-0.213, -0.715, 0.928, 0.143, 0.140, -0.283, -0.787, 0.715, 0.072]
        var m = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for col in 0..<3 {
                let identity: Double = row == col ? 1 : 0
                m[row * 3 + col] = l[col] + c * (identity - l[col]) + s * sinPart[row * 3 + col]
            }
        }
        let angle = self.angle
        return Image(
            PointwiseNode(
                name: "hueAdjust", inputs: [input.node], extent: input.extent, parameters: "angle \(angle)",
                linear: Matrix3(m), digest: { $0.add(angle) }))
    }
}
