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
}
