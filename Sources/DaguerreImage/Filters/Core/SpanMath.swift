import DaguerreCore

/// Small pieces of pixel maths shared by the colour filters.
enum SpanMath {
    /// Rec. 709 / sRGB luminance weights (linear light, sRGB primaries: the default working space).
    static let luma = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

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

    /// Applies `f` to every pixel's unpremultiplied colour.
    @inline(__always) static func forEachUnpremultiplied(_ span: PixelSpan, _ f: (SIMD4<Float>) -> SIMD4<Float>) {
        let p = span.pixels
        for i in 0..<span.count {
            let v = p[i]
            if v.w == 1 { p[i] = f(v) } else if v.w > 0 { p[i] = premultiply(f(unpremultiply(v))) }
        }
    }
}

/// The sRGB curve as two half-indexed tables, for filters that act on perceptual values
/// (tone curve, contrast): one F16C conversion and a lookup per channel instead of `pow`.
struct PerceptualCurve: Sendable {
    let encodeTable: [Float]
    let decodeTable: [Float]
    static let shared = PerceptualCurve()
    private init() {
        encodeTable = LUTCache.shared.encodeHalfToFloat(.sRGB)
        decodeTable = LUTCache.shared.decodeHalfToFloat(.sRGB)
    }
    @inline(__always) func encode(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let h = SIMD4<Float16>(v)
        return encodeTable.withUnsafeBufferPointer { t in
            SIMD4(t[Int(h.x.bitPattern)], t[Int(h.y.bitPattern)], t[Int(h.z.bitPattern)], v.w)
        }
    }
    @inline(__always) func decode(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let h = SIMD4<Float16>(v)
        return decodeTable.withUnsafeBufferPointer { t in
            SIMD4(t[Int(h.x.bitPattern)], t[Int(h.y.bitPattern)], t[Int(h.z.bitPattern)], v.w)
        }
    }
    @inline(__always) func encode(_ v: Float) -> Float { encodeTable[Int(Float16(v).bitPattern)] }
    @inline(__always) func decode(_ v: Float) -> Float { decodeTable[Int(Float16(v).bitPattern)] }
}
