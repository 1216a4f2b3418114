import DaguerreCore
import Foundation

/// The moving straight edge the swipe transitions share (SPEC I4). Pixel centres are projected
/// on the direction d = (cos angle, sin angle), s = (x + ½)·cos + (y + ½)·sin; over the time the
/// edge runs from the extent's lowest projection s₀ to its highest s₁ plus the band width w,
/// e(t) = s₀ + t·(s₁ − s₀ + w). Behind the edge (s < e) is the target image, the last w of it
/// the band (e − w ≤ s < e); ahead of it (s ≥ e) the image.
struct SwipeGeometry: Sendable {
    let cos: Float
    let sin: Float
    let edge: Float
    let width: Float

    init(extent: Rect, angle: Double, width: Double, time: Double) {
        let (c, s) = (Foundation.cos(angle), Foundation.sin(angle))
        let projections = [
            (extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY),
        ].map { $0.0 * c + $0.1 * s }
        let (s0, s1) = (projections.min() ?? 0, projections.max() ?? 0)
        self.cos = Float(c)
        self.sin = Float(s)
        self.width = Float(width)
        self.edge = Float(s0 + min(max(time, 0), 1) * (s1 - s0 + width))
    }

    /// The projection of the centre of pixel (x, y).
    @inline(__always) func position(_ x: Int, _ y: Int) -> Float { (Float(x) + 0.5) * cos + (Float(y) + 0.5) * sin }

    /// The projection of the centre of pixel (x, y) on the edge's own direction (−sin angle, cos angle).
    @inline(__always) func across(_ x: Int, _ y: Int) -> Float { (Float(y) + 0.5) * cos - (Float(x) + 0.5) * sin }

    /// The geometry's numbers, for a node's digest.
    func digest(_ d: inout DigestBuilder) {
        d.add(Double(cos))
        d.add(Double(sin))
        d.add(Double(edge))
        d.add(Double(width))
    }
}
