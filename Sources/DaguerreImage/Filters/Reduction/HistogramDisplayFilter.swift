import DaguerreCore

/// Draws a histogram (CIHistogramDisplayFilter, I4): the input is AreaHistogram's output (one
/// row of bins); the result is as wide as the bins and `height` pixels tall, each column a bar
/// per component (red, green, blue; opaque black behind) rising from the bottom. Core Image
/// publishes no formula; the definition here: with v a bin's value and m the largest red, green
/// or blue value of all bins, a component's bar is clamp((v/m − low)/(high − low), 0, 1) of the
/// height (a full bar or none, split at low, when high ≤ low), and the pixel in row j from the bottom is lit (1) when (j + ½)/height is below it.
/// The largest value is found with AreaMaximum over the input row.
///
/// ```swift
/// let bins = try image.applying(AreaHistogram(extent: image.extent, count: 256))
/// let chart = try bins.applying(HistogramDisplayFilter(height: 120))
/// ```
public struct HistogramDisplayFilter: Filter {
    public var inputImage: Image?
    public var height: Double = 100
    public var highLimit: Double = 1
    public var lowLimit: Double = 0

    public init() {}
    public init(
        inputImage: Image? = nil, height: Double = Self.defaults.height, highLimit: Double = Self.defaults.highLimit,
        lowLimit: Double = Self.defaults.lowLimit
    ) {
        self.inputImage = inputImage
        self.height = height
        self.highLimit = highLimit
        self.lowLimit = lowLimit
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "HistogramDisplayFilter", displayName: "Histogram Display", categories: [.reduction, .video, .stillImage, .builtIn],
        description: "Draws AreaHistogram's bins as bars.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "A histogram: AreaHistogram's one row of bins."),
            .scalar(\.height, "inputHeight", "The chart's height in pixels (rounded).", min: 1, max: 200),
            .scalar(\.highLimit, "inputHighLimit", "The fraction of the largest bin that fills the height.", min: 0, max: 1),
            .scalar(\.lowLimit, "inputLowLimit", "The fraction of the largest bin at the bottom.", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let e = input.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw .invalidArgument(what: "HistogramDisplayFilter", problem: "the input needs a finite extent (AreaHistogram's output)")
        }
        let row = e.integral.y
        let rows = Int(height.rounded())
        let top = Double(row)
        let lo = Float(lowLimit)
        let span = Float(highLimit - lowLimit)
        let largest = AreaReductionNode(input: input.node, region: Rect(x: e.minX, y: top, width: e.width, height: 1), operation: .maximum)
        let mx = largest.pixelExtent.x
        let node = SamplingNode(
            name: "histogramDisplay", inputs: [input.node, largest],
            extent: Rect(x: e.minX, y: top, width: e.width, height: Double(rows)),
            parameters: "height \(rows) low \(lowLimit) high \(highLimit)", outputFormat: nil,
            digest: { d in d.add([Double(rows), lowLimit, highLimit]) },
            roi: { i, rect in
                i == 0 ? Rect(x: rect.minX, y: top, width: rect.width, height: 1) : Rect(x: Double(mx), y: top, width: 1, height: 1)
            }
        ) { s, p in
            let x = Int(p.x.rounded(.down))
            let j = rows - 1 - (Int(p.y.rounded(.down)) - row)
            let m4 = s[1].read(x: mx, y: row)
            let m = max(m4.x, m4.y, m4.z)
            let v = s[0].read(x: x, y: row)
            let level = (Float(j) + 0.5) / Float(rows)
            var out = SIMD4<Float>(0, 0, 0, 1)
            guard m > 0 else { return out }
            for c in 0..<3 {
                let bar = span > 0 ? min(max((v[c] / m - lo) / span, 0), 1) : (v[c] / m > lo ? 1 : 0)
                if level < bar { out[c] = 1 }
            }
            return out
        }
        return Image(node)
    }
}
