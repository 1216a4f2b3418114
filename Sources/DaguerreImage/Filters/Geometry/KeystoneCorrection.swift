import DaguerreCore
import Foundation

/// What the three keystone corrections share (CIKeystoneCorrectionVertical, …Horizontal and
/// …Combined; SPEC I4): four guide corners marking, in the picture, a shape that is a rectangle
/// in the world (a façade, a door, a sheet of paper), and the camera turn that makes it look
/// like one. The correction is a ``PerspectiveRotate`` (Core Image's `outputRotationFilter`)
/// with the same 35 mm-equivalent focal length, so its pinhole model is that filter's.
///
/// The maths: each pair of opposite guide edges meets at a vanishing point v (homogeneous, so
/// parallel edges meet at infinity); d = K⁻¹·v is the direction in the camera of the world
/// lines they picture. A rotation R makes those lines parallel in the image when R·d has no
/// depth component.
/// - Vertical: a pitch alone, tan(pitch) = −d_z / d_y for the left and right edges' direction.
///   The verticals become parallel; they lean if their vanishing point was off the centre's
///   vertical, as the camera's roll left them.
/// - Horizontal: a yaw alone, tan(yaw) = d_z / d_x for the top and bottom edges' direction.
/// - Combined: the whole rotation whose y axis is the verticals' direction and whose x axis is
///   the horizontals' made orthogonal to it; the verticals come out exactly vertical and the
///   horizontals parallel (exactly horizontal when the guides really are a rectangle),
///   decomposed into roll, pitch and yaw as R = R_z·R_x·R_y.
///
/// Core Image publishes no formula and no defaults for the guides; without any guide the image
/// is returned unchanged (its own corners are a rectangle already), and guides given in part
/// are an error.
///
/// ```swift
/// let f = KeystoneCorrectionVertical(
///     inputImage: photo, topLeft: [412, 80], topRight: [1630, 95], bottomRight: [1850, 1400], bottomLeft: [190, 1390])
/// print(try f.rotationFilter().pitch)  // the camera turn that makes the verticals parallel
/// ```
public enum KeystoneCorrection {
    /// Which edges to straighten.
    public enum Axes: Sendable { case vertical, horizontal, both }
}

/// What each keystone correction holds: the image, the focal length and the guide's corners.
public protocol KeystoneCorrectionFilter: Filter {
    /// Which edges it straightens.
    static var axes: KeystoneCorrection.Axes { get }
    var inputImage: Image? { get set }
    var focalLength: Double { get set }
    var topLeft: [Double]? { get set }
    var topRight: [Double]? { get set }
    var bottomRight: [Double]? { get set }
    var bottomLeft: [Double]? { get set }
}

extension KeystoneCorrectionFilter {
    static var keystoneParameters: [FilterDeclaration<Self>.Parameter] {
        [
            .image(\.inputImage),
            .scalar(
                \.focalLength, "inputFocalLength", "The 35 mm-equivalent focal length the picture was taken with.", min: 1, max: 10_000,
                sliderMin: 10, sliderMax: 200),
            .optionalPosition(\.topLeft, "inputTopLeft", "The guide's top-left corner.", min: -1e7, max: 1e7),
            .optionalPosition(\.topRight, "inputTopRight", "The guide's top-right corner.", min: -1e7, max: 1e7),
            .optionalPosition(\.bottomRight, "inputBottomRight", "The guide's bottom-right corner.", min: -1e7, max: 1e7),
            .optionalPosition(\.bottomLeft, "inputBottomLeft", "The guide's bottom-left corner.", min: -1e7, max: 1e7),
        ]
    }

    /// The camera turn that corrects the guides, for an image of `extent`; no turn without guides.
    func rotation(for extent: Rect) throws(DaguerreError) -> PerspectiveRotate {
        var turn = PerspectiveRotate(focalLength: focalLength)
        let given: [(PartialKeyPath<Self>, [Double]?)] = [
            (\.topLeft, topLeft), (\.topRight, topRight), (\.bottomRight, bottomRight), (\.bottomLeft, bottomLeft),
        ]
        let present = given.compactMap(\.1)
        if present.isEmpty { return turn }
        if let missing = given.first(where: { $0.1 == nil }) {
            throw Self.invalid(missing.0, "the guide needs all four corners and this one is missing; give it, or none for no correction")
        }
        guard !extent.isInfinite, !extent.isEmpty else {
            throw Self.invalid(
                \.inputImage, "the image is infinite or empty (\(extent)); the camera's centre is the image's, so crop it first")
        }
        let f = focalLength / 36 * max(extent.width, extent.height)
        let (cx, cy) = (extent.midX, extent.midY)
        let p = present.map { SIMD3($0[0], $0[1], 1) }
        let (tl, tr, br, bl) = (p[0], p[1], p[2], p[3])
        /// The camera-space direction of the world lines two image lines picture, unit length.
        func direction(_ a: (SIMD3<Double>, SIMD3<Double>), _ b: (SIMD3<Double>, SIMD3<Double>), _ edges: String) throws(DaguerreError)
            -> SIMD3<Double>
        {
            let v = cross(cross(a.0, a.1), cross(b.0, b.1))
            let d = SIMD3((v.x - cx * v.z) / f, (v.y - cy * v.z) / f, v.z)
            let n = (d * d).sum().squareRoot()
            guard n.isFinite, n > 1e-12 * max(1, (v * v).sum().squareRoot()) else {
                throw Self.invalid(\.topLeft, "the \(edges) guide edges lie on one line or a corner is repeated, so they give no direction")
            }
            return d / n
        }
        switch Self.axes {
        case .vertical:
            let d = try direction((tl, bl), (tr, br), "left and right")
            guard abs(d.y) > 1e-9 else {
                throw Self.invalid(
                    \.topLeft, "the left and right guide edges meet on the horizontal through the centre; no pitch makes them parallel")
            }
            turn.pitch = atan(-d.z / d.y)
        case .horizontal:
            let d = try direction((tl, tr), (bl, br), "top and bottom")
            guard abs(d.x) > 1e-9 else {
                throw Self.invalid(
                    \.topLeft, "the top and bottom guide edges meet on the vertical through the centre; no yaw makes them parallel")
            }
            turn.yaw = atan(d.z / d.x)
        case .both:
            var up = try direction((tl, bl), (tr, br), "left and right")
            var across = try direction((tl, tr), (bl, br), "top and bottom")
            if up.y < 0 { up = -up }
            if across.x < 0 { across = -across }
            var r1 = across - (across * up).sum() * up
            let n = (r1 * r1).sum().squareRoot()
            guard n > 1e-6 else {
                throw Self.invalid(\.topLeft, "the guide's vertical and horizontal edges picture the same direction; it is not a rectangle")
            }
            r1 /= n
            let r2 = up
            let r3 = cross(r1, r2)
            // R's rows are r1, r2, r3; R = R_z(roll)·R_x(pitch)·R_y(yaw).
            turn.pitch = asin(max(-1, min(1, r3.y)))
            turn.yaw = atan2(-r3.x, r3.z)
            turn.roll = atan2(-r1.y, r2.y)
        }
        return turn
    }

    /// The camera turn that corrects the guides (no turn without them), ready to apply (Core
    /// Image's `outputRotationFilter`).
    public func rotationFilter() throws(DaguerreError) -> PerspectiveRotate {
        var turn = try rotation(for: try required(\.inputImage).extent)
        turn.inputImage = inputImage
        return turn
    }

    /// The input turned by ``rotation(for:)``.
    func corrected() throws(DaguerreError) -> Image { try rotationFilter().outputImage() }
}

private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
