import DaguerreCore

/// The typed filter API, beside the by-name one (I1): each built-in filter is a struct with a
/// property per parameter.
///
/// ```swift
/// let blurred = try image.applying(GaussianBlur(radius: 2))
/// var wheel = HueSaturationValueGradient(); wheel.colorSpace = .displayP3
/// let disc = try wheel.outputImage()
/// ```
public protocol Filter: Sendable {
    static var descriptor: FilterDescriptor { get }
    /// The parameter values this instance holds, keyed as in the by-name API.
    var values: [String: FilterValue] { get }
}

/// A filter's parameter values with its input image added when it has one.
func filterValues(_ values: [String: FilterValue], inputImage: Image?) -> [String: FilterValue] {
    guard let inputImage else { return values }
    var v = values
    v["inputImage"] = .image(inputImage)
    return v
}

extension Filter {
    /// The filter's result (validating every value against the descriptor).
    public func outputImage() throws(DaguerreError) -> Image { try Self.descriptor.apply(values) }
}

extension Image {
    /// Applies a filter by name (I1): `image.applyingFilter("GaussianBlur", parameters: ["inputRadius": 2])`.
    /// This image is the filter's `inputImage`. Unknown names and bad parameters are typed errors.
    public func applyingFilter(_ name: String, parameters: [String: FilterValue] = [:]) throws(DaguerreError) -> Image {
        let d = try FilterRegistry.descriptor(named: name)
        var values = parameters
        if d.parameters.contains(where: { $0.key == "inputImage" }) { values["inputImage"] = .image(self) }
        return try d.apply(values)
    }

    /// Applies a typed filter with this image as its `inputImage`.
    public func applying<F: Filter>(_ filter: F) throws(DaguerreError) -> Image {
        var values = filter.values
        values["inputImage"] = .image(self)
        return try F.descriptor.apply(values)
    }
}

/// Every built-in filter, by name (CIFilter.filterNames(inCategory:)).
public enum FilterRegistry {
    public static let all: [FilterDescriptor] = [
        ExposureAdjust.descriptor, TemperatureAndTint.descriptor, ColorMatrix.descriptor, ColorControls.descriptor,
        GammaAdjust.descriptor, ToneCurve.descriptor, HighlightShadowAdjust.descriptor, Vibrance.descriptor, ColorClamp.descriptor,
        GaussianBlur.descriptor, BoxBlur.descriptor, UnsharpMask.descriptor, SharpenLuminance.descriptor,
        LanczosScaleTransform.descriptor, AffineTransformFilter.descriptor, Crop.descriptor,
        SourceOverCompositing.descriptor, ConstantColor.descriptor, LinearGradient.descriptor, RadialGradient.descriptor,
        HueSaturationValueGradient.descriptor, NinePartStretched.descriptor, NinePartTiled.descriptor, EdgePreserveUpsample.descriptor,
        AreaAverage.descriptor,
    ]

    public static var names: [String] { all.map(\.name) }

    /// Looks a filter up by name; Core Image's `CI` prefix is accepted.
    public static func descriptor(named raw: String) throws(DaguerreError) -> FilterDescriptor {
        let name = raw.hasPrefix("CI") && raw.count > 2 ? String(raw.dropFirst(2)) : raw
        if let d = all.first(where: { $0.name == name }) { return d }
        if let d = all.first(where: { $0.name.lowercased() == name.lowercased() }) { return d }
        let scored = all.map { ($0.name, editDistance($0.name.lowercased(), name.lowercased())) }
        let close = scored.filter { $0.1 <= max(2, name.count / 3) || $0.0.lowercased().contains(name.lowercased()) && name.count >= 4 }
            .sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
        throw .unknownFilter(name: raw, suggestions: Array(close))
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + [Int](repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}

/// Core Image's category names.
enum FilterCategory {
    static let colorAdjustment = "CICategoryColorAdjustment"
    static let colorEffect = "CICategoryColorEffect"
    static let blur = "CICategoryBlur"
    static let sharpen = "CICategorySharpen"
    static let geometry = "CICategoryGeometryAdjustment"
    static let composite = "CICategoryCompositeOperation"
    static let generator = "CICategoryGenerator"
    static let gradient = "CICategoryGradient"
    static let reduction = "CICategoryReduction"
    static let stylize = "CICategoryStylize"
    static let stillImage = "CICategoryStillImage"
    static let video = "CICategoryVideo"
    static let builtIn = "CICategoryBuiltIn"
}

/// Shared parameter definitions.
enum CommonParameters {
    static let inputImage = FilterParameter(key: "inputImage", kind: .image, description: "The image to filter.")
}
