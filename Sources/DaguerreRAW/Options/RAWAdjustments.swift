// Per-photo development settings, as a sidecar file beside the RAW (SPEC X1: batch develops with
// saved adjustments; RAWExpose's saved edits). JSON, so any tool can read and write it; its
// fields are the option table's sidecar names (``RAWFilter/options``).
import DaguerreCore
import DaguerreFormats
import Foundation

/// The adjustments a photographer saved for one RAW: a value for some of ``RAWFilter/options``;
/// the others keep the file's defaults. A sidecar that names a `decoderVersion` keeps rendering
/// with that pipeline version (X5), pixel for pixel, after the default moves on.
///
/// ```swift
/// // IMG_0001.dng.daguerre.json: {"decoderVersion": "4", "exposure": 0.7, "temperature": 5200,
/// //                               "tint": 4, "contrast": 0.2, "noiseReductionDetail": 0.4}
/// var raw = try RAWFilter(url: url)
/// try RAWAdjustments.sidecar(for: url.path)?.apply(to: &raw)
///
/// var saved = RAWAdjustments()
/// try saved.set(0.7, for: "exposure")      // by sidecar name, flag or Core Image key
/// try saved.writeSidecar(for: url.path)
/// ```
public struct RAWAdjustments: Codable, Sendable, Equatable {
    /// An option's value: a number, a switch or a name, written as a literal.
    public enum Value: Sendable, Hashable, CustomStringConvertible, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
        ExpressibleByBooleanLiteral, ExpressibleByStringLiteral
    {
        case number(Double)
        case toggle(Bool)
        case text(String)
        public init(floatLiteral v: Double) { self = .number(v) }
        public init(integerLiteral v: Int) { self = .number(Double(v)) }
        public init(booleanLiteral v: Bool) { self = .toggle(v) }
        public init(stringLiteral v: String) { self = .text(v) }
        public var description: String {
            switch self {
            case .number(let v): "\(v)"
            case .toggle(let b): b ? "1" : "0"
            case .text(let t): t
            }
        }
    }

    /// The values set, by option.
    public private(set) var values: [RAWOption: Value] = [:]

    public init() {}

    /// The adjustments `values` name, each key an option's sidecar name, flag or Core Image key.
    ///
    /// ```swift
    /// let saved = try RAWAdjustments(["decoderVersion": "4", "exposure": 0.7, "temperature": 5200, "draft": true])
    /// ```
    public init(_ values: [String: Value]) throws(DaguerreError) {
        for (name, value) in values { try set(value, for: name) }
    }

    /// The value of the option called `name` (sidecar name, flag or key); nil when not set.
    public subscript(name: String) -> Value? { RAWFilter.option(named: name).flatMap { values[$0] } }

    /// Sets the option called `name` (sidecar name, flag or key) to `value`: a number or a
    /// switch for a number (`true` is 1), a switch or a number for a switch (non-zero is on), a
    /// name for the pipeline version. Text given for a number or a switch is parsed.
    public mutating func set(_ value: Value, for name: String) throws(DaguerreError) {
        guard let option = RAWFilter.option(named: name) else {
            throw .invalidArgument(
                what: "RAW adjustment '\(name)'",
                problem: "is not an option; use one of \(RAWFilter.options.map(\.sidecarName).joined(separator: ", "))")
        }
        values[option] = try option.normalize(value)
    }

    /// Removes the option called `name`, so the file's default applies again.
    public mutating func remove(_ name: String) {
        if let option = RAWFilter.option(named: name) { values[option] = nil }
    }

    /// The sidecar's path for a RAW file: the file's name with `.daguerre.json` appended.
    public static func sidecarPath(for rawPath: String) -> String { rawPath + ".daguerre.json" }

    /// Reads the sidecar of `rawPath`, or nil when there is none.
    public static func sidecar(for rawPath: String) throws(DaguerreError) -> RAWAdjustments? {
        let path = sidecarPath(for: rawPath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .io(operation: "read", path: path, reason: error.localizedDescription)
        }
        guard data.count <= 1 << 20 else { throw .tooLarge(what: "sidecar \(path) in bytes", value: data.count, limit: 1 << 20) }
        do { return try JSONDecoder().decode(RAWAdjustments.self, from: data) } catch {
            throw .corruptData(format: "sidecar JSON", detail: "\(error)", path: path)
        }
    }

    /// Writes this as the sidecar of `rawPath`, atomically.
    public func writeSidecar(for rawPath: String) throws(DaguerreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw .invalidArgument(what: "adjustments", problem: "\(error)") }
        try AtomicFile.write([UInt8](data), to: Self.sidecarPath(for: rawPath))
    }

    /// Sets the filter's options that this holds (each was checked when it was set; ranges are
    /// checked when the filter renders).
    public func apply(to filter: inout RAWFilter) {
        for option in RAWFilter.options {
            if let value = values[option] { option.assign(value, in: &filter) }
        }
    }

    /// These adjustments with `other`'s values on top.
    public func merging(_ other: RAWAdjustments) -> RAWAdjustments {
        var merged = self
        merged.values.merge(other.values) { $1 }
        return merged
    }

    // MARK: JSON: one field per option set, by its sidecar name; numbers as numbers, switches as
    // booleans, names as strings. Unknown fields are ignored, as older files may carry them.

    private struct Field: CodingKey {
        let stringValue: String
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        for option in RAWFilter.options {
            let field = Field(option.sidecarName)
            guard c.contains(field), try !c.decodeNil(forKey: field) else { continue }
            let value: Value
            switch option.value {
            case .text: value = .text(try c.decode(String.self, forKey: field))
            case .toggle: value = .toggle(try c.decode(Bool.self, forKey: field))
            case .number: value = .number(try c.decode(Double.self, forKey: field))
            }
            do { try set(value, for: option.sidecarName) } catch {
                throw DecodingError.dataCorruptedError(forKey: field, in: c, debugDescription: "\(error)")
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        for option in RAWFilter.options {
            let field = Field(option.sidecarName)
            switch values[option] {
            case .text(let t)?: try c.encode(t, forKey: field)
            case .toggle(let b)?: try c.encode(b, forKey: field)
            case .number(let v)?: try c.encode(v, forKey: field)
            case nil: continue
            }
        }
    }
}
