// One RAW develop option, declared once (SPEC X1): the typed property it sets, its Core Image
// key, its name in sidecar files, its command-line flag, its help and its valid range. RAWFilter's
// key-value API, its validation, the sidecar and `daguerre develop` all read the one table of
// them (``RAWFilter/options``); adding an option is one row there and its property.
import DaguerreCore
import Foundation

/// A develop option of ``RAWFilter``: what it is called everywhere, and what values it takes.
///
/// ```swift
/// let ev = RAWFilter.option(named: "exposure")!        // by sidecar name, flag or key
/// ev.key                                                // "inputEV"
/// try ev.set(0.5, in: &raw)                             // raw.exposure = 0.5, validated
/// ```
public struct RAWOption: Sendable, Hashable, CustomStringConvertible {
    /// What the option holds, and where in a ``RAWFilter``.
    public enum Value: Sendable {
        /// A number, valid in `minimum ... maximum` (either bound optional; `minimum` excluded
        /// when `above`), always finite.
        case number(any WritableKeyPath<RAWFilter, Double> & Sendable, minimum: Double? = nil, maximum: Double? = nil, above: Bool = false)
        /// A switch: 0 or 1 by key, a bare flag on the command line.
        case toggle(any WritableKeyPath<RAWFilter, Bool> & Sendable)
        /// A name (the pipeline version).
        case text(any WritableKeyPath<RAWFilter, String> & Sendable)
    }

    /// Core Image's key (`inputEV`), or Daguerre's for options Core Image does not have.
    public let key: String
    /// Other keys that mean the same option (Core Image's older names).
    public let aliases: [String]
    /// The field in a sidecar file (``RAWAdjustments``).
    public let sidecarName: String
    /// The command-line flag, without the dashes (`daguerre develop --exposure 0.5`).
    public let flag: String
    /// One sentence for the command's help.
    public let help: String
    public let value: Value

    public init(key: String, aliases: [String] = [], sidecar: String, flag: String, help: String, _ value: Value) {
        self.key = key
        self.aliases = aliases
        sidecarName = sidecar
        self.flag = flag
        self.help = help
        self.value = value
    }

    public var description: String { key }
    public static func == (a: RAWOption, b: RAWOption) -> Bool { a.key == b.key }
    public func hash(into h: inout Hasher) { h.combine(key) }

    /// The option's value in `filter`, as a number (a toggle reads 0 or 1); nil for a text option.
    public func number(in filter: RAWFilter) -> Double? {
        switch value {
        case .number(let path, _, _, _): filter[keyPath: path]
        case .toggle(let path): filter[keyPath: path] ? 1 : 0
        case .text: nil
        }
    }

    /// The option's value in `filter` as text (a number in its shortest exact form).
    public func text(in filter: RAWFilter) -> String {
        switch value {
        case .text(let path): filter[keyPath: path]
        default: number(in: filter).map { "\($0)" } ?? ""
        }
    }

    /// Sets the option in `filter`; a number must be finite (its range is checked when the
    /// filter renders, ``check(_:)``), a switch takes any non-zero as on.
    public func set(_ value: Double, in filter: inout RAWFilter) throws(DaguerreError) {
        assign(try normalize(.number(value)), in: &filter)
    }

    /// Sets the option in `filter` from text: a name, a number, or on/off for a switch.
    public func set(_ text: String, in filter: inout RAWFilter) throws(DaguerreError) {
        assign(try normalize(.text(text)), in: &filter)
    }

    /// `value` as this option holds it: a number (finite), a switch or a name; text given for a
    /// number or a switch is parsed (`true`, `on`, `yes` and their opposites for a switch).
    func normalize(_ value: RAWAdjustments.Value) throws(DaguerreError) -> RAWAdjustments.Value {
        switch (self.value, value) {
        case (.text, .text): return value
        case (.text, _): throw invalid("takes a name, such as \"4\", not \(value)")
        case (.number, .number(let v)), (.toggle, .number(let v)):
            guard v.isFinite else { throw invalid("must be a finite number, not \(v)") }
            if case .toggle = self.value { return .toggle(v != 0) }
            return value
        case (.number, .toggle(let b)): return .number(b ? 1 : 0)
        case (.toggle, .toggle): return value
        case (_, .text(let t)):
            switch t.lowercased() {
            case "true", "on", "yes": return try normalize(.toggle(true))
            case "false", "off", "no": return try normalize(.toggle(false))
            default:
                guard let v = Double(t) else { throw invalid("'\(t)' is not a number") }
                return try normalize(.number(v))
            }
        }
    }

    /// Sets `filter`'s property to a value ``normalize(_:)`` gave.
    func assign(_ value: RAWAdjustments.Value, in filter: inout RAWFilter) {
        switch (self.value, value) {
        case (.number(let path, _, _, _), .number(let v)): filter[keyPath: path] = v
        case (.toggle(let path), .toggle(let b)): filter[keyPath: path] = b
        case (.text(let path), .text(let t)): filter[keyPath: path] = t
        default: break
        }
    }

    /// Throws unless `value` is finite and inside the option's range.
    public func check(_ value: Double) throws(DaguerreError) {
        guard value.isFinite else { throw invalid("must be a finite number, not \(value)") }
        guard case .number(_, let minimum, let maximum, let above) = self.value else { return }
        if let minimum, above ? !(value > minimum) : value < minimum {
            throw invalid("\(value) is \(above ? "not above" : "below") \(minimum); the range is \(rangeText)")
        }
        if let maximum, value > maximum { throw invalid("\(value) is above \(maximum); the range is \(rangeText)") }
    }

    /// The valid values, as the help says them.
    public var rangeText: String {
        switch value {
        case .number(_, let minimum, let maximum, let above):
            switch (minimum, maximum) {
            case (let lo?, let hi?): return above ? "\(lo) < x ≤ \(hi)" : "\(lo) … \(hi)"
            case (let lo?, nil): return above ? "above \(lo)" : "\(lo) or more"
            case (nil, let hi?): return "up to \(hi)"
            case (nil, nil): return "any finite number"
            }
        case .toggle: return "on or off"
        case .text: return "a name"
        }
    }

    /// The typed property the option sets (`noiseReductionDetailAmount`), read from its key path.
    public var propertyName: String {
        let path: AnyKeyPath
        switch value {
        case .number(let p, _, _, _): path = p
        case .toggle(let p): path = p
        case .text(let p): path = p
        }
        return String(describing: path).replacingOccurrences(of: "\\RAWFilter.", with: "")
    }

    private func invalid(_ problem: String) -> DaguerreError {
        .invalidArgument(what: "RAWFilter.\(propertyName) (\(key), sidecar \"\(sidecarName)\", --\(flag))", problem: problem)
    }
}
