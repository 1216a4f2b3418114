import DaguerreCore

/// Converts working-space rows into a destination's colour space and pixel format (I2, I7):
/// one matrix to the destination primaries, then the destination curve and quantisation.
///
/// For 8-bit destinations the curve and rounding are one lookup indexed by the value's half-float
/// bit pattern; for float and 16-bit destinations the curve is evaluated from a half-indexed
/// table when the working format is RGBAh (its precision already) and exactly otherwise.
final class OutputConverter: Sendable {
    enum AlphaOutput: Sendable { case premultiplied, straight, none }

    let format: PixelFormat
    let alphaOutput: AlphaOutput
    let matrix: LinearMatrix?
    let transfer: TransferFunction
    private let lut8: [UInt8]
    private let lutF: [Float]
    /// RGB16 without alpha (16-bit TIFF and PNG): the half-indexed curve and the 16-bit pack in
    /// one lookup (``LUTCache/encodeHalfTo16(_:)``), where they were two passes over the row.
    private let lut16: [UInt16]
    /// For LUT-based ICC destinations: lcms2 encodes from linear sRGB.
    private let iccTransform: ICCTransform?
    let summary: String

    init(format: PixelFormat, alpha: AlphaOutput, destination: ColorSpace?, working: ColorSpace?, workingFormat: PixelFormat)
        throws(DaguerreError)
    {
        self.format = format
        self.alphaOutput = alpha
        var t = TransferFunction.linear
        var m: Matrix3? = nil
        var icc: ICCTransform? = nil
        if let working, let destination {
            let plan = WorkingConversion(space: destination, working: working, direction: .fromWorking)
            t = plan.transfer
            m = plan.matrix
            if let profile = plan.profile { icc = try ICCTransform.fromLinearSRGB(to: profile, format: format) }
            summary = "colormatch working → \(destination.name), \(format)"
        } else {
            summary = "no colour management, \(format)"
        }
        matrix = LinearMatrix.nonIdentity(m)
        iccTransform = icc
        transfer = t
        let exact = workingFormat.component == .float32
        // 8-bit RGB(A) always goes through the table: curve (if any), rounding and clamping in one lookup.
        lut8 = (format == .rgb8 || format == .rgba8) ? LUTCache.shared.encodeHalfTo8(t) : []
        lutF = (format.component != .uint8 && !t.isLinear && !exact) ? LUTCache.shared.encodeHalfToFloat(t) : []
        lut16 = (format == .rgb16 && alpha == .none && icc == nil && !lutF.isEmpty) ? LUTCache.shared.encodeHalfTo16(t) : []
    }

    /// Whether ``convert(planes:scratch:into:)`` applies: 8-bit RGB through the table, no lcms2
    /// transform and no alpha in the output (JPEG, RGB8 buffers).
    var packsPlanes: Bool { format == .rgb8 && alphaOutput == .none && iccTransform == nil && !lut8.isEmpty }

    /// Packs planes of unpremultiplied colour and alpha (a planar run's result) into `dst`: bit
    /// for bit what interleaving them (which premultiplies) and calling ``convert(_:count:into:)``
    /// gives, with no transpose. Only when ``packsPlanes``. Overwrites the planes; `scratch`
    /// holds `3 × count` half-float bit patterns.
    func convert(planes s: PlanarSpan, scratch: UnsafeMutablePointer<UInt16>, into dst: UnsafeMutableRawPointer) {
        let r = s.r
        let g = s.g
        let b = s.b
        let a = s.a
        let n = s.count
        // Premultiplied, as the interleaved row would hold them; opaque rows (an OR over alpha's
        // bits) are already.
        var notOne: UInt32 = 0
        for i in 0..<n { notOne |= a[i].bitPattern ^ 0x3F80_0000 }
        if notOne != 0 {
            for i in 0..<n {
                let al = a[i]
                r[i] *= al
                g[i] *= al
                b[i] *= al
            }
        }
        if let matrix { matrix.apply(planes: s, count: n) }
        // Half-float bit patterns, eight per conversion instruction, then one lookup each.
        let hr = scratch
        let hg = scratch + n
        let hb = scratch + 2 * n
        for i in 0..<n {
            hr[i] = Float16(r[i]).bitPattern
            hg[i] = Float16(g[i]).bitPattern
            hb[i] = Float16(b[i]).bitPattern
        }
        let d = dst.assumingMemoryBound(to: UInt8.self)
        lut8.withUnsafeBufferPointer { lutBuffer in
            let lut = lutBuffer.baseAddress!
            for i in 0..<n {
                d[3 * i] = lut[Int(hr[i])]
                d[3 * i + 1] = lut[Int(hg[i])]
                d[3 * i + 2] = lut[Int(hb[i])]
            }
        }
    }

    /// Whether ``convert(floatRGB:count:into:)`` applies: RGB8 or RGB16 through the table, no
    /// matrix, no lcms2 transform and no alpha in the output (JPEG, 16-bit TIFF and PNG).
    var packsFloatRGB: Bool {
        matrix == nil && iccTransform == nil && alphaOutput == .none && ((format == .rgb8 && !lut8.isEmpty) || !lut16.isEmpty)
    }

    /// Packs `count` pixels of RGB floats (opaque, unpremultiplied: a RAW develop's rows) into
    /// `dst`: bit for bit what ``convert(_:count:into:)`` gives for them spread to pixels with
    /// alpha 1, with no spreading. Input and output interleave the same three channels, so each
    /// float is one lookup by its half-float bit pattern. Only when ``packsFloatRGB``.
    func convert(floatRGB src: UnsafePointer<Float>, count: Int, into dst: UnsafeMutableRawPointer) {
        if !lut8.isEmpty {
            lut8.withUnsafeBufferPointer {
                Self.lookup(src, count: 3 &* count, table: $0.baseAddress!, into: dst.assumingMemoryBound(to: UInt8.self))
            }
        } else {
            lut16.withUnsafeBufferPointer {
                Self.lookup(src, count: 3 &* count, table: $0.baseAddress!, into: dst.assumingMemoryBound(to: UInt16.self))
            }
        }
    }

    /// `d[i] = l[half(s[i])]`: sixteen conversions in one instruction, then one lookup each.
    @inline(__always) private static func lookup<Code>(
        _ s: UnsafePointer<Float>, count: Int, table l: UnsafePointer<Code>, into d: UnsafeMutablePointer<Code>
    ) {
        let raw = UnsafeRawPointer(s)
        var i = 0
        while i &+ 16 <= count {
            // The sixteen bit patterns as four words, each split by shifts: a quarter of the
            // loads of reading them back one by one.
            let words = unsafeBitCast(
                SIMD16<Float16>(raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)), to: SIMD4<UInt64>.self)
            let o = d + i
            for w in 0..<4 {
                let v = words[w]
                o[4 &* w] = l[Int(truncatingIfNeeded: v & 0xFFFF)]
                o[4 &* w &+ 1] = l[Int(truncatingIfNeeded: (v >> 16) & 0xFFFF)]
                o[4 &* w &+ 2] = l[Int(truncatingIfNeeded: (v >> 32) & 0xFFFF)]
                o[4 &* w &+ 3] = l[Int(truncatingIfNeeded: v >> 48)]
            }
            i &+= 16
        }
        while i < count {
            d[i] = l[Int(Float16(s[i]).bitPattern)]
            i &+= 1
        }
    }

    /// Converts `count` pixels in place and packs them into `dst`.
    func convert(_ px: UnsafeMutablePointer<SIMD4<Float>>, count: Int, into dst: UnsafeMutableRawPointer) {
        if let matrix { matrix.apply(px, count: count) }
        if let iccTransform {
            for i in 0..<count {
                let a = px[i].w
                if a > 0 && a != 1 { px[i] = SIMD4(px[i].x / a, px[i].y / a, px[i].z / a, a) }
                px[i].w = max(0, min(1, a))  // lcms2 copies alpha, scaling it to the output's range
            }
            iccTransform.apply(px, into: dst, count: count)
            return
        }
        let needsUnpremultiply = alphaOutput != .none
        if needsUnpremultiply && (!transfer.isLinear || !lut8.isEmpty) || alphaOutput == .straight, !Self.isOpaque(px, count: count) {
            // Without a branch (blends give alphas that are 1 and not 1 in no pattern): a pixel
            // left alone is divided by 1, which changes no bit.
            for i in 0..<count {
                let a = px[i].w
                let d: Float = a != 1 && a > 0 ? a : 1
                px[i] = px[i] / SIMD4(d, d, d, 1)
            }
        }
        if !lut8.isEmpty {  // built only for RGB8 and RGBA8
            packLUT8(px, count: count, into: dst.assumingMemoryBound(to: UInt8.self), channels: format.channels)
            return
        }
        if !lut16.isEmpty {  // built only for RGB16 without alpha
            packLUT16(px, count: count, into: dst.assumingMemoryBound(to: UInt16.self))
            return
        }
        if !transfer.isLinear {
            if !lutF.isEmpty {
                lutF.withUnsafeBufferPointer { lut in
                    for i in 0..<count {
                        let h = SIMD4<Float16>(px[i])
                        px[i] = SIMD4(lut[Int(h.x.bitPattern)], lut[Int(h.y.bitPattern)], lut[Int(h.z.bitPattern)], px[i].w)
                    }
                }
            } else {
                // The exact curve: float working format, or 8-bit layouts other than RGB8/RGBA8.
                let t = transfer
                for i in 0..<count {
                    let v = px[i]
                    px[i] = SIMD4(t.encode(v.x), t.encode(v.y), t.encode(v.z), v.w)
                }
            }
        }
        if alphaOutput == .premultiplied && !transfer.isLinear {
            for i in 0..<count {
                let a = px[i].w
                if a != 1 { px[i] = SIMD4(px[i].x * a, px[i].y * a, px[i].z * a, a) }
            }
        }
        PixelPack.pack(px, count: count, format: format, into: dst)
    }

    /// Whether every alpha in the span is exactly 1 (an opaque image's row, which needs no
    /// unpremultiply): four pixels compared per step, alpha lanes only.
    static func isOpaque(_ px: UnsafePointer<SIMD4<Float>>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(px)
        let ones = SIMD16<Float>(repeating: 1)
        // Colour lanes are made 1 before the comparison.
        let colour = SIMD16<Int32>(1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0) .!= 0
        var i = 0
        while i &+ 4 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 16, as: SIMD16<Float>.self)
            if any(v.replacing(with: 1, where: colour) .!= ones) { return false }
            i &+= 4
        }
        while i < count {
            if px[i].w != 1 { return false }
            i &+= 1
        }
        return true
    }

    /// RGB16: curve + rounding + clamping in one table lookup per channel.
    private func packLUT16(_ px: UnsafeMutablePointer<SIMD4<Float>>, count: Int, into d: UnsafeMutablePointer<UInt16>) {
        lut16.withUnsafeBufferPointer { Self.lookupRGB(px, count: count, table: $0.baseAddress!, into: d) }
    }

    /// Three codes a pixel from a table indexed by half-float bit patterns (8- or 16-bit codes):
    /// four pixels' halves from one conversion, read back as indices from memory, where a pixel
    /// at a time cost two conversions and a lane extract per channel (1.3×).
    @inline(__always) private static func lookupRGB<Code>(
        _ px: UnsafePointer<SIMD4<Float>>, count: Int, table l: UnsafePointer<Code>,
        into d: UnsafeMutablePointer<Code>
    ) {
        let raw = UnsafeRawPointer(px)
        var halves = SIMD16<UInt16>()
        var i = 0
        while i &+ 4 <= count {
            halves = unsafeBitCast(
                SIMD16<Float16>(raw.loadUnaligned(fromByteOffset: i &* 16, as: SIMD16<Float>.self)), to: SIMD16<UInt16>.self)
            withUnsafeBytes(of: &halves) { bytes in
                let k = bytes.baseAddress!.assumingMemoryBound(to: UInt16.self)
                let o = d + 3 &* i
                for p in 0..<4 {
                    o[3 &* p] = l[Int(k[4 &* p])]
                    o[3 &* p &+ 1] = l[Int(k[4 &* p &+ 1])]
                    o[3 &* p &+ 2] = l[Int(k[4 &* p &+ 2])]
                }
            }
            i &+= 4
        }
        while i < count {
            let h = SIMD4<Float16>(px[i])
            d[3 &* i] = l[Int(h.x.bitPattern)]
            d[3 &* i &+ 1] = l[Int(h.y.bitPattern)]
            d[3 &* i &+ 2] = l[Int(h.z.bitPattern)]
            i &+= 1
        }
    }

    /// Curve + rounding + clamping in one table lookup per channel.
    private func packLUT8(_ px: UnsafeMutablePointer<SIMD4<Float>>, count: Int, into d: UnsafeMutablePointer<UInt8>, channels: Int) {
        lut8.withUnsafeBufferPointer { lut in
            if channels == 3 {
                Self.lookupRGB(px, count: count, table: lut.baseAddress!, into: d)
            } else {
                Self.lookupRGBA(px, count: count, table: lut.baseAddress!, into: d, premultiplied: alphaOutput == .premultiplied)
            }
        }
    }

    /// Alpha at or above this codes as 255 and leaves every premultiplied 8-bit code as the
    /// plain lookup gives it: a code c ≤ 255 times such an alpha is within 255 × 0.001 < 0.5 of
    /// c, and 255 × alpha rounds to 255. Blends of opaque images (a vignette over a photo) give
    /// alphas a rounding away from 1, which would otherwise take the arithmetic path.
    private static let opaqueEnough: Float = 0.999

    /// Four-channel codes: four pixels at a time from one half-float conversion when all four are
    /// opaque enough, each pixel's alpha arithmetic otherwise (bit for bit the same codes).
    @inline(__always) private static func lookupRGBA(
        _ px: UnsafePointer<SIMD4<Float>>, count: Int, table l: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>,
        premultiplied: Bool
    ) {
        let raw = UnsafeRawPointer(px)
        var halves = SIMD16<UInt16>()
        var i = 0
        while i &+ 4 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 16, as: SIMD16<Float>.self)
            // NaN alphas compare false and take the per-pixel path.
            if v[3] >= opaqueEnough && v[7] >= opaqueEnough && v[11] >= opaqueEnough && v[15] >= opaqueEnough {
                halves = unsafeBitCast(SIMD16<Float16>(v), to: SIMD16<UInt16>.self)
                withUnsafeBytes(of: &halves) { bytes in
                    let k = bytes.baseAddress!.assumingMemoryBound(to: UInt16.self)
                    let o = d + 4 &* i
                    for p in 0..<4 {
                        o[4 &* p] = l[Int(k[4 &* p])]
                        o[4 &* p &+ 1] = l[Int(k[4 &* p &+ 1])]
                        o[4 &* p &+ 2] = l[Int(k[4 &* p &+ 2])]
                        o[4 &* p &+ 3] = 255
                    }
                }
            } else {
                for p in i..<(i &+ 4) { lookupPixel(px[p], table: l, into: d + 4 &* p, premultiplied: premultiplied) }
            }
            i &+= 4
        }
        while i < count {
            lookupPixel(px[i], table: l, into: d + 4 &* i, premultiplied: premultiplied)
            i &+= 1
        }
    }

    /// One four-channel pixel's codes, alpha arithmetic included.
    @inline(__always) private static func lookupPixel(
        _ v: SIMD4<Float>, table lut: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>, premultiplied: Bool
    ) {
        let h = SIMD4<Float16>(v)
        // Opaque pixels (every developed RAW, most photos) skip the alpha arithmetic, which
        // gives them 255 and the plain lookups too.
        let opaque = v.w >= opaqueEnough
        let a = opaque ? 1 : max(0, min(1, v.w.isNaN ? 0 : v.w))
        if premultiplied && a != 1 {
            let enc = SIMD3<Float>(Float(lut[Int(h.x.bitPattern)]), Float(lut[Int(h.y.bitPattern)]), Float(lut[Int(h.z.bitPattern)])) * a
            d[0] = UInt8(enc.x.rounded())
            d[1] = UInt8(enc.y.rounded())
            d[2] = UInt8(enc.z.rounded())
        } else {
            d[0] = lut[Int(h.x.bitPattern)]
            d[1] = lut[Int(h.y.bitPattern)]
            d[2] = lut[Int(h.z.bitPattern)]
        }
        d[3] = opaque ? 255 : UInt8((a * 255).rounded())
    }
}
