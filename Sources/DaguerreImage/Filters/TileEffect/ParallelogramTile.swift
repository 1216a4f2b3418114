import DaguerreCore

/// Reflects a parallelogram in its sides and tiles the result (CIParallelogramTile; SPEC I4): the
/// cell with a corner at `center`, sides `width` along `angle` and along `angle` +
/// `acuteAngle`, mirrored across every lattice line. Core Image does not publish its formula; this
/// is the definition in `TileLattice`: (a, b) → (tri(a), tri(b)) with tri the unit triangle
/// wave (true mirror images when the acute angle is π/2). FourfoldReflectedTile uses the same
/// fold.
///
/// ```swift
/// let tiled = try photo.applying(ParallelogramTile(center: [150, 150], angle: 0.3, width: 80, acuteAngle: 1.2)).cropped(to: photo.extent)
/// ```
public struct ParallelogramTile: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var angle: Double = 0
    public var width: Double = 100
    public var acuteAngle: Double = .pi / 2

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, angle: Double = Self.defaults.angle,
        width: Double = Self.defaults.width, acuteAngle: Double = Self.defaults.acuteAngle
    ) {
        self.inputImage = inputImage
        self.center = center
        self.angle = angle
        self.width = width
        self.acuteAngle = acuteAngle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ParallelogramTile", displayName: "Parallelogram Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Reflects a parallelogram of the image in its sides and tiles the result.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width)
            + [
                .angle(
                    \.acuteAngle, "inputAcuteAngle", "The angle between the tile's sides in radians.", min: -1e4, max: 1e4, sliderMin: 0,
                    sliderMax: .pi)
            ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width, acuteAngle: acuteAngle)
        return lattice.image(
            input, name: "parallelogramTile", parameters: center + [angle, width, acuteAngle], region: TileLattice.unitCell
        ) { ab in
            TileLattice.mirror(ab)
        }
    }
}
