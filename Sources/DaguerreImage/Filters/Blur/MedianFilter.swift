import DaguerreCore

/// The median of each pixel's 3×3 neighbourhood, per component (CIMedianFilter, I4): removes
/// speckle while keeping edges. Edge pixels repeat outward, as cv2.medianBlur's border does.
///
/// ```swift
/// let despeckled = try image.applying(MedianFilter())
/// ```
public struct MedianFilter: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "MedianFilter", displayName: "Median", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Replaces each pixel by the median of its 3×3 neighbourhood, per component.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return NeighbourhoodKernel.clamped(input, name: "median3x3", parameters: "", rx: 1, ry: 1, digest: { _ in }) { s, x, y in
            var p = [SIMD4<Float>](repeating: .zero, count: 9)
            for j in 0..<3 { for i in 0..<3 { p[j * 3 + i] = s.read(x: x + i - 1, y: y + j - 1) } }
            return Self.median9(&p)
        }
    }

    /// The median of nine values, per component: Paeth's 19-exchange selection network
    /// (each exchange a component-wise min and max).
    @inline(__always) static func median9(_ p: inout [SIMD4<Float>]) -> SIMD4<Float> {
        @inline(__always) func order(_ a: Int, _ b: Int) {
            let lo = pointwiseMin(p[a], p[b])
            p[b] = pointwiseMax(p[a], p[b])
            p[a] = lo
        }
        order(1, 2)
        order(4, 5)
        order(7, 8)
        order(0, 1)
        order(3, 4)
        order(6, 7)
        order(1, 2)
        order(4, 5)
        order(7, 8)
        order(0, 3)
        order(5, 8)
        order(4, 7)
        order(3, 6)
        order(1, 4)
        order(2, 5)
        order(4, 7)
        order(4, 2)
        order(6, 4)
        order(4, 2)
        return p[4]
    }
}
