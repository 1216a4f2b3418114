// The tiles of the burst merge (SPEC P13): 16×16 pixels every 8, as HDR+ aligns and merges
// (Hasinoff et al. 2016), the first tile starting half a tile before the image so that the
// half-overlapping raised-cosine windows sum to one over every pixel. Our own code: no Debian or
// SwiftPM library does HDR+-style raw burst merging.
import Foundation

/// A grid of half-overlapping 16×16 tiles over a `width`×`height` plane.
///
/// Tile `(i, j)` covers pixels `8(i − 1) ..< 8(i − 1) + 16` across and likewise down, so its
/// centre is at `8i`; every pixel lies in exactly two tiles in each direction.
///
/// ```swift
/// let grid = TileGrid(width: 2016, height: 1512)
/// grid.columns           // 253
/// grid.origin(1)         // 0
/// ```
struct TileGrid: Sendable, Equatable {
    /// A tile's side and the step between tiles, in the plane's pixels.
    static let size = 16
    static let step = size / 2

    let width: Int
    let height: Int
    let columns: Int
    let rows: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        columns = (width + Self.step - 1) / Self.step + 1
        rows = (height + Self.step - 1) / Self.step + 1
    }

    var count: Int { columns * rows }

    /// The first pixel of tile `index` along either axis (negative for the first tile).
    @inline(__always) func origin(_ index: Int) -> Int { Self.step * (index - 1) }

    /// The raised-cosine window over `size` samples, w(i) = ½ − ½·cos(2π(i + ½)/size):
    /// w(i) + w(i + size/2) = 1, so half-overlapping tiles blend to the identity.
    static func raisedCosine(size n: Int) -> [Float] {
        (0..<n).map { i in Float(0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(n))) }
    }
}
