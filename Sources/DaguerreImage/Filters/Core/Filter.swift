import DaguerreCore

/// A filter (I1; CIFilter): a struct whose stored properties are its parameters, with their
/// defaults as initial values. Its ``declaration`` lists each parameter once (key, kind, range,
/// doc) bound to its property; the by-name API, the attributes that `daguerre filters` prints,
/// and validation all come from it.
///
/// ```swift
/// let blurred = try image.applying(GaussianBlur(radius: 2))
/// var wheel = HueSaturationValueGradient(); wheel.colorSpace = .displayP3
/// let disc = try wheel.outputImage()
/// ```
///
/// Writing one: store each parameter with its default, declare it once in ``declaration``, and
/// build the result in ``outputImage(_:)`` from the properties (see SepiaTone for a whole file).
public protocol Filter: Sendable {
    /// Every parameter at its default; the declared defaults are read from it.
    init()
    /// The filter's name, categories and parameters, each declared once.
    static var declaration: FilterDeclaration<Self> { get }
    /// Builds the result from this filter's properties. ``outputImage()`` calls it once every
    /// value has been checked against ``declaration`` (finite, in range, images present), which
    /// the argument proves; call ``outputImage()`` instead.
    func outputImage(_ checked: ValidatedParameters) throws(DaguerreError) -> Image
}

/// Proof that a filter's values passed its declaration's checks: only ``Filter/outputImage()``
/// makes one, so a filter's implementation never sees an unchecked value.
///
/// ```swift
/// public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
///     let input = try required(\.inputImage)   // present: validated
///     ...
/// }
/// ```
public struct ValidatedParameters: Sendable {
    fileprivate init() {}
}

extension Filter {
    /// The filter's result, after checking every value against the declaration.
    public func outputImage() throws(DaguerreError) -> Image {
        try Self.declaration.validate(self)
        return try outputImage(ValidatedParameters())
    }

    /// The filter with every parameter at its default (`Self()`), for init default arguments:
    /// `init(radius: Double = Self.defaults.radius)`.
    public static var defaults: Self { Self() }

    /// The filter's name, attributes and by-name entry point.
    public static var descriptor: FilterDescriptor { declaration.descriptor }

    /// The parameter values this instance holds, keyed as in the by-name API.
    public var values: [String: FilterValue] {
        var v: [String: FilterValue] = [:]
        for p in Self.declaration.parameters { if let value = p.read(self) { v[p.attributes.key] = value } }
        return v
    }

    /// A typed error about one parameter, for checks its declared range cannot express:
    /// `throw Self.invalid(\.neutral, "temperature must be 1000…100000 K")`.
    public static func invalid(_ property: PartialKeyPath<Self>, _ problem: String) -> DaguerreError {
        .invalidParameter(filter: declaration.name, key: declaration.key(property), problem: problem)
    }

    /// An image parameter's value, for ``outputImage(_:)``: present once validated, so this
    /// throws only for a property that is not declared as an image parameter.
    public func required(_ property: KeyPath<Self, Image?>) throws(DaguerreError) -> Image {
        if let image = self[keyPath: property] { return image }
        let d = Self.declaration
        guard let p = d.parameter(property) else {
            throw .invalidArgument(what: "\(property)", problem: "it is not a declared parameter of \(d.name)")
        }
        throw p.attributes.missing(filter: d.name)
    }
}
