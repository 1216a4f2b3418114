import DaguerreCore

/// A rectangle of stored pixels: a per-tile intermediate in the arena, a materialized
/// processor output, or a caller's buffer. Rows are read back as `SIMD4<Float>`.
///
/// Single- and two-channel formats read as (r, 0, 0, 1) and (r, g, 0, 1) (K3), luminance as
/// (l, l, l, a).
struct TileView: @unchecked Sendable {
    // Safety: a TileView points into memory owned by an arena (one worker), a materialized
    // buffer (immutable once made, kept alive by the render environment) or a caller's buffer
    // for the duration of the render call.
    let base: UnsafeMutableRawPointer
    let rect: IntRect
    let bytesPerRow: Int
    let format: PixelFormat

    /// Pixels `x ..< x + count` of row `y` (all inside `rect`) into `out`.
    func read(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let row = base + (y - rect.y) * bytesPerRow + (x - rect.x) * format.bytesPerPixel
        PixelUnpack.unpack(row, format: format, count: count, into: out)
    }
    /// One pixel (for samplers); coordinates must lie inside `rect`.
    @inline(__always) func pixel(x: Int, y: Int) -> SIMD4<Float> {
        let p = base + (y - rect.y) * bytesPerRow + (x - rect.x) * format.bytesPerPixel
        switch format {
        case .rgbah: return SIMD4<Float>(p.loadUnaligned(as: SIMD4<Float16>.self))
        case .rgbaf: return p.loadUnaligned(as: SIMD4<Float>.self)
        default:
            var v = SIMD4<Float>()
            PixelUnpack.unpack(UnsafeRawPointer(p), format: format, count: 1, into: &v)
            return v
        }
    }
    /// Writes `count` pixels from `src` at row `y`, column `x`.
    func write(y: Int, x: Int, count: Int, from src: UnsafePointer<SIMD4<Float>>) {
        let row = base + (y - rect.y) * bytesPerRow + (x - rect.x) * format.bytesPerPixel
        PixelPack.pack(src, count: count, format: format, into: row)
    }
}
