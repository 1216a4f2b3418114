import DaguerreCore

/// A filter's one declaration (CIFilter's attributes): its name, categories and description, and
/// each parameter once, bound to the property that stores it. The parameter's default is that
/// property's initial value (read from `F()`), so a literal is written once. The by-name API,
/// the attributes that `daguerre filters` prints, and validation all come from here.
///
/// ```swift
/// public static let declaration = FilterDeclaration<Self>(
///     name: "GaussianBlur", displayName: "Gaussian Blur", categories: [.blur, .video, .stillImage, .builtIn],
///     description: "Blurs with a Gaussian of the given standard deviation.",
///     parameters: [.image(\.inputImage),
///                  .scalar(\.radius, "inputRadius", "Standard deviation in pixels.", min: 0, max: 1000, sliderMax: 100)])
/// ```
public struct FilterDeclaration<F: Filter>: Sendable {
    /// The name without Core Image's `CI` prefix ("GaussianBlur").
    public let name: String
    public let displayName: String
    public let categories: [FilterCategory]
    public let description: String
    public let parameters: [Parameter]

    public init(name: String, displayName: String, categories: [FilterCategory], description: String, parameters: [Parameter]) {
        self.name = name
        self.displayName = displayName
        self.categories = categories
        self.description = description
        self.parameters = parameters
    }

    /// One parameter: its attributes and the property that holds its value, made by its kind's
    /// factory.
    ///
    /// ```swift
    /// .scalar(\.radius, "inputRadius", "Standard deviation in pixels.", min: 0, max: 1000, sliderMax: 100)
    /// ```
    public struct Parameter: Sendable {
        public let attributes: FilterParameter
        /// The property's value as a by-name value; nil for an absent image.
        let read: @Sendable (F) -> FilterValue?
        /// Stores a value already validated (and so converted) by ``attributes``.
        let write: @Sendable (inout F, FilterValue) -> Void
        let property: AnyKeyPath & Sendable

        /// Binds `property` to a parameter; `encode` and `decode` convert between the property's
        /// type and the validated by-name value.
        init<V>(
            _ property: WritableKeyPath<F, V> & Sendable, key: String, kind: FilterParameter.Kind, doc: String,
            min: Double? = nil, max: Double? = nil, sliderMin: Double? = nil, sliderMax: Double? = nil, count: Int? = nil,
            optional: Bool = false, encode: @escaping @Sendable (V) -> FilterValue?, decode: @escaping @Sendable (FilterValue) -> V?
        ) {
            attributes = FilterParameter(
                key: key, kind: kind, description: doc, default: encode(F()[keyPath: property]),
                min: min, max: max, sliderMin: sliderMin, sliderMax: sliderMax, count: count, optional: optional)
            read = { encode($0[keyPath: property]) }
            write = { filter, value in if let v = decode(value) { filter[keyPath: property] = v } }
            self.property = property
        }
    }

    /// The type-erased view: what the registry lists and the by-name API runs.
    public var descriptor: FilterDescriptor {
        FilterDescriptor(
            name: name, displayName: displayName, categories: categories.map(\.rawValue), description: description,
            parameters: parameters.map(\.attributes)
        ) { values throws(DaguerreError) in try self.apply(values) }
    }

    /// The parameter stored in `property`.
    func parameter(_ property: AnyKeyPath) -> Parameter? {
        parameters.first { ($0.property as AnyKeyPath) == property }
    }

    /// The key of the parameter stored in `property`.
    func key(_ property: AnyKeyPath) -> String { parameter(property)?.attributes.key ?? "\(property)" }

    /// Checks every value `filter` holds: kind, finiteness, range, required images.
    func validate(_ filter: F) throws(DaguerreError) {
        for p in parameters {
            guard let value = p.read(filter) else {
                if p.attributes.isOptional { continue }
                throw p.attributes.missing(filter: name)
            }
            _ = try p.attributes.validate(value, filter: name)
        }
    }

    /// Validates `value` for the parameter `key` and stores it in `filter`.
    func set(_ key: String, to value: FilterValue, in filter: inout F) throws(DaguerreError) {
        guard let p = parameters.first(where: { $0.attributes.key == key }) else {
            throw FilterParameter.unknown(key, filter: name, keys: parameters.map(\.attributes.key))
        }
        p.write(&filter, try p.attributes.validate(value, filter: name))
    }

    /// The by-name API: the defaults (`F()`), with `values` validated and stored over them.
    func apply(_ values: [String: FilterValue]) throws(DaguerreError) -> Image {
        var filter = F()
        for (key, value) in values { try set(key, to: value, in: &filter) }
        return try filter.outputImage()
    }
}
