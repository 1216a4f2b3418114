import DaguerreCore

/// Scaling that keeps the largest value under each output pixel (CIMaximumScaleTransform;
/// SPEC I4): with sx = `scale × aspectRatio` and sy = `scale`, output pixel (X, Y) covers the
/// input rectangle [X/sx, (X + 1)/sx) × [Y/sy, (Y + 1)/sy), and each of its components is the
/// largest that component takes over the image's pixels that rectangle overlaps, so thin bright
/// lines and dots survive shrinking; enlarging repeats pixels (nearest neighbour). Core Image
/// publishes no formula; this is the definition used. Extent: the image's, scaled.
///
/// ```swift
/// let thumbnail = try starField.applying(MaximumScaleTransform(scale: 0.25))
/// ```
public struct MaximumScaleTransform: Filter {
    public var inputImage: Image?
    public var scale: Double = 1
    public var aspectRatio: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, scale: Double = Self.defaults.scale, aspectRatio: Double = Self.defaults.aspectRatio) {
        self.inputImage = inputImage
        self.scale = scale
        self.aspectRatio = aspectRatio
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MaximumScaleTransform", displayName: "Maximum Scale Transform", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Scales keeping the largest value under each output pixel.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.scale, "inputScale", "Scale factor.", min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 1.5),
            .scalar(\.aspectRatio, "inputAspectRatio", "Extra horizontal scale.", min: 0.0001, max: 1000, sliderMin: 0.05, sliderMax: 2),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let (sx, sy) = (scale * aspectRatio, scale)
        if sx == 1 && sy == 1 { return input }
        let e = input.extent
        let pixels = e.integral
        let extent = Rect(minX: e.minX * sx, minY: e.minY * sy, maxX: e.maxX * sx, maxY: e.maxY * sy)
        /// The input pixels the output span [a, b) covers along an axis of scale s, within lo..<hi.
        @Sendable func covered(_ a: Double, _ b: Double, _ s: Double, _ lo: Int, _ hi: Int) -> Range<Int> {
            let first = max(Int((a / s).rounded(.down)), lo)
            let last = min(Int((b / s).rounded(.up)), hi)
            return first..<max(first, last)
        }
        let node = SamplingNode(
            name: "maximumScale", inputs: [input.node], extent: extent, parameters: "scale (\(sx), \(sy))", outputFormat: nil,
            digest: { d in d.add([sx, sy]) },
            roi: { _, rect in Rect(minX: rect.minX / sx - 1, minY: rect.minY / sy - 1, maxX: rect.maxX / sx + 1, maxY: rect.maxY / sy + 1) }
        ) { samplers, dest in
            let x = Double(dest.x - 0.5)
            let y = Double(dest.y - 0.5)
            let columns = covered(x, x + 1, sx, pixels.x, pixels.maxX)
            let rows = covered(y, y + 1, sy, pixels.y, pixels.maxY)
            guard let i0 = columns.first, let j0 = rows.first else { return .zero }
            var m = samplers[0].read(x: i0, y: j0)
            for j in rows {
                for i in columns { m = pointwiseMax(m, samplers[0].read(x: i, y: j)) }
            }
            return m
        }
        return Image(node)
    }
}
