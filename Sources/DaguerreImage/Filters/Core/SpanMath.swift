import DaguerreCore

/// Small pieces of pixel maths shared by the colour filters.
enum SpanMath {
    /// Rec. 709 / sRGB luminance weights (linear light, sRGB primaries: the default working space).
    static let luma = Luma.rec709

    @inline(__always) static func unpremultiply(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let a = v.w
        if a == 1 || a <= 0 { return v }
        return SIMD4(v.x / a, v.y / a, v.z / a, a)
    }
    @inline(__always) static func premultiply(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let a = v.w
        if a == 1 { return v }
        return SIMD4(v.x * a, v.y * a, v.z * a, a)
    }
    @inline(__always) static func luminance(_ v: SIMD4<Float>) -> Float { (v * luma).sum() }
    /// The Rec. 709 luminance of a premultiplied pixel's colour (unpremultiplied first).
    @inline(__always) static func colourLuminance(_ v: SIMD4<Float>) -> Float {
        let u = unpremultiply(v)
        return luminance(SIMD4(u.x, u.y, u.z, 0))
    }

    /// Applies `f` to every pixel's unpremultiplied colour. Opaque spans (the usual case: photos
    /// have no alpha) take a straight loop with no per-pixel branch.
    @inline(__always) static func forEachUnpremultiplied(_ span: PixelSpan, _ f: (SIMD4<Float>) -> SIMD4<Float>) {
        let p = span.pixels
        let n = span.count
        var opaque = true
        for i in 0..<n where p[i].w != 1 {
            opaque = false
            break
        }
        if opaque {
            for i in 0..<n { p[i] = f(p[i]) }
            return
        }
        for i in 0..<n {
            let v = p[i]
            if v.w == 1 { p[i] = f(v) } else if v.w > 0 { p[i] = premultiply(f(unpremultiply(v))) }
        }
    }
}

/// A table of floats behind a raw pointer, for lookups in pixel loops without bounds checks or
/// reference counting per access. Immutable once made; freed with the table.
final class FloatTable: @unchecked Sendable {
    // Safety: written only in init, read-only afterwards.
    let values: UnsafeMutablePointer<Float>
    let count: Int
    init(_ array: [Float]) {
        count = array.count
        values = .allocate(capacity: max(1, array.count))
        values.initialize(from: array, count: array.count)
    }
    deinit { values.deallocate() }
}

/// The sRGB curve as two half-indexed tables, for filters that act on perceptual values
/// (tone curve, contrast): one F16C conversion and a lookup per channel instead of `pow`.
final class PerceptualCurve: Sendable {
    let encodeTable: FloatTable
    let decodeTable: FloatTable
    static let shared = PerceptualCurve()
    private init() {
        encodeTable = FloatTable(LUTCache.shared.encodeHalfToFloat(.sRGB))
        decodeTable = FloatTable(LUTCache.shared.decodeHalfToFloat(.sRGB))
    }
    @inline(__always) func encode(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let h = SIMD4<Float16>(v)
        let t = encodeTable.values
        return SIMD4(t[Int(h.x.bitPattern)], t[Int(h.y.bitPattern)], t[Int(h.z.bitPattern)], v.w)
    }
    @inline(__always) func decode(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let h = SIMD4<Float16>(v)
        let t = decodeTable.values
        return SIMD4(t[Int(h.x.bitPattern)], t[Int(h.y.bitPattern)], t[Int(h.z.bitPattern)], v.w)
    }
    @inline(__always) func encode(_ v: Float) -> Float { encodeTable.values[Int(Float16(v).bitPattern)] }
    @inline(__always) func decode(_ v: Float) -> Float { decodeTable.values[Int(Float16(v).bitPattern)] }
}
