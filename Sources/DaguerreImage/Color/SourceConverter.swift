import DaguerreCore

/// Converts a source's stored rows into premultiplied linear working-space pixels (I2).
///
/// The conversion "colour match source → working space" is fused into the read: 8- and 16-bit
/// samples are linearised by table lookup, then one 3×3 matrix takes them to the working
/// primaries, then straight alpha is premultiplied. With colour management off (working space
/// nil) samples are only normalised to [0, 1].
final class SourceConverter: Sendable {
    let format: PixelFormat
    let premultiply: Bool
    let transfer: TransferFunction
    let lut8: [Float]
    let lut16: [Float]
    let matrix: LinearMatrix?
    /// For LUT-based ICC profiles: lcms2 takes the samples to linear sRGB.
    let iccTransform: ICCTransform?
    /// How the print tree describes the conversion.
    let summary: String

    init(format: PixelFormat, alpha: PixelBuffer.AlphaMode, space: ColorSpace?, working: ColorSpace?) throws(DaguerreError) {
        self.format = format
        premultiply = alpha == .straight && format.hasAlpha
        var t = TransferFunction.linear
        var m: Matrix3? = nil
        var icc: ICCTransform? = nil
        if let working, let space {
            let plan = WorkingConversion(space: space, working: working, direction: .toWorking)
            if space.isRGB, plan.matrix == nil {
                throw .colorManagement(detail: "the working space \(working.name) is not an RGB space")
            }
            t = plan.transfer
            m = plan.matrix
            // No analytic form: lcms2 takes the samples to linear sRGB, the matrix does the rest.
            if let profile = plan.profile { icc = try ICCTransform.toLinearSRGB(from: profile, format: format) }
            summary = "colormatch \(space.name) → working (\(working.name))"
        } else {
            summary = "no colour management"
        }
        transfer = t
        lut8 = format.component == .uint8 ? LUTCache.shared.decode8(t) : []
        lut16 = format.component == .uint16 ? LUTCache.shared.decode16(t) : []
        matrix = LinearMatrix.nonIdentity(m)
        iccTransform = icc
    }

    private init(scaling c: SourceConverter, by k: Float) {
        format = c.format
        premultiply = c.premultiply
        transfer = c.transfer
        lut8 = c.lut8.map { $0 * k }
        lut16 = []
        matrix = nil
        iccTransform = nil
        summary = c.summary + ", × \(k)"
    }

    /// This conversion followed by `m`, as one table, when `m` scales R, G and B alike by a
    /// positive factor (an exposure) and the samples are 8-bit, read by table alone (no matrix,
    /// no profile, no premultiplication: the scale and the alpha would round in another order).
    /// Bit for bit what ``LinearMatrix`` gives after the read: its off-diagonal products are +0
    /// (table values are ≥ 0), so each channel is one rounded product k × table[code]. Nil
    /// otherwise.
    func scaled(by m: Matrix3) -> SourceConverter? {
        let k = Float(m[0, 0])
        guard !lut8.isEmpty, matrix == nil, iccTransform == nil, !premultiply, k > 0, k.isFinite,
            m[1, 1] == m[0, 0], m[2, 2] == m[0, 0],
            m[0, 1] == 0, m[0, 2] == 0, m[1, 0] == 0, m[1, 2] == 0, m[2, 0] == 0, m[2, 1] == 0,
            lut8.allSatisfy({ $0 >= 0 })
        else { return nil }
        return SourceConverter(scaling: self, by: k)
    }

    func convert(_ src: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        if let iccTransform {
            if !format.hasAlpha { out.update(repeating: SIMD4(0, 0, 0, 1), count: count) }
            iccTransform.apply(src, into: out, count: count)  // alpha, if any, copied and scaled by lcms2
        } else {
            convertAnalytic(src, count: count, into: out)
        }
        if let matrix { matrix.apply(out, count: count) }
        if premultiply {
            for i in 0..<count {
                let a = out[i].w
                out[i] = SIMD4(out[i].x * a, out[i].y * a, out[i].z * a, a)
            }
        }
    }

    /// Whether ``convert`` only spreads RGB float rows to pixels with alpha 1 (linear samples in
    /// the working space, no matrix, profile or premultiplication: what RAW developers stream),
    /// so a packer that reads three floats a pixel can take the stored rows as they are.
    var passesFloatRGB: Bool {
        format == .rgbf && iccTransform == nil && matrix == nil && transfer.isLinear && !premultiply
    }

    /// Whether ``convertPlanar`` can give this source's rows: 8-bit RGB, RGBA or grey samples
    /// with an analytic curve (photos), not an lcms2 transform.
    var convertsToPlanes: Bool {
        iccTransform == nil && format.component == .uint8 && (format.layout == .rgb || format.layout == .rgba || format.layout == .l)
    }

    /// What ``convert`` gives, bit for bit (the same table lookups, matrix FMAs in the same order,
    /// the same premultiplication), written as R, G, B and A planes: a planar run reading this
    /// source needs no transpose (see ``PlanarChainProducer``). Only when ``convertsToPlanes``.
    /// Returns whether every alpha is 1 (always, for sources without alpha).
    func convertPlanar(_ src: UnsafeRawPointer, count: Int, into p: PlanarSpan) -> Bool {
        let s = src.assumingMemoryBound(to: UInt8.self)
        let r = p.r
        let g = p.g
        let b = p.b
        let a = p.a
        let n = count
        let opaque = !format.hasAlpha
        lut8.withUnsafeBufferPointer { lutBuffer in
            let lut = lutBuffer.baseAddress!
            switch format.layout {
            case .rgb:
                for i in 0..<n {
                    r[i] = lut[Int(s[3 * i])]
                    g[i] = lut[Int(s[3 * i + 1])]
                    b[i] = lut[Int(s[3 * i + 2])]
                }
            case .rgba:
                for i in 0..<n {
                    r[i] = lut[Int(s[4 * i])]
                    g[i] = lut[Int(s[4 * i + 1])]
                    b[i] = lut[Int(s[4 * i + 2])]
                    a[i] = Float(s[4 * i + 3]) * (1 / 255)
                }
            default:  // .l
                for i in 0..<n {
                    let v = lut[Int(s[i])]
                    r[i] = v
                    g[i] = v
                    b[i] = v
                }
            }
        }
        if opaque { a.update(repeating: 1, count: n) }
        if let matrix { matrix.apply(planes: p, count: n) }
        if premultiply {
            for i in 0..<n {
                let al = a[i]
                r[i] *= al
                g[i] *= al
                b[i] *= al
            }
        }
        return opaque
    }

    private func convertAnalytic(_ src: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        switch (format.layout, format.component) {
        case (.rgb, .uint8):
            lut8.withUnsafeBufferPointer { lut in
                let s = src.assumingMemoryBound(to: UInt8.self)
                for i in 0..<count {
                    out[i] = SIMD4(lut[Int(s[3 * i])], lut[Int(s[3 * i + 1])], lut[Int(s[3 * i + 2])], 1)
                }
            }
        case (.rgba, .uint8):
            lut8.withUnsafeBufferPointer { lut in
                let s = src.assumingMemoryBound(to: UInt8.self)
                let l = lut.baseAddress!
                var i = 0
                while i < count {
                    out[i] = SIMD4(l[Int(s[4 &* i])], l[Int(s[4 &* i &+ 1])], l[Int(s[4 &* i &+ 2])], Float(s[4 &* i &+ 3]) * (1 / 255))
                    i &+= 1
                }
            }
        case (.l, .uint8):
            lut8.withUnsafeBufferPointer { lut in
                let s = src.assumingMemoryBound(to: UInt8.self)
                for i in 0..<count {
                    let v = lut[Int(s[i])]
                    out[i] = SIMD4(v, v, v, 1)
                }
            }
        default:
            generic(src, count: count, into: out)
        }
    }

    /// Any layout: unpack to [0, 1] floats, then linearise colour channels.
    private func generic(_ src: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        switch format.component {
        case .uint8, .uint16:
            // Unpack raw codes, then look up each colour channel (alpha stays linear).
            let n = format.channels
            let scale: Float = format.component == .uint8 ? 255 : 65535
            for i in 0..<count {
                var code = SIMD4<Int>(0, 0, 0, Int(scale))
                for c in 0..<n {
                    code[c] =
                        format.component == .uint8
                        ? Int(src.load(fromByteOffset: i * n + c, as: UInt8.self))
                        : Int(src.loadUnaligned(fromByteOffset: (i * n + c) * 2, as: UInt16.self))
                }
                func lin(_ v: Int) -> Float { format.component == .uint8 ? lut8[v] : lut16[v] }
                switch format.layout {
                case .l:
                    let v = lin(code[0])
                    out[i] = SIMD4(v, v, v, 1)
                case .la:
                    let v = lin(code[0])
                    out[i] = SIMD4(v, v, v, Float(code[1]) / scale)
                case .r: out[i] = SIMD4(lin(code[0]), 0, 0, 1)
                case .rg: out[i] = SIMD4(lin(code[0]), lin(code[1]), 0, 1)
                case .rgb: out[i] = SIMD4(lin(code[0]), lin(code[1]), lin(code[2]), 1)
                case .rgba: out[i] = SIMD4(lin(code[0]), lin(code[1]), lin(code[2]), Float(code[3]) / scale)
                case .bgra: out[i] = SIMD4(lin(code[2]), lin(code[1]), lin(code[0]), Float(code[3]) / scale)
                }
            }
        case .float16, .float32:
            PixelUnpack.unpack(src, format: format, count: count, into: out)
            if !transfer.isLinear {
                let t = transfer
                for i in 0..<count {
                    let v = out[i]
                    out[i] = SIMD4(t.decode(v.x), t.decode(v.y), t.decode(v.z), v.w)
                }
            }
        }
    }
}
