import DaguerreCore

/// One parameter's attributes (CIFilter's attributes dictionary): type, default, hard range and
/// slider range, and a description. A filter's ``FilterDeclaration`` makes them; validation
/// against them is what makes the by-name API safe.
///
/// ```swift
/// let radius = try FilterRegistry.descriptor(named: "GaussianBlur").parameter(named: "radius")
/// print(radius.kind, radius.defaultValue ?? "none", radius.min ?? -.infinity, radius.sliderMax ?? .infinity)
/// ```
public struct FilterParameter: Sendable {
    /// The key of a filter's main image (Core Image's kCIInputImageKey).
    public static let inputImageKey = "inputImage"

    public enum Kind: String, Sendable {
        case image, scalar, angle, integer, boolean, position, offset, vector, color, transform, rectangle, colorSpace
        /// A word from a short list (a QR code's correction level, "M").
        case string
        /// Bytes (NSData in Core Image: a code generator's message); by name also a string, as UTF-8.
        case data
        /// Text with fonts and colours (NSAttributedString); by name also a string (see ``AttributedText``).
        case attributedText
        /// An encoded code (CIBarcodeDescriptor); by name JSON (see ``BarcodeDescriptor``).
        case barcodeDescriptor
    }

    public let key: String
    public let kind: Kind
    public let description: String
    public let defaultValue: FilterValue?
    /// Hard limits: values outside are errors.
    public let min: Double?
    public let max: Double?
    /// Suggested UI range.
    public let sliderMin: Double?
    public let sliderMax: Double?
    /// For vectors: the number of components.
    public let count: Int?
    /// An image the filter renders without (Core Image's optional inputs, a page curl's shading
    /// image); every other image is required.
    public let isOptional: Bool

    public init(
        key: String, kind: Kind, description: String, default: FilterValue? = nil, min: Double? = nil, max: Double? = nil,
        sliderMin: Double? = nil, sliderMax: Double? = nil, count: Int? = nil, optional: Bool = false
    ) {
        self.isOptional = optional
        self.key = key
        self.kind = kind
        self.description = description
        self.defaultValue = `default`
        self.min = min
        self.max = max
        self.sliderMin = sliderMin ?? min
        self.sliderMax = sliderMax ?? max
        self.count = count ?? (kind == .position || kind == .offset ? 2 : nil)
    }

    /// Converts `value` to this parameter's kind, or says precisely why it cannot.
    func validate(_ value: FilterValue, filter: String) throws(DaguerreError) -> FilterValue {
        func bad(_ problem: String) -> DaguerreError { .invalidParameter(filter: filter, key: key, problem: problem) }
        func checkRange(_ v: Double) throws(DaguerreError) {
            guard v.isFinite else { throw bad("\(v) is not a finite number") }
            if let min, v < min { throw bad("\(FilterValue.number(v)) is below the minimum \(FilterValue.number(min))") }
            if let max, v > max { throw bad("\(FilterValue.number(v)) is above the maximum \(FilterValue.number(max))") }
        }
        switch (kind, value) {
        case (.image, .image): return value
        case (.scalar, .number(let v)), (.angle, .number(let v)):
            try checkRange(v)
            return value
        case (.integer, .number(let v)):
            try checkRange(v)
            guard v == v.rounded() else { throw bad("\(v) is not a whole number") }
            return value
        case (.boolean, .bool): return value
        case (.boolean, .number(let v)) where v == 0 || v == 1: return .bool(v == 1)
        case (.position, .vector(let v)), (.offset, .vector(let v)), (.vector, .vector(let v)):
            if let count, v.count != count { throw bad("expected \(count) components, got \(v.count)") }
            for x in v {
                guard x.isFinite else { throw bad("component \(x) is not finite") }
                try checkRange(x)
            }
            return value
        case (.color, .color(let c)):
            guard [c.red, c.green, c.blue, c.alpha].allSatisfy(\.isFinite) else { throw bad("colour components must be finite") }
            return value
        case (.color, .vector(let v)) where v.count == 3 || v.count == 4:
            guard v.allSatisfy(\.isFinite) else { throw bad("colour components must be finite") }
            return .color(Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1))
        case (.transform, .transform(let t)):
            guard [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite) else { throw bad("the transform must be finite") }
            return value
        case (.transform, .vector(let v)) where v.count == 6:
            guard v.allSatisfy(\.isFinite) else { throw bad("the transform must be finite") }
            return .transform(AffineTransform2D(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
        case (.rectangle, .rect(let r)):
            guard !r.isInfinite, [r.minX, r.minY, r.maxX, r.maxY].allSatisfy(\.isFinite) else { throw bad("the rectangle must be finite") }
            return value
        case (.rectangle, .vector(let v)) where v.count == 4:
            guard v.allSatisfy(\.isFinite), v[2] >= 0, v[3] >= 0 else {
                throw bad("expected [x y width height] with finite, non-negative size")
            }
            return .rect(Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
        case (.string, .string): return value
        case (.data, .data): return value
        case (.data, .string(let s)): return .data(Array(s.utf8))
        case (.attributedText, .attributedText), (.barcodeDescriptor, .barcodeDescriptor): return value
        case (.barcodeDescriptor, .string(let s)):
            do { return .barcodeDescriptor(try BarcodeDescriptor(parsing: s)) } catch { throw bad("\(error.message); \(error.recovery)") }
        case (.attributedText, .string(let s)):
            do { return .attributedText(try AttributedText(parsing: s)) } catch { throw bad("\(error.message); \(error.recovery)") }
        case (.colorSpace, .colorSpace): return value
        case (.colorSpace, .string(let s)):
            guard let cs = ColorSpace(named: s) else { throw bad("unknown colour space '\(s)' (try sRGB, displayP3, adobeRGB, bt2020)") }
            return .colorSpace(cs)
        default:
            throw bad("expected \(kind == .scalar ? "a number" : "a value of type \(kind.rawValue)"), got a \(value.typeName) (\(value))")
        }
    }

    /// The error for a required parameter that has no value.
    func missing(filter: String) -> DaguerreError {
        .invalidParameter(filter: filter, key: key, problem: "this \(kind.rawValue) parameter is required")
    }

    /// The error for a key that names no parameter of `filter`.
    static func unknown(_ key: String, filter: String, keys: [String]) -> DaguerreError {
        .invalidParameter(
            filter: filter, key: key, problem: "\(filter) has no such parameter; its parameters are \(keys.joined(separator: ", "))")
    }
}
