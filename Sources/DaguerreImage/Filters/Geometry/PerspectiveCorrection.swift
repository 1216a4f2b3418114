import DaguerreCore

/// Makes a quadrilateral rectangular (CIPerspectiveCorrection; SPEC I4): the projective map
/// taking `topLeft`, `topRight`, `bottomRight`, `bottomLeft` to the corners of a rectangle, applied
/// to the whole input and sampled bilinearly. Core Image does not publish the rectangle; here it
/// starts at the quadrilateral's bounding-box origin and is as wide as the longer of the top and
/// bottom edges and as tall as the longer of the left and right edges. With `crop` the output is
/// that rectangle; without, the image of the whole input (infinite when that crosses the
/// vanishing line). Corners are in Daguerre's coordinates (y down).
///
/// ```swift
/// let page = try photo.applying(PerspectiveCorrection(topLeft: [40, 10], topRight: [600, 30], bottomRight: [630, 470], bottomLeft: [10, 460], crop: true))
/// ```
public struct PerspectiveCorrection: PerspectiveCornersFilter {
    public var inputImage: Image?
    public var topLeft: [Double] = [118, 484]
    public var topRight: [Double] = [646, 507]
    public var bottomRight: [Double] = [548, 140]
    public var bottomLeft: [Double] = [155, 153]
    public var crop = false

    public init() {}
    public init(
        inputImage: Image? = nil, topLeft: [Double] = Self.defaults.topLeft, topRight: [Double] = Self.defaults.topRight,
        bottomRight: [Double] = Self.defaults.bottomRight, bottomLeft: [Double] = Self.defaults.bottomLeft, crop: Bool = Self.defaults.crop
    ) {
        self.inputImage = inputImage
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
        self.crop = crop
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PerspectiveCorrection", displayName: "Perspective Correction", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Maps a quadrilateral of the image onto a rectangle.",
        parameters: [.image(\.inputImage)] + cornerParameters + [
            .boolean(\.crop, "inputCrop", "Output only the rectangle.")
        ])

    /// The rectangle the quadrilateral becomes.
    public var targetRectangle: Rect {
        let c = corners
        func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let w = max(length(c[0], c[1]), length(c[3], c[2]))
        let h = max(length(c[0], c[3]), length(c[1], c[2]))
        let box = Warp.bounds(c)
        return Rect(x: box.minX, y: box.minY, width: w, height: h)
    }

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let target = targetRectangle
        let r = [
            SIMD2(target.minX, target.minY), SIMD2(target.maxX, target.minY), SIMD2(target.maxX, target.maxY),
            SIMD2(target.minX, target.maxY),
        ]
        guard target.width > 0, target.height > 0, let h = Homography(from: corners, to: r) else {
            throw Self.invalid(\.topLeft, "the four corners \(corners) do not make a quadrilateral (three are on one line)")
        }
        let src = Warp.bounds(corners)
        let out = try h.warp(
            input, source: src, extent: input.extent, name: "perspectiveCorrection", parameters: cornerNumbers)
        return crop ? out.cropped(to: target) : out
    }
}
