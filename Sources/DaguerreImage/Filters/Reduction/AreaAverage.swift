import DaguerreCore

/// The mean colour of a region (CIAreaAverage): a 1×1 image at the region's origin. Computed
/// band by band in double precision, so any region size costs one band of memory.
///
/// ```swift
/// let mean = try image.applying(AreaAverage(extent: image.extent))
/// let px = try Context().createBuffer(mean, format: .rgbaf, colorSpace: nil)
/// ```
public struct AreaAverage: Filter {
    public var inputImage: Image?
    public var extent: Rect
    public init(inputImage: Image? = nil, extent: Rect = Rect(x: 0, y: 0, width: 640, height: 80)) { self.inputImage = inputImage; self.extent = extent }
    public var values: [String: FilterValue] { filterValues(["inputExtent": .rect(extent)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "AreaAverage", displayName: "Area Average",
        categories: [FilterCategory.reduction, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Averages the pixels of a region into one pixel.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputExtent", kind: .rectangle, description: "The region [x y width height].", default: .rect(Rect(x: 0, y: 0, width: 640, height: 80)))]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), r = a.rect("inputExtent")
        guard !r.intersection(input.extent).isEmpty else {
            throw .invalidParameter(filter: "AreaAverage", key: "inputExtent", problem: "\(r) does not overlap the image's extent \(input.extent)")
        }
        return Image(AreaReductionNode(input: input.node, region: r))
    }
}
