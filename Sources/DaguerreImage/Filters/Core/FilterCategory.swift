/// A Core Image category (kCICategory…): one effect category per filter, plus the usage ones.
///
/// ```swift
/// categories: [.blur, .video, .stillImage, .builtIn]
/// let blurs = FilterRegistry.all.filter { $0.categories.contains(FilterCategory.blur.rawValue) }
/// ```
public struct FilterCategory: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let colorAdjustment = Self(rawValue: "CICategoryColorAdjustment")
    public static let colorEffect = Self(rawValue: "CICategoryColorEffect")
    public static let blur = Self(rawValue: "CICategoryBlur")
    public static let sharpen = Self(rawValue: "CICategorySharpen")
    public static let geometry = Self(rawValue: "CICategoryGeometryAdjustment")
    public static let composite = Self(rawValue: "CICategoryCompositeOperation")
    public static let generator = Self(rawValue: "CICategoryGenerator")
    public static let gradient = Self(rawValue: "CICategoryGradient")
    public static let reduction = Self(rawValue: "CICategoryReduction")
    public static let stylize = Self(rawValue: "CICategoryStylize")
    public static let distortionEffect = Self(rawValue: "CICategoryDistortionEffect")
    public static let halftoneEffect = Self(rawValue: "CICategoryHalftoneEffect")
    public static let tileEffect = Self(rawValue: "CICategoryTileEffect")
    public static let transition = Self(rawValue: "CICategoryTransition")
    public static let stillImage = Self(rawValue: "CICategoryStillImage")
    public static let video = Self(rawValue: "CICategoryVideo")
    public static let builtIn = Self(rawValue: "CICategoryBuiltIn")
}
