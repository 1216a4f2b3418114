import DaguerreCore

/// The input's pixels unchanged, marked to be sampled without interpolation (Core Image's
/// `samplingNearest()`; SPEC I4): whatever samples this node between pixel centres, a kernel's
/// ``Sampler``, a warp or an affine transform, reads the pixel under the point instead of
/// blending its neighbours. The mark belongs to this image only: a filter applied to it makes
/// an image sampled as usual again.
final class NearestSamplingNode: ImageNode, @unchecked Sendable {
    init(input: ImageNode) {
        super.init(extent: input.extent, inputs: [input], kind: "samplingNearest") { _ in }
    }
    override var label: String { "sampling nearest" }
    override func roi(for rect: IntRect, input index: Int) -> IntRect { rect }
    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        OffsetProducer(rect: rect, dy: 0, input: try context.producer(of: inputs[0], rect: rect))
    }
}
