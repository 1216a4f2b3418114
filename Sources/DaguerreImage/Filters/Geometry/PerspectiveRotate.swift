import DaguerreCore
import Foundation

/// The picture as a camera turned about its own centre would have taken it (CIPerspectiveRotate;
/// SPEC I4): the homography H = K·R·K⁻¹, K the pinhole camera with its centre at the image's
/// centre and a focal length of `focalLength`/36 times the image's longer side in pixels
/// (`focalLength` is 35 mm-equivalent), and R = R_z(roll)·R_x(pitch)·R_y(yaw), right-handed
/// rotations about the axes x right, y down and z into the scene. The image is resampled
/// bilinearly through H (as ``PerspectiveTransform``); its extent is the image of the input's.
/// The input must be finite. Core Image publishes no formula; this is the definition used.
///
/// ```swift
/// let levelled = try photo.applying(PerspectiveRotate(pitch: 0.1))
/// ```
public struct PerspectiveRotate: Filter {
    public var inputImage: Image?
    public var focalLength: Double = 28
    public var pitch: Double = 0
    public var yaw: Double = 0
    public var roll: Double = 0

    public init() {}
    public init(
        inputImage: Image? = nil, focalLength: Double = Self.defaults.focalLength, pitch: Double = Self.defaults.pitch,
        yaw: Double = Self.defaults.yaw, roll: Double = Self.defaults.roll
    ) {
        self.inputImage = inputImage
        self.focalLength = focalLength
        self.pitch = pitch
        self.yaw = yaw
        self.roll = roll
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PerspectiveRotate", displayName: "Perspective Rotate", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Turns the camera about its centre: pitch, yaw and roll, through the perspective they make.",
        parameters: [
            .image(\.inputImage),
            .scalar(
                \.focalLength, "inputFocalLength", "The 35 mm-equivalent focal length.", min: 1, max: 10_000, sliderMin: 10, sliderMax: 200),
            .angle(\.pitch, "inputPitch", "Turn about the horizontal axis, in radians.", min: -Double.pi, max: Double.pi),
            .angle(\.yaw, "inputYaw", "Turn about the vertical axis, in radians.", min: -Double.pi, max: Double.pi),
            .angle(\.roll, "inputRoll", "Turn about the optical axis, in radians.", min: -Double.pi, max: Double.pi),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        if pitch == 0 && yaw == 0 && roll == 0 { return input }
        let e = input.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw Self.invalid(\.inputImage, "the image is infinite or empty (\(e)); the camera's centre is the image's, so crop it first")
        }
        let h = Homography(transform(of: e).m)
        return try h.warp(input, source: e, extent: e, name: "perspectiveRotate", parameters: [focalLength, pitch, yaw, roll])
    }

    /// The homography this rotation applies to an image of `extent`, from input to output
    /// points in homogeneous coordinates (Core Image's `outputTransform`).
    public func transform(of extent: Rect) -> Matrix3 {
        let f = focalLength / 36 * max(extent.width, extent.height)
        let (cx, cy) = (extent.midX, extent.midY)
        let k = Matrix3([f, 0, cx, 0, f, cy, 0, 0, 1])
        let kInverse = Matrix3([1 / f, 0, -cx / f, 0, 1 / f, -cy / f, 0, 0, 1])
        let (cp, sp, cw, sw, cr, sr) = (cos(pitch), sin(pitch), cos(yaw), sin(yaw), cos(roll), sin(roll))
        let rx = Matrix3([1, 0, 0, 0, cp, -sp, 0, sp, cp])
        let ry = Matrix3([cw, 0, sw, 0, 1, 0, -sw, 0, cw])
        let rz = Matrix3([cr, -sr, 0, sr, cr, 0, 0, 0, 1])
        return k * rz * rx * ry * kInverse
    }
}
