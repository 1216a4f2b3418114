import DaguerreCore

/// Every built-in filter, by name (CIFilter.filterNames(inCategory:)). A new filter is one
/// line in ``types``; everything else about it comes from its declaration.
///
/// ```swift
/// let blur = try FilterRegistry.descriptor(named: "CIGaussianBlur")   // the CI prefix is accepted
/// print(FilterRegistry.names.joined(separator: ", "))
/// ```
public enum FilterRegistry {
    /// The filter types, by category.
    public static let types: [any Filter.Type] = [
        // Colour adjustment
        ExposureAdjust.self,
        TemperatureAndTint.self,
        ColorMatrix.self,
        ColorControls.self,
        GammaAdjust.self,
        ToneCurve.self,
        HighlightShadowAdjust.self,
        Vibrance.self,
        ColorClamp.self,
        // Colour effect
        SepiaTone.self,
        ColorInvert.self,
        ColorMonochrome.self,
        ColorPosterize.self,
        MaximumComponent.self,
        MinimumComponent.self,
        // Blur and sharpen
        GaussianBlur.self,
        BoxBlur.self,
        UnsharpMask.self,
        SharpenLuminance.self,
        // Geometry
        LanczosScaleTransform.self,
        AffineTransformFilter.self,
        Crop.self,
        // Composite
        SourceOverCompositing.self,
        // Generators and gradients
        ConstantColor.self,
        LinearGradient.self,
        RadialGradient.self,
        HueSaturationValueGradient.self,
        SmoothLinearGradient.self,
        GaussianGradient.self,
        CheckerboardGenerator.self,
        StripesGenerator.self,
        // Codes
        QRCodeGenerator.self,
        // Halftone
        DotScreen.self,
        LineScreen.self,
        HatchedScreen.self,
        CircularScreen.self,
        // Stylize
        NinePartStretched.self,
        NinePartTiled.self,
        EdgePreserveUpsample.self,
        // Reduction
        AreaAverage.self,
    ]

    /// Names Daguerre used before it took Core Image's, still accepted.
    static let formerNames = ["ConstantColor": "ConstantColorGenerator", "EdgePreserveUpsample": "EdgePreserveUpsampleFilter"]

    public static let all: [FilterDescriptor] = types.map { $0.descriptor }

    public static var names: [String] { all.map(\.name) }

    /// Looks a filter up by name; Core Image's `CI` prefix is accepted. A Core Image filter
    /// that is not built is an `unsupported` error saying so, or saying what it would need.
    public static func descriptor(named raw: String) throws(DaguerreError) -> FilterDescriptor {
        let bare = raw.hasPrefix("CI") && raw.count > 2 ? String(raw.dropFirst(2)) : raw
        let name = formerNames[bare] ?? bare
        if let d = all.first(where: { $0.name == name }) { return d }
        if let d = all.first(where: { $0.name.lowercased() == name.lowercased() }) { return d }
        if let entry = FilterCatalogue.entry(named: name) { throw notBuilt(entry) }
        var seen = Set<String>()
        let known = (names + FilterCatalogue.entries.map(\.name)).filter { seen.insert($0).inserted }
        let scored = known.map { ($0, editDistance($0.lowercased(), name.lowercased())) }
        let close = scored.filter { $0.1 <= max(2, name.count / 3) || $0.0.lowercased().contains(name.lowercased()) && name.count >= 4 }
            .sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
        throw .unknownFilter(name: raw, suggestions: Array(close))
    }

    /// Why a catalogue filter cannot be used: what it needs, or that it is not built yet.
    public static func notBuilt(_ entry: FilterCatalogue.Entry) -> DaguerreError {
        let what = "Core Image's \(entry.name) filter (\(entry.category.rawValue))"
        if let needs = entry.needs {
            return .unsupported(feature: what, hint: "It needs \(needs).")
        }
        return .unsupported(
            feature: what,
            hint: "It is in Core Image's catalogue but not built yet; `daguerre filters` lists the filters that are built.")
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
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
