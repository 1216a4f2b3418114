import DaguerreCore
import Foundation

/// Straightens (CIStraightenFilter; SPEC I4): rotates by `angle` radians about the extent's
/// centre and scales up just enough that the rotated image covers the whole extent (Core Image:
/// "scaled and cropped so that the rotated image fits the extent of the input image"), sampled
/// bilinearly; the output extent is the input's. The scale for a w×h extent is
/// |cos θ| + |sin θ|·max(w/h, h/w). Positive angles turn clockwise on screen (y points down).
///
/// ```swift
/// let level = try photo.applying(StraightenFilter(angle: -0.03))
/// ```
public struct StraightenFilter: Filter {
    public var inputImage: Image?
    public var angle: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, angle: Double = Self.defaults.angle) {
        self.inputImage = inputImage
        self.angle = angle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "StraightenFilter", displayName: "Straighten", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Rotates the image and scales it to fill its extent.",
        parameters: [
            .image(\.inputImage),
            .angle(\.angle, "inputAngle", "The rotation in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
        ])

    /// The transform for an extent: rotation and fill scale about its centre.
    public static func transform(angle: Double, extent e: Rect) -> AffineTransform2D {
        let aspect = max(e.width / e.height, e.height / e.width)
        let s = abs(cos(angle)) + abs(sin(angle)) * (aspect.isFinite ? aspect : 1)
        return AffineTransform2D(translationX: -e.midX, y: -e.midY)
            .concatenating(AffineTransform2D(rotationAngle: angle))
            .scaledBy(x: s, y: s)
            .translatedBy(x: e.midX, y: e.midY)
    }

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let e = input.extent
        guard angle != 0, !e.isInfinite, !e.isEmpty else { return input }
        return input.transformed(by: Self.transform(angle: angle, extent: e)).cropped(to: e)
    }
}
