// The linear hook (SPEC X4; CIRAWFilter.linearSpaceFilter): a caller's stage that sees the
// developed image in linear light, right after demosaicking, lens correction and the colour
// matrix, before exposure and every non-linear step.
import DaguerreCore
import DaguerreImage

/// A stage run on the linear develop: any engine filter, a filter by name, or a closure (for
/// kernels).
///
/// ```swift
/// raw.linearSpaceFilter = LinearSpaceFilter(GaussianBlur(radius: 1))
/// raw.linearSpaceFilter = LinearSpaceFilter(name: "Vibrance", parameters: ["inputAmount": 0.3])
/// raw.linearSpaceFilter = LinearSpaceFilter { image in myKernel.apply(extent: image.extent, arguments: [.image(image)]) }
/// ```
public struct LinearSpaceFilter: Sendable {
    let body: @Sendable (Image) throws(DaguerreError) -> Image
    /// For the develop's description and cache keys.
    public let name: String

    public init(name: String = "closure", _ body: @escaping @Sendable (Image) throws(DaguerreError) -> Image) {
        self.name = name
        self.body = body
    }
    public init<F: Filter>(_ filter: F) {
        self.init(name: F.descriptor.name) { image throws(DaguerreError) in try image.applying(filter) }
    }
    public init(name: String, parameters: [String: FilterValue]) {
        self.init(name: name) { image throws(DaguerreError) in try image.applyingFilter(name, parameters: parameters) }
    }

    func apply(to image: Image) throws(DaguerreError) -> Image { try body(image) }
}
