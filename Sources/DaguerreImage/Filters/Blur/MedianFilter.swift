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
        return NeighbourhoodKernel.rows(input, name: "median3x3", parameters: "", rx: 1, ry: 1, digest: { _ in }) { rows, out, count in
            Self.medianRow(rows[0], rows[1], rows[2], into: out, count: count)
        }
    }

    /// One row of 3×3 medians, per component. Each column of three is sorted once and shared
    /// by the three windows that contain it; a window's median is then the median of (the
    /// largest of its three column minima, the median of its three column medians, the
    /// smallest of its three column maxima), Paeth's selection network split by columns.
    static func medianRow(
        _ top: UnsafePointer<SIMD4<Float>>, _ mid: UnsafePointer<SIMD4<Float>>, _ bottom: UnsafePointer<SIMD4<Float>>,
        into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int
    ) {
        @inline(__always) func sorted(_ c: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
            let a = top[c]
            let b = mid[c]
            let lo1 = pointwiseMin(a, b)
            let hi1 = pointwiseMax(a, b)
            let lo = pointwiseMin(lo1, bottom[c])
            let x = pointwiseMax(lo1, bottom[c])
            return (lo, pointwiseMin(hi1, x), pointwiseMax(hi1, x))
        }
        var (l0, m0, h0) = sorted(-1)
        var (l1, m1, h1) = sorted(0)
        for i in 0..<count {
            let (l2, m2, h2) = sorted(i + 1)
            let low = pointwiseMax(pointwiseMax(l0, l1), l2)
            let high = pointwiseMin(pointwiseMin(h0, h1), h2)
            out[i] = median3(low, median3(m0, m1, m2), high)
            (l0, m0, h0) = (l1, m1, h1)
            (l1, m1, h1) = (l2, m2, h2)
        }
    }

    @inline(__always) static func median3(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>) -> SIMD4<Float> {
        pointwiseMax(pointwiseMin(a, b), pointwiseMin(pointwiseMax(a, b), c))
    }
}
