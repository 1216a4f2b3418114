import DaguerreCore

/// A filter parameter value, for the by-name API (I1). Literals work:
/// `["inputRadius": 2, "inputCenter": [150, 150], "inputColor0": .color(.white)]`.
public enum FilterValue: Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, CustomStringConvertible
{
    case number(Double)
    case vector([Double])
    case color(Color)
    case image(Image)
    case transform(AffineTransform2D)
    case rect(Rect)
    case bool(Bool)
    case string(String)
    /// Bytes: a code generator's message (Core Image's NSData).
    case data([UInt8])
    case colorSpace(ColorSpace)
    /// Text in runs with fonts, sizes and colours (Core Image's NSAttributedString).
    case attributedText(AttributedText)
    /// An encoded code symbol (Core Image's CIBarcodeDescriptor).
    case barcodeDescriptor(BarcodeDescriptor)

    public init(floatLiteral v: Double) { self = .number(v) }
    public init(integerLiteral v: Int) { self = .number(Double(v)) }
    public init(booleanLiteral v: Bool) { self = .bool(v) }
    public init(stringLiteral v: String) { self = .string(v) }
    public init(arrayLiteral elements: Double...) { self = .vector(elements) }

    public var description: String {
        switch self {
        case .number(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        case .vector(let v): return "[" + v.map { FilterValue.number($0).description }.joined(separator: " ") + "]"
        case .color(let c): return c.description
        case .image(let i): return "image \(i.extent)"
        case .transform(let t): return t.description
        case .rect(let r): return r.description
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        case .data(let b): return String(validating: b, as: UTF8.self) ?? "\(b.count) bytes"
        case .colorSpace(let c): return c.name
        case .attributedText(let t): return t.description
        case .barcodeDescriptor(let b): return b.description
        }
    }

    var typeName: String {
        switch self {
        case .number: "number"
        case .vector: "vector"
        case .color: "color"
        case .image: "image"
        case .transform: "transform"
        case .rect: "rectangle"
        case .bool: "boolean"
        case .string: "string"
        case .data: "data"
        case .colorSpace: "colour space"
        case .attributedText: "attributed text"
        case .barcodeDescriptor: "barcode descriptor"
        }
    }

    func addDigest(_ d: inout DigestBuilder) {
        switch self {
        case .number(let v): d.add(v)
        case .vector(let v): d.add(v)
        case .color(let c):
            d.add([c.red, c.green, c.blue, c.alpha])
            d.add(c.colorSpace)
        case .image(let i): d.add(i.digest)
        case .transform(let t): d.add([t.a, t.b, t.c, t.d, t.tx, t.ty])
        case .rect(let r): d.add([r.minX, r.minY, r.maxX, r.maxY])
        case .bool(let b): d.add(b)
        case .string(let s): d.add(s)
        case .data(let b):
            d.add(b.count)
            b.withUnsafeBytes { d.add(bytes: $0) }
        case .colorSpace(let c): d.add(c)
        case .attributedText(let t):
            for run in t.runs {
                d.add(run.text)
                d.add(run.fontName)
                d.add([run.fontSize, run.color.red, run.color.green, run.color.blue, run.color.alpha])
                d.add(run.color.colorSpace)
            }
        case .barcodeDescriptor(let b):
            switch b {
            case .qr(let payload, let version, let mask, let level):
                d.add("qr")
                d.add(level)
                d.add([Double(version), Double(mask)])
                payload.withUnsafeBytes { d.add(bytes: $0) }
            case .other(let type, let payload):
                d.add(type)
                payload.withUnsafeBytes { d.add(bytes: $0) }
            }
        }
    }
}
