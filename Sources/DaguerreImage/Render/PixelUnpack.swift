import DaguerreCore

/// Stored pixels → `SIMD4<Float>` rows, for every ``PixelFormat`` (no colour conversion).
///
/// The hot formats (RGBAh, RGBAf, RGBf, RGBA8) have straight loops that vectorise (F16C for half when
/// built with `-target-cpu haswell`); the rest go through a generic per-channel path.
enum PixelUnpack {
    static func unpack(_ src: UnsafeRawPointer, format: PixelFormat, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        switch format {
        case .rgbah:
            let s = src.assumingMemoryBound(to: SIMD4<Float16>.self)
            for i in 0..<count { out[i] = SIMD4<Float>(s[i]) }
        case .rgbaf:
            out.update(from: src.assumingMemoryBound(to: SIMD4<Float>.self), count: count)
        case .rgbf:
            // What the RAW developers stream. Four pixels at a time: twelve floats in one load and
            // one permute, where a pixel at a time cost a load, a blend and a permute each (2.5×
            // faster); the group stops where its 16-float load would pass the row's end.
            let s = src.assumingMemoryBound(to: Float.self)
            let dst = UnsafeMutableRawPointer(out)
            var i = 0
            while i &+ 6 <= count {
                let v = src.loadUnaligned(fromByteOffset: i &* 12, as: SIMD16<Float>.self)
                dst.storeBytes(
                    of: SIMD16(v[0], v[1], v[2], 1, v[3], v[4], v[5], 1, v[6], v[7], v[8], 1, v[9], v[10], v[11], 1),
                    toByteOffset: i &* 16, as: SIMD16<Float>.self)
                i &+= 4
            }
            while i < count {
                out[i] = SIMD4(s[3 &* i], s[3 &* i &+ 1], s[3 &* i &+ 2], 1)
                i &+= 1
            }
        case .rgba8:
            let s = src.assumingMemoryBound(to: SIMD4<UInt8>.self)
            let k = Float(1.0 / 255.0)
            for i in 0..<count { out[i] = SIMD4<Float>(s[i]) * k }
        default:
            generic(src, format: format, count: count, into: out)
        }
    }

    private static func generic(_ src: UnsafeRawPointer, format: PixelFormat, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let n = format.channels
        var ch = SIMD4<Float>()  // not an Array: no heap allocation per call
        for i in 0..<count {
            for c in 0..<n {
                let idx = i * n + c
                switch format.component {
                case .uint8: ch[c] = Float(src.load(fromByteOffset: idx, as: UInt8.self)) / 255
                case .uint16: ch[c] = Float(src.loadUnaligned(fromByteOffset: idx * 2, as: UInt16.self)) / 65535
                case .float16: ch[c] = Float(src.loadUnaligned(fromByteOffset: idx * 2, as: Float16.self))
                case .float32: ch[c] = src.loadUnaligned(fromByteOffset: idx * 4, as: Float.self)
                }
            }
            switch format.layout {
            case .r: out[i] = SIMD4(ch[0], 0, 0, 1)
            case .rg: out[i] = SIMD4(ch[0], ch[1], 0, 1)
            case .rgb: out[i] = SIMD4(ch[0], ch[1], ch[2], 1)
            case .rgba: out[i] = SIMD4(ch[0], ch[1], ch[2], ch[3])
            case .bgra: out[i] = SIMD4(ch[2], ch[1], ch[0], ch[3])
            case .l: out[i] = SIMD4(ch[0], ch[0], ch[0], 1)
            case .la: out[i] = SIMD4(ch[0], ch[0], ch[0], ch[1])
            }
        }
    }
}

/// `SIMD4<Float>` rows → stored pixels, rounding and clamping integer formats.
enum PixelPack {
    static func pack(_ src: UnsafePointer<SIMD4<Float>>, count: Int, format: PixelFormat, into dst: UnsafeMutableRawPointer) {
        switch format {
        case .rgbah:
            let d = dst.assumingMemoryBound(to: SIMD4<Float16>.self)
            for i in 0..<count { d[i] = SIMD4<Float16>(src[i]) }
        case .rgbaf:
            dst.assumingMemoryBound(to: SIMD4<Float>.self).update(from: src, count: count)
        case .rgba8:
            let d = dst.assumingMemoryBound(to: SIMD4<UInt8>.self)
            for i in 0..<count {
                let s = src[i].replacing(with: 0, where: src[i] .!= src[i])  // NaN → 0
                let v = pointwiseMin(pointwiseMax(s * 255, .zero), SIMD4(repeating: 255)).rounded(.toNearestOrEven)
                d[i] = SIMD4<UInt8>(truncatingIfNeeded: SIMD4<Int32>(v))
            }
        case .rgb16, .rgba16:
            // 16-bit TIFF and PNG output: as `generic` lane for lane (rounding half away from
            // zero, NaN to 65535 by Swift's min/max), four channels at a time.
            let top = SIMD4<Float>(repeating: 65535)
            let channels = format.channels
            // v is a whole number in 0…65535, so v + 2²³ is exact and its low 16 bits are v: the
            // integer conversion becomes an add and a lane narrowing, which vectorize (the generic
            // SIMD float → integer conversion is not lowered to one instruction).
            let magic = SIMD4<Float>(repeating: 8_388_608)
            @inline(__always) func words(_ i: Int) -> SIMD4<UInt16> {
                let r = (src[i] * 65535).rounded(.toNearestOrAwayFromZero)
                let m = top.replacing(with: r, where: r .< top)
                let v = SIMD4<Float>.zero.replacing(with: m, where: m .>= .zero)
                return SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(v + magic, to: SIMD4<UInt32>.self))
            }
            var d = dst
            if channels == 4 {
                for i in 0..<count {
                    d.storeBytes(of: words(i), as: SIMD4<UInt16>.self)
                    d += 8
                }
            } else if count > 0 {
                // Eight bytes a pixel, the fourth word overwritten by the next pixel; the last
                // pixel writes only its three.
                for i in 0..<(count - 1) {
                    d.storeBytes(of: words(i), as: SIMD4<UInt16>.self)
                    d += 6
                }
                let w = words(count - 1)
                d.storeBytes(of: w.x, as: UInt16.self)
                d.storeBytes(of: w.y, toByteOffset: 2, as: UInt16.self)
                d.storeBytes(of: w.z, toByteOffset: 4, as: UInt16.self)
            }
        default:
            generic(src, count: count, format: format, into: dst)
        }
    }

    /// Every format, one channel at a time: the reference the fast paths above must match.
    static func generic(_ src: UnsafePointer<SIMD4<Float>>, count: Int, format: PixelFormat, into dst: UnsafeMutableRawPointer) {
        let n = format.channels
        let w = Luma.rec709
        for i in 0..<count {
            let v = src[i]
            let ch: SIMD4<Float>
            switch format.layout {
            case .r, .rg, .rgb, .rgba: ch = v
            case .bgra: ch = SIMD4(v.z, v.y, v.x, v.w)
            case .l: ch = SIMD4(w.x * v.x + w.y * v.y + w.z * v.z, 0, 0, 0)
            case .la: ch = SIMD4(w.x * v.x + w.y * v.y + w.z * v.z, v.w, 0, 0)
            }
            for c in 0..<n {
                let idx = i * n + c
                let x = ch[c]
                switch format.component {
                case .uint8: dst.storeBytes(of: UInt8(max(0, min(255, (x * 255).rounded()))), toByteOffset: idx, as: UInt8.self)
                case .uint16: dst.storeBytes(of: UInt16(max(0, min(65535, (x * 65535).rounded()))), toByteOffset: idx * 2, as: UInt16.self)
                case .float16: dst.storeBytes(of: Float16(x), toByteOffset: idx * 2, as: Float16.self)
                case .float32: dst.storeBytes(of: x, toByteOffset: idx * 4, as: Float.self)
                }
            }
        }
    }
}
