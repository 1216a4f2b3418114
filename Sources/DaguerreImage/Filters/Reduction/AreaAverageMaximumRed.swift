import DaguerreCore

/// The mean and the largest red over a region (CIAreaAverageMaximumRed; SPEC I4): a 1×1 image
/// at the region's origin whose red is the region's mean red (as ``AreaAverage``) and green its
/// largest red (as ``AreaMinMaxRed``), blue 0, alpha 1, on the working space's premultiplied
/// values. New in SDK 26; its region's key is `extent`, as Core Image's (no `input` prefix).
///
/// ```swift
/// let stats = try mask.applying(AreaAverageMaximumRed(extent: mask.extent))
/// ```
public struct AreaAverageMaximumRed: Filter, AreaReductionFilter {
    public var inputImage: Image?
    public var extent = Self.defaultExtent

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        (self.inputImage, self.extent) = (inputImage, extent)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AreaAverageMaximumRed", displayName: "Area Average Maximum Red", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "The mean red (in red) and the largest red (in green) of a region, as one pixel.",
        parameters: [.image(\.inputImage), .rectangle(\.extent, "extent", "The region [x y width height].")])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let average = try reduced(.average)
        let extremes = try reduced(.minMaxRed)
        return Image(
            PointwiseNode(
                name: "averageMaximumRed", inputs: [average.node, extremes.node], extent: average.extent, digest: { _ in },
                span: { s in
                    let m = s.input(1)
                    for i in 0..<s.count { s.pixels[i] = SIMD4(s.pixels[i].x, m[i].y, 0, 1) }
                }))
    }
}
