import DaguerreCore

/// A stored copy of its input (CIImage's `insertingIntermediate(cache:)`): materialized once per
/// render for what the render needs, and, when `cache` is set, kept in the context's
/// intermediate cache under the input's digest (I6). An interactive editor puts one after the
/// expensive, rarely changing part of a recipe (a RAW develop, SPEC X7), so a re-render after a
/// change further down reads it instead of recomputing it.
final class IntermediateNode: ImageNode, MaterializingNode, @unchecked Sendable {
    let cache: Bool

    init(input: ImageNode, cache: Bool) {
        self.cache = cache
        // Uncached intermediates get a unique digest, so no cache entry ever matches them.
        let unique: Digest? = cache ? nil : KernelIdentity.next("uncached-intermediate")
        super.init(extent: input.extent, inputs: [input], kind: "intermediate") { d in if let unique { d.add(unique) } }
    }

    override var evaluation: Evaluation { .materialized }
    override var label: String { cache ? "intermediate (cached)" : "intermediate" }

    func materialize(rect: IntRect, renderer: Renderer) throws(DaguerreError) -> MaterializedBuffer {
        let region = rect.intersection(inputs[0].pixelExtent)
        let buffer = try renderer.renderToBuffer(inputs[0], rect: region, format: renderer.env.workingFormat)
        return MaterializedBuffer(buffer: buffer, rect: region)
    }
}

extension Image {
    /// This image stored as an intermediate when rendered, and kept between renders when
    /// `cache` is true (CIImage's `insertingIntermediate(cache:)`). Costs a full copy of what is
    /// rendered, in the working format: use it on the small, interactive renders it is for.
    ///
    /// ```swift
    /// let base = try raw.outputImage().insertingIntermediate(cache: true)   // developed once
    /// let edit = try base.applying(ExposureAdjust(ev: slider))               // re-rendered per change
    /// ```
    public func insertingIntermediate(cache: Bool = true) -> Image {
        if node.extent.isInfinite { return self }
        return Image(IntermediateNode(input: node, cache: cache))
    }
}
