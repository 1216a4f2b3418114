import DaguerreCore

// The closure-based way of making a descriptor, from before filters declared their parameters
// once (FilterDeclaration). Kept for source compatibility; nothing in the package uses it.

extension FilterDescriptor {
    /// A descriptor from attributes and a closure that reads values by key.
    @available(*, deprecated, message: "Write a Filter type with a FilterDeclaration; its descriptor is Type.descriptor")
    public init(
        name: String, displayName: String, categories: [String], description: String, parameters: [FilterParameter],
        make: @escaping @Sendable (FilterArguments) throws(DaguerreError) -> Image
    ) {
        self.init(name: name, displayName: displayName, categories: categories, description: description, parameters: parameters) {
            values throws(DaguerreError) in
            var out: [String: FilterValue] = [:]
            for (key, value) in values {
                guard let p = parameters.first(where: { $0.key == key }) else {
                    throw FilterParameter.unknown(key, filter: name, keys: parameters.map(\.key))
                }
                out[key] = try p.validate(value, filter: name)
            }
            for p in parameters where out[p.key] == nil {
                guard let d = p.defaultValue else { throw p.missing(filter: name) }
                out[p.key] = d
            }
            return try make(FilterArguments(filter: name, values: out))
        }
    }
}

/// Validated parameter values, read by key: the deprecated closure-based descriptors' input.
@available(*, deprecated, message: "Filters read their own typed properties; see FilterDeclaration")
public struct FilterArguments: Sendable {
    let filter: String
    let values: [String: FilterValue]

    public func image(_ key: String) throws(DaguerreError) -> Image {
        guard case .image(let i)? = values[key] else { throw .invalidParameter(filter: filter, key: key, problem: "an image is required") }
        return i
    }
    public func number(_ key: String) -> Double {
        switch values[key] {
        case .number(let v)?: return v
        case .bool(let b)?: return b ? 1 : 0
        default: return 0
        }
    }
    public func vector(_ key: String) -> [Double] {
        if case .vector(let v)? = values[key] { return v }
        return []
    }
    public func point(_ key: String) -> SIMD2<Double> {
        let v = vector(key)
        return v.count >= 2 ? SIMD2(v[0], v[1]) : .zero
    }
    public func color(_ key: String) -> Color {
        if case .color(let c)? = values[key] { return c }
        return .black
    }
    public func bool(_ key: String) -> Bool {
        switch values[key] {
        case .bool(let b)?: return b
        case .number(let v)?: return v != 0
        default: return false
        }
    }
    public func transform(_ key: String) -> AffineTransform2D {
        if case .transform(let t)? = values[key] { return t }
        return .identity
    }
    public func rect(_ key: String) -> Rect {
        if case .rect(let r)? = values[key] { return r }
        return .null
    }
    public func colorSpace(_ key: String) -> ColorSpace {
        if case .colorSpace(let c)? = values[key] { return c }
        return .sRGB
    }
}
