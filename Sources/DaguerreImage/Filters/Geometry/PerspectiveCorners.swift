import DaguerreCore

/// What the four-corner filters share (PerspectiveTransform, PerspectiveTransformWithExtent,
/// PerspectiveCorrection, PerspectiveTile): the corners, declared once, in Daguerre's
/// coordinates (y down), so "top" is the smaller y. Core Image's defaults are kept as numbers;
/// since its y points up, they describe a quadrilateral upside down here.
///
/// ```swift
/// let f = PerspectiveTransform(topLeft: [10, 0], topRight: [150, 20], bottomRight: [140, 120], bottomLeft: [0, 100])
/// print(f.corners)  // [SIMD2(10, 0), …]
/// ```
protocol PerspectiveCornersFilter: Filter {
    var inputImage: Image? { get set }
    var topLeft: [Double] { get set }
    var topRight: [Double] { get set }
    var bottomRight: [Double] { get set }
    var bottomLeft: [Double] { get set }
}

extension PerspectiveCornersFilter {
    static var cornerParameters: [FilterDeclaration<Self>.Parameter] {
        [
            .position(\.topLeft, "inputTopLeft", "Where the top-left corner goes.", min: -1e7, max: 1e7),
            .position(\.topRight, "inputTopRight", "Where the top-right corner goes.", min: -1e7, max: 1e7),
            .position(\.bottomRight, "inputBottomRight", "Where the bottom-right corner goes.", min: -1e7, max: 1e7),
            .position(\.bottomLeft, "inputBottomLeft", "Where the bottom-left corner goes.", min: -1e7, max: 1e7),
        ]
    }

    /// Top-left, top-right, bottom-right, bottom-left.
    var corners: [SIMD2<Double>] { [topLeft, topRight, bottomRight, bottomLeft].map { SIMD2($0[0], $0[1]) } }

    var cornerNumbers: [Double] { topLeft + topRight + bottomRight + bottomLeft }

    /// The map from `rect` to the corners, checked.
    func homography(from rect: Rect) throws(DaguerreError) -> Homography {
        guard !rect.isInfinite, !rect.isEmpty else {
            throw .invalidArgument(
                what: "\(Self.declaration.name) source rectangle", problem: "it must be finite and non-empty, got \(rect)")
        }
        guard let h = Homography(from: rect, to: corners) else {
            throw Self.invalid(\.topLeft, "the four corners \(corners) do not make a quadrilateral (three are on one line)")
        }
        return h
    }

    /// `input` under `h` (source → output), bilinear, transparent beyond the vanishing line;
    /// the output extent is the image of `extent` (the source rectangle or the whole input),
    /// infinite when that crosses the vanishing line.
    static func warp(_ input: Image, by h: Homography, source: Rect, extent: Rect, name: String, parameters: [Double])
        throws(DaguerreError) -> Image
    {
        guard let inv = h.inverse else { throw .invalidArgument(what: name, problem: "the perspective map is not invertible") }
        // The sign of w at the source's points, seen from the output side.
        let centre = h.apply(SIMD2(source.midX, source.midY))
        let sign: Double = inv.homogeneous(centre).z >= 0 ? 1 : -1
        let forwardSign: Double = h.homogeneous(SIMD2(source.midX, source.midY)).z >= 0 ? 1 : -1
        let out = h.bounds(of: extent, sign: forwardSign) ?? .infinite
        return Warp.image(
            input, name: name, extent: out, parameters: parameters + h.m,
            roi: { r in inv.bounds(of: r, sign: sign) }, map: inv.samplingMap(sign: sign))
    }
}
