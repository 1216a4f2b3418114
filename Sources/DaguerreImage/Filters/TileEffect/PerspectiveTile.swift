import DaguerreCore

/// Tiles the image and puts the tiling in perspective (CIPerspectiveTile; SPEC I4): the input,
/// repeated over the plane with the period of its extent, under the projective map that takes
/// the extent's top-left, top-right, bottom-right and bottom-left corners to `topLeft`…
/// `bottomLeft`; sampled bilinearly with the neighbours wrapping around, transparent beyond the
/// vanishing line. Infinite extent. Corners are in Daguerre's coordinates (y down).
///
/// ```swift
/// let floor = try tile.applying(PerspectiveTile(topLeft: [200, 100], topRight: [300, 100], bottomRight: [340, 200], bottomLeft: [160, 200]))
/// ```
public struct PerspectiveTile: PerspectiveCornersFilter {
    public var inputImage: Image?
    public var topLeft: [Double] = [118, 484]
    public var topRight: [Double] = [646, 507]
    public var bottomRight: [Double] = [548, 140]
    public var bottomLeft: [Double] = [155, 153]

    public init() {}
    public init(
        inputImage: Image? = nil, topLeft: [Double] = Self.defaults.topLeft, topRight: [Double] = Self.defaults.topRight,
        bottomRight: [Double] = Self.defaults.bottomRight, bottomLeft: [Double] = Self.defaults.bottomLeft
    ) {
        self.inputImage = inputImage
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PerspectiveTile", displayName: "Perspective Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Tiles the image and applies a perspective transform to the tiling.",
        parameters: [.image(\.inputImage)] + cornerParameters)

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let e = input.extent
        let h = try homography(from: e)
        guard let inv = h.inverse else { throw Self.invalid(\.topLeft, "the perspective map is not invertible") }
        let sign: Double = inv.homogeneous(h.apply(SIMD2(e.midX, e.midY))).z >= 0 ? 1 : -1
        return Warp.image(
            input, name: "perspectiveTile", extent: .infinite, parameters: cornerNumbers + h.m, edge: .wrap, roi: { _ in nil },
            map: inv.samplingMap(sign: sign))
    }
}
