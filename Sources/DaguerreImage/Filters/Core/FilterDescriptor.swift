import DaguerreCore

/// A filter's identity, attributes and by-name entry point (CIFilter's name, attributes and
/// outputImage), made from its ``FilterDeclaration``: what ``FilterRegistry`` lists and
/// `daguerre filters` prints.
///
/// ```swift
/// let blur = try FilterRegistry.descriptor(named: "CIGaussianBlur")
/// let soft = try blur.apply(["inputImage": .image(photo), "inputRadius": 2])
/// ```
public struct FilterDescriptor: Sendable {
    public let name: String
    public let displayName: String
    /// Core Image categories: CICategoryColorAdjustment, CICategoryBlur, ...
    public let categories: [String]
    public let description: String
    public let parameters: [FilterParameter]
    let run: @Sendable ([String: FilterValue]) throws(DaguerreError) -> Image

    init(
        name: String, displayName: String, categories: [String], description: String, parameters: [FilterParameter],
        run: @escaping @Sendable ([String: FilterValue]) throws(DaguerreError) -> Image
    ) {
        self.name = name
        self.displayName = displayName
        self.categories = categories
        self.description = description
        self.parameters = parameters
        self.run = run
    }

    /// Validates `values`, fills in defaults, and builds the output image.
    public func apply(_ values: [String: FilterValue]) throws(DaguerreError) -> Image { try run(values) }

    /// The parameter a user's word names: the exact key, or without case and without the
    /// `input` prefix (`radius`, `ev`, `inputEV`).
    public func parameter(named given: String) throws(DaguerreError) -> FilterParameter {
        let wanted = given.lowercased().hasPrefix("input") ? given.lowercased() : "input" + given.lowercased()
        if let p = parameters.first(where: { $0.key == given }) ?? parameters.first(where: { $0.key.lowercased() == wanted }) { return p }
        throw FilterParameter.unknown(given, filter: name, keys: parameters.map(\.key))
    }
}
