import DaguerreCore

/// One node of an image recipe (I1): immutable, shared between images, evaluated lazily.
///
/// A node knows its extent (domain of definition), how much of each input it needs for a
/// given output rectangle (region of interest), and how to make a ``RowProducer`` that yields
/// its pixels one row at a time for a tile. That is the whole execution model:
///
/// - *point-wise* nodes pull rows from their inputs and transform them in place, so a chain of
///   them runs as one fused pass over an L1-resident row (I3);
/// - *region* nodes (blurs, resampling, warps, general kernels) ask the renderer to store their
///   input's region of interest in a per-tile intermediate and compute from it, recomputing the
///   margin per tile rather than writing a full-size buffer (I3);
/// - *materialized* nodes (image processors, reductions) are computed once per render for the
///   union of what every tile needs, and cached by digest (K1, K2, I6).
class ImageNode: @unchecked Sendable {
    // Safety: every stored property of every subclass is a `let` set in init; nodes are
    // immutable after construction.

    enum Evaluation { case source, pointwise, region, materialized }

    let extent: Rect
    let inputs: [ImageNode]
    let digest: Digest

    /// `digestParts` adds the node's own parameters; the kind name and input digests are added here.
    init(extent: Rect, inputs: [ImageNode], kind: String, digestParts: (inout DigestBuilder) -> Void) {
        self.extent = extent
        self.inputs = inputs
        var d = DigestBuilder(kind)
        digestParts(&d)
        for i in inputs { d.add(i.digest) }
        digest = d.finish()
    }

    var evaluation: Evaluation { .pointwise }
    /// The name printed by the print tree.
    var label: String { String(describing: type(of: self)) }
    /// Parameters for the print tree.
    var details: String { "" }
    /// The output format a kernel declared (K3), nil for the working format.
    var outputFormat: PixelFormat? { nil }
    /// For sources, the colour space their pixels are encoded in; nil for everything else.
    var sourceColorSpace: ColorSpace? { nil }

    /// Pixels of input `index` needed to produce `rect`. Default: the same rectangle.
    func roi(for rect: IntRect, input index: Int) -> IntRect { rect }

    /// Makes the producer of `rect`'s rows for one tile.
    func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        throw .unsupported(feature: "Rendering \(label)", hint: "This node kind has no CPU implementation yet.")
    }

    /// Whole-pixel domain of definition, clamped for infinite extents.
    var pixelExtent: IntRect { extent.integral }
}

/// Yields the rows of one rectangle, top to bottom or in any order, as premultiplied linear
/// `SIMD4<Float>` in the working space. Made per tile, used by one worker.
protocol RowProducer: AnyObject {
    var rect: IntRect { get }
    /// Writes `rect.width` pixels of row `y` to `out`; pixels outside the node's extent are 0.
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>)
}

extension RowProducer {
    /// Makes row `y` transparent outside `dod` (the part of `rect` the node defines) and says
    /// whether any of the row is left to compute: the pixels `dod.x ..< dod.maxX`.
    func clear(outside dod: IntRect, row y: Int, _ out: UnsafeMutablePointer<SIMD4<Float>>) -> Bool {
        guard y >= dod.y, y < dod.maxY, !dod.isEmpty else {
            out.update(repeating: .zero, count: rect.width)
            return false
        }
        if dod.x > rect.x { out.update(repeating: .zero, count: dod.x - rect.x) }
        if dod.maxX < rect.maxX { (out + (dod.maxX - rect.x)).update(repeating: .zero, count: rect.maxX - dod.maxX) }
        return true
    }
}

/// A producer of transparent black: what any node yields outside its extent.
final class ZeroProducer: RowProducer {
    let rect: IntRect
    init(rect: IntRect) { self.rect = rect }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        out.update(repeating: .zero, count: rect.width)
    }
}
