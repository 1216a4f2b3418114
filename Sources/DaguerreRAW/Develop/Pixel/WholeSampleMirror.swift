// Whole-sample mirroring of a coordinate at an edge (v(−k) = v(k), v(n−1+k) = v(n−1−k)): how the
// develop reads past a mosaic's or a plane's edge, which keeps a Bayer position's colour.
// One line of our own; named so that the demosaic's input and the noise reduction share it.

/// An index mirrored into `0 ..< size` by whole-sample reflection, clamped when it lies further
/// out than one reflection reaches.
///
/// ```swift
/// WholeSampleMirror.index(-2, 10)   // 2
/// WholeSampleMirror.index(11, 10)   // 7
/// ```
enum WholeSampleMirror {
    @inline(__always) static func index(_ v: Int, _ size: Int) -> Int {
        var m = v < 0 ? -v : v
        if m >= size { m = 2 * (size - 1) - m }
        return min(max(m, 0), size - 1)
    }
}
