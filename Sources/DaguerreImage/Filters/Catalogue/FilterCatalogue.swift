// Core Image's built-in filters as Apple ships them: all 247, each with its effect category,
// the releases it first worked in, its input keys, types, defaults and ranges, and the flags
// that say when a filter needs more than pixels (a model, faces, an Apple framework object,
// text layout, a code encoder, an unpublished look). The table is generated from
// Docs/reference/coreimage-filters.md (scripts/generate-filter-catalogue), which names its
// sources. FilterRegistry holds the filters that are built; this says what the rest are.
import DaguerreCore

/// Core Image's catalogue of built-in filters: what `CIFilter.filterNames(inCategories: nil)`
/// lists, with each filter's attributes, whether or not Daguerre builds it yet.
///
/// ```swift
/// let bokeh = FilterCatalogue.entry(named: "CIBokehBlur")!
/// print(bokeh.category.rawValue, bokeh.inputs.map(\.key))   // CICategoryBlur ["inputImage", "inputRadius", ...]
/// let iOS10 = FilterCatalogue.entries.filter(\.isAvailableOnIOS10).count   // 181
/// ```
public enum FilterCatalogue {
    /// One filter of the catalogue.
    public struct Entry: Sendable {
        /// The name without the `CI` prefix.
        public let name: String
        /// Its one effect category (kCICategoryBlur, …).
        public let category: FilterCategory
        /// The first macOS and iOS releases whose `CIFilter(name:)` knows it ("10.4", "9").
        public let macOS: String
        public let iOS: String
        public let flags: Set<Flag>
        public let inputs: [Input]

        /// Whether iOS 10 (the seeds' release) had it.
        public var isAvailableOnIOS10: Bool { (Double(iOS) ?? .infinity) <= 10 }

        /// What the filter needs that a pixel pipeline cannot give, when it is flagged so:
        /// the reason `FilterRegistry` gives for not building it.
        public var needs: String? {
            if flags.contains(.machineLearning) {
                if name == "CoreMLModelFilter" { return "Core ML to run the MLModel given as inputModel, which Daguerre does not have" }
                return
                    "a machine-learning model and a runtime for it (Core ML; for \(name), a model Apple trained and does not publish), which Daguerre does not have"
            }
            if flags.contains(.faces) {
                return "the camera's depth and segmentation mattes and face landmarks, which only Apple's portrait capture provides"
            }
            if flags.contains(.appleObject) {
                let objects = inputs.filter { Self.appleTypes.contains($0.type) }.map { "\($0.key) (\($0.type))" }
                return "an Apple framework object: \(objects.joined(separator: ", "))"
            }
            return nil
        }

        static let appleTypes: Set<String> = [
            "MLModel", "AVCameraCalibrationData", "CGImageMetadata", "NSAttributedString", "CIBarcodeDescriptor",
        ]
    }

    /// One input key as the catalogue gives it: `type` is Core Image's attribute type
    /// (scalar, distance, angle, point, rect, color, image, …) or the value's class.
    public struct Input: Sendable, Equatable {
        public let key: String
        public let type: String
        /// The default as the catalogue writes it ("10", "(150, 150)", "rgba(1,1,1,1)"), if any.
        public let defaultText: String?
        public let min: Double?
        public let max: Double?

        /// The default as a number, for numeric inputs.
        public var defaultNumber: Double? { defaultText.flatMap(Double.init) }
    }

    /// Why a filter needs more than pixels (the catalogue's flags).
    public enum Flag: String, Sendable, CaseIterable {
        case machineLearning = "ML"
        case faces = "FACE"
        case appleObject = "OBJ"
        case text = "TEXT"
        case code = "CODE"
        /// An Apple look or system behaviour with no published algorithm.
        case look = "LOOK"
        case highDynamicRange = "HDR"
        /// New in the SDK 26 generation: its runtime keys are not confirmed.
        case sdk26 = "26"
    }

    /// Every filter, in the catalogue's order (by category, then name).
    public static let entries: [Entry] = table.split(separator: "\n").map { parse(String($0)) }

    /// One line of ``table``: name, category, macOS, iOS, flags, inputs.
    static func parse(_ line: String) -> Entry {
        let f: [String] = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        var inputs: [Input] = []
        var rest = Substring(f[5])
        while !rest.isEmpty {
            let end = rest.firstRange(of: ";;")
            let text = end.map { rest[..<$0.lowerBound] } ?? rest
            rest = end.map { rest[$0.upperBound...] } ?? ""
            let p: [String] = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            inputs.append(Input(key: p[0], type: p[1], defaultText: p[2].isEmpty ? nil : p[2], min: Double(p[3]), max: Double(p[4])))
        }
        let flags = Set(f[4].split(separator: ",").compactMap { Flag(rawValue: String($0)) })
        return Entry(name: f[0], category: FilterCategory(catalogueName: f[1]), macOS: f[2], iOS: f[3], flags: flags, inputs: inputs)
    }

    /// The entry named `name` (the `CI` prefix accepted), if Core Image has such a filter.
    public static func entry(named name: String) -> Entry? {
        let bare = name.hasPrefix("CI") && name.count > 2 ? String(name.dropFirst(2)) : name
        return byName[bare] ?? byName.values.first { $0.name.lowercased() == bare.lowercased() }
    }

    private static let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
}

extension FilterCategory {
    /// The category the catalogue names without its prefix ("Blur" is CICategoryBlur).
    init(catalogueName: String) { self.init(rawValue: "CICategory" + catalogueName) }
}
