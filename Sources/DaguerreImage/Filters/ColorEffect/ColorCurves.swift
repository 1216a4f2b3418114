import DaguerreCore

/// Maps each channel through its own curve, a table of RGB entries (CIColorCurves; SPEC I4): in
/// `colorSpace`'s encoding (sRGB unless given), each unpremultiplied red, green and blue value v
/// is placed on the table at u = (v − d₀)/(d₁ − d₀)·(n − 1), clamped to [0, n − 1], for the
/// `curvesDomain` [d₀, d₁] and the table's n entries, and becomes the linear interpolation of
/// that channel's entries there; the result is taken as encoded in `colorSpace` and converted
/// back, alpha kept. Core Image passes the table as bytes of floats; here it is the floats
/// themselves, 3·n of them, red, green, blue per entry (the default, (0, 0, 0) then (1, 1, 1),
/// changes nothing).
///
/// ```swift
/// let faded = try photo.applying(ColorCurves(curvesData: [0.1, 0.1, 0.1, 0.5, 0.5, 0.55, 0.9, 0.9, 0.85]))
/// ```
public struct ColorCurves: Filter {
    public var inputImage: Image?
    public var curvesData: [Double] = [0, 0, 0, 1, 1, 1]
    public var curvesDomain: [Double] = [0, 1]
    public var colorSpace: ColorSpace = .sRGB

    public init() {}
    public init(
        inputImage: Image? = nil, curvesData: [Double] = Self.defaults.curvesData, curvesDomain: [Double] = Self.defaults.curvesDomain,
        colorSpace: ColorSpace = Self.defaults.colorSpace
    ) {
        self.inputImage = inputImage
        self.curvesData = curvesData
        self.curvesDomain = curvesDomain
        self.colorSpace = colorSpace
    }

    /// The most entries a table may have.
    static let maximumEntries = 65536

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorCurves", displayName: "Color Curves", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Maps each channel through its curve, a table of RGB entries.",
        parameters: [
            .image(\.inputImage),
            .vector(
                \.curvesData, "inputCurvesData", "The table: red, green, blue of each entry, from the domain's start to its end.",
                count: nil),
            .vector(\.curvesDomain, "inputCurvesDomain", "The values the table's first and last entries stand for.", count: 2),
            .colorSpace(\.colorSpace, "inputColorSpace", "The colour space whose encoded values the curves map."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let n = curvesData.count / 3
        guard curvesData.count % 3 == 0, n >= 2, n <= Self.maximumEntries else {
            throw Self.invalid(
                \.curvesData, "\(curvesData.count) numbers are not 2 to \(Self.maximumEntries) RGB entries; give 3 numbers per entry")
        }
        let (d0, d1) = (curvesDomain[0], curvesDomain[1])
        guard d1 != d0 else { throw Self.invalid(\.curvesDomain, "the domain [\(d0), \(d1)] is empty; give two different values") }
        let table = FloatTable(curvesData.map(Float.init))
        let (lo, span) = (Float(d0), Float(d1 - d0))
        let encoded = input.matchedFromWorkingSpace(to: colorSpace)
        let mapped = Image(
            PointwiseNode(
                name: "colorCurves", inputs: [encoded.node], extent: input.extent, parameters: "\(n) entries, domain [\(d0), \(d1)]",
                digest: { d in
                    d.add(curvesData)
                    d.add([d0, d1])
                }
            ) { span0 in
                let top = Float(n - 1)
                @inline(__always) func curve(_ v: Float, _ c: Int) -> Float {
                    let u = min(max((v - lo) / span * top, 0), top)
                    let k = min(Int(u), n - 2)
                    let f = u - Float(k)
                    let a = table.values[3 * k + c]
                    return a + (table.values[3 * (k + 1) + c] - a) * f
                }
                SpanMath.forEachUnpremultiplied(span0) { v in SIMD4(curve(v.x, 0), curve(v.y, 1), curve(v.z, 2), v.w) }
            })
        return mapped.matchedToWorkingSpace(from: colorSpace)
    }
}
