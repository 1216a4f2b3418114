import DaguerreCore

/// What the region reductions share (AreaAverage, AreaMaximum, RowAverage, AreaHistogram…):
/// the input, the region `inputExtent` (Core Image's default 640×80 at the origin), and the
/// check that the region overlaps the image. The result is streamed (see AreaReductionNode).
protocol AreaReductionFilter: Filter {
    var inputImage: Image? { get set }
    var extent: Rect { get set }
}

/// What the histograms add: the scale of every bin and the number of bins.
protocol AreaHistogramFilter: AreaReductionFilter {
    var scale: Double { get set }
    var count: Double { get set }
}

extension AreaHistogramFilter {
    static var histogramParameters: [FilterDeclaration<Self>.Parameter] {
        [
            .scalar(\.scale, "inputScale", "Multiplies every bin; at 1 each component's bins add up to 1.", min: 0, sliderMax: 100),
            .scalar(\.count, "inputCount", "The number of bins (rounded).", min: 1, max: 2048),
        ]
    }
}

extension AreaReductionFilter {
    static var defaultExtent: Rect { Rect(x: 0, y: 0, width: 640, height: 80) }

    static var regionParameters: [FilterDeclaration<Self>.Parameter] {
        [.image(\.inputImage), .rectangle(\.extent, "inputExtent", "The region [x y width height].")]
    }

    /// The input's region reduced by `operation`.
    func reduced(_ operation: AreaReductionNode.Operation) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        guard !extent.intersection(input.extent).isEmpty else {
            throw Self.invalid(\.extent, "\(extent) does not overlap the image's extent \(input.extent)")
        }
        return Image(AreaReductionNode(input: input.node, region: extent, operation: operation))
    }
}
