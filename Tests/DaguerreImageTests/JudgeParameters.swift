import Daguerre

/// A filter's parameters as the Python judges read them: every declared default, overridden by
/// the case's values, each as JSON (numbers, arrays of numbers, or text).
enum JudgeParameters {
    /// `given` over the filter's declared defaults (the judge gets every value).
    static func all(_ name: String, _ given: [String: FilterValue]) throws -> [String: FilterValue] {
        var all: [String: FilterValue] = [:]
        for p in try FilterRegistry.descriptor(named: name).parameters { if let v = p.defaultValue { all[p.key] = v } }
        return all.merging(given) { $1 }
    }

    static func json(_ v: FilterValue) -> Any {
        switch v {
        case .number(let n): return n
        case .vector(let a): return a
        case .bool(let b): return b
        case .rect(let r): return [r.minX, r.minY, r.width, r.height]
        case .transform(let t): return [t.a, t.b, t.c, t.d, t.tx, t.ty]
        default: return "\(v)"
        }
    }
}
