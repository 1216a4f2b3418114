import DaguerreCore

/// A filter's identity, attributes and implementation (CIFilter's name, attributes and
/// outputImage). The by-name and the typed APIs both go through ``apply(_:)``, so validation
/// and defaults are in one place.
public struct FilterDescriptor: Sendable {
    public let name: String
    public let displayName: String
    /// Core Image categories: CICategoryColorAdjustment, CICategoryBlur, ...
    public let categories: [String]
    public let description: String
    public let parameters: [FilterParameter]
    let make: @Sendable (FilterArguments) throws(DaguerreError) -> Image

    public init(name: String, displayName: String, categories: [String], description: String, parameters: [FilterParameter],
                make: @escaping @Sendable (FilterArguments) throws(DaguerreError) -> Image) {
        self.name = name; self.displayName = displayName; self.categories = categories
        self.description = description; self.parameters = parameters; self.make = make
    }

    /// Validates `values`, fills in defaults, and builds the output image.
    public func apply(_ values: [String: FilterValue]) throws(DaguerreError) -> Image {
        var out: [String: FilterValue] = [:]
        for (key, value) in values {
            guard let p = parameters.first(where: { $0.key == key }) else {
                throw .invalidParameter(filter: name, key: key,
                                        problem: "\(name) has no such parameter; its parameters are \(parameters.map(\.key).joined(separator: ", "))")
            }
            out[key] = try p.validate(value, filter: name)
        }
        for p in parameters where out[p.key] == nil {
            if let d = p.defaultValue { out[p.key] = d }
            else { throw .invalidParameter(filter: name, key: p.key, problem: "this \(p.kind.rawValue) parameter is required") }
        }
        return try make(FilterArguments(filter: name, values: out))
    }
}

/// Validated parameter values, read by type inside a filter's implementation.
public struct FilterArguments: Sendable {
    let filter: String
    let values: [String: FilterValue]

    public func image(_ key: String) throws(DaguerreError) -> Image {
        guard case let .image(i)? = values[key] else { throw .invalidParameter(filter: filter, key: key, problem: "an image is required") }
        return i
    }
    public func number(_ key: String) -> Double {
        switch values[key] { case .number(let v)?: return v; case .bool(let b)?: return b ? 1 : 0; default: return 0 }
    }
    public func vector(_ key: String) -> [Double] {
        if case let .vector(v)? = values[key] { return v }
        return []
    }
    public func point(_ key: String) -> SIMD2<Double> {
        let v = vector(key)
        return v.count >= 2 ? SIMD2(v[0], v[1]) : .zero
    }
    public func color(_ key: String) -> Color {
        if case let .color(c)? = values[key] { return c }
        return .black
    }
    public func bool(_ key: String) -> Bool {
        switch values[key] { case .bool(let b)?: return b; case .number(let v)?: return v != 0; default: return false }
    }
    public func transform(_ key: String) -> AffineTransform2D {
        if case let .transform(t)? = values[key] { return t }
        return .identity
    }
    public func rect(_ key: String) -> Rect {
        if case let .rect(r)? = values[key] { return r }
        return .null
    }
    public func colorSpace(_ key: String) -> ColorSpace {
        if case let .colorSpace(c)? = values[key] { return c }
        return .sRGB
    }
}
