// RGB ↔ Y'CbCr 4:2:0 conversion in Swift (BT.709 and BT.601 matrices, video or full range).
import DaguerreCore
import DaguerreFormats

/// Converts 8-bit RGB pixels to planar Y'CbCr 4:2:0 for the H.264 encoder, and decoded
/// Y'CbCr frames back to RGBA.
///
/// Forward (the hot path of Live Photo recording, SPEC L2): BT.709 matrix, video range, 16-bit
/// fixed-point coefficients rounded so that grey stays exactly neutral (each chroma row sums to
/// zero); each 2×2 block's chroma is the mean of its four pixels. Two rows per pass, one
/// pointer walk, no allocation. The transfer curve is left alone (see ``VideoColorProperties``).
/// Alpha is ignored: video frames are opaque.
///
/// Backward (decoding, and a camera's BGRA frames): float per pixel with the matrix and range
/// the stream declares, into RGBA8 or BGRA8 (RGBA16 from deeper planes), decoded frames in bands
/// on every core. (A decoded frame shrunk for a preview is converted by libswscale instead:
/// ``VideoDecoder``.)
///
/// ```swift
/// let yuv = try YCbCrConversion.makeYCbCr420(from: rgbaFrame)
/// let rgba = try YCbCrConversion.makeRGBA(from: yuv)
/// ```
public enum YCbCrConversion {
    /// A 4:2:0 frame from an RGBA8, BGRA8 or RGB8 buffer with even width and height, in video
    /// range (420v) or full range (420f).
    public static func makeYCbCr420(from buffer: PixelBuffer, colorProperties: VideoColorProperties? = nil, fullRange: Bool = false)
        throws(DaguerreError) -> PlanarYCbCr420Buffer
    {
        var frame = try PlanarYCbCr420Buffer(
            width: buffer.width, height: buffer.height,
            colorProperties: colorProperties ?? VideoColorProperties(colorSpace: buffer.colorSpace), fullRange: fullRange)
        try convert(buffer, into: &frame, fullRange: fullRange)
        return frame
    }

    /// Fills `frame` (same size as `buffer`) from an RGBA8, BGRA8 or RGB8 buffer, in video range
    /// unless `fullRange`.
    public static func convert(_ buffer: PixelBuffer, into frame: inout PlanarYCbCr420Buffer, fullRange: Bool = false)
        throws(DaguerreError)
    {
        guard frame.width == buffer.width, frame.height == buffer.height else {
            throw .invalidArgument(
                what: "Frame of \(buffer.width)×\(buffer.height)", problem: "the Y'CbCr frame is \(frame.width)×\(frame.height)")
        }
        let layout = try channelLayout(of: buffer.format)
        let w = buffer.width
        let h = buffer.height
        frame.fullRange = fullRange
        let bytesPerRow = buffer.bytesPerRow
        frame.luma.withUnsafeMutableBufferPointer { yp in
            frame.cb.withUnsafeMutableBufferPointer { cbp in
                frame.cr.withUnsafeMutableBufferPointer { crp in
                    buffer.withUnsafeBytes { src in
                        guard let base = src.baseAddress, let y = yp.baseAddress, let cb = cbp.baseAddress, let cr = crp.baseAddress else {
                            return
                        }
                        // Bands of whole row pairs on every core: each pair is converted alone, so
                        // the planes are the same whichever band runs where.
                        let pairs = h / 2
                        let bands = pairs >= 64 ? min(WorkerPool.processorCount * 2, pairs / 32) : 1
                        let planes = UnsafeTransfer((base, y, cb, cr))
                        WorkerPool.forEach(bands) { band in
                            let (base, y, cb, cr) = planes.value
                            let first = pairs * band / bands
                            let rows = 2 * (pairs * (band + 1) / bands - first)
                            let top = 2 * first
                            convertRGB(
                                base + top * bytesPerRow, bytesPerRow: bytesPerRow, layout: layout, width: w, height: rows,
                                y: y + top * w, yStride: w, cb: cb + first * (w / 2), cbStride: w / 2, cr: cr + first * (w / 2),
                                crStride: w / 2, fullRange: fullRange)
                        }
                    }
                }
            }
        }
    }

    /// Byte offsets of R, G, B in a pixel and the pixel size.
    struct ChannelLayout {
        var r: Int, g: Int, b: Int, size: Int
        /// RGBA8: what channelLayout(of:) gives for `.rgba8` and what makeRGBA writes.
        static let rgba = ChannelLayout(r: 0, g: 1, b: 2, size: 4)
    }

    static func channelLayout(of format: PixelFormat) throws(DaguerreError) -> ChannelLayout {
        switch format {
        case .rgba8: return .rgba
        case .bgra8: return ChannelLayout(r: 2, g: 1, b: 0, size: 4)
        case .rgb8: return ChannelLayout(r: 0, g: 1, b: 2, size: 3)
        default:
            throw .unsupported(
                feature: "Video frames in \(format)",
                hint: "Give RGBA8, BGRA8 or RGB8 frames (Context.createBuffer(_:format: .rgba8)), or planar Y'CbCr 4:2:0.")
        }
    }

    /// BT.709 × video range (219/255 luma, 224/255 chroma) × 65536, and at full range; chroma
    /// rows sum to zero.
    static let videoRange = YCbCrMatrix.bt709.fixedPoint(fullRange: false)
    static let fullRange = YCbCrMatrix.bt709.fixedPoint(fullRange: true)

    /// The pointer-level forward conversion: `height` rows of `width` pixels (both even).
    static func convertRGB(
        _ src: UnsafeRawPointer, bytesPerRow: Int, layout: ChannelLayout, width: Int, height: Int,
        y: UnsafeMutablePointer<UInt8>, yStride: Int,
        cb: UnsafeMutablePointer<UInt8>, cbStride: Int,
        cr: UnsafeMutablePointer<UInt8>, crStride: Int, fullRange: Bool = false
    ) {
        // Constants copied into locals: without `restrict`, LLVM would reload them after every store (TOOLCHAIN.md).
        let fixedPoint = fullRange ? Self.fullRange : Self.videoRange
        let (yr, yg, yb) = fixedPoint.luma
        let (cbr, cbg, cbb) = fixedPoint.cb
        let (crr, crg, crb) = fixedPoint.cr
        let ro = layout.r
        let go = layout.g
        let bo = layout.b
        let px = layout.size
        // Full-range chroma reaches 255.5 for pure blue or red: clamped (video range stays below 241).
        let lumaBias: Int32 = (fullRange ? 0 : 16 << 16) + (1 << 15)
        let chromaBias: Int32 = (128 << 18) + (1 << 17)
        let pairs = width / 2
        if px == 4, bytesPerRow % 4 == 0, Int(bitPattern: src) % 4 == 0 {
            // Four-byte pixels: one 32-bit load per pixel, channels taken out by shifts
            // (little-endian memory order: byte k is bits 8k…8k+7).
            let rs = UInt32(8 * ro)
            let gs = UInt32(8 * go)
            let bs = UInt32(8 * bo)
            var row = 0
            while row + 1 < height {
                let s0 = src.advanced(by: row * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                let s1 = src.advanced(by: (row + 1) * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                let y0 = y + row * yStride
                let y1 = y + (row + 1) * yStride
                let cbRow = cb + (row / 2) * cbStride
                let crRow = cr + (row / 2) * crStride
                // Luma: every pixel on its own, contiguous, so LLVM vectorises it.
                for x in 0..<width {
                    let p = UInt32(littleEndian: s0[x])
                    let q = UInt32(littleEndian: s1[x])
                    let r0 = Int32(bitPattern: (p >> rs) & 0xFF)
                    let g0 = Int32(bitPattern: (p >> gs) & 0xFF)
                    let b0 = Int32(bitPattern: (p >> bs) & 0xFF)
                    let r1 = Int32(bitPattern: (q >> rs) & 0xFF)
                    let g1 = Int32(bitPattern: (q >> gs) & 0xFF)
                    let b1 = Int32(bitPattern: (q >> bs) & 0xFF)
                    y0[x] = UInt8(truncatingIfNeeded: (yr &* r0 &+ yg &* g0 &+ yb &* b0 &+ lumaBias) >> 16)
                    y1[x] = UInt8(truncatingIfNeeded: (yr &* r1 &+ yg &* g1 &+ yb &* b1 &+ lumaBias) >> 16)
                }
                // Chroma: the mean of each 2×2 block.
                for i in 0..<pairs {
                    let p00 = UInt32(littleEndian: s0[2 * i])
                    let p01 = UInt32(littleEndian: s0[2 * i + 1])
                    let p10 = UInt32(littleEndian: s1[2 * i])
                    let p11 = UInt32(littleEndian: s1[2 * i + 1])
                    let rsum = Int32(
                        bitPattern: ((p00 >> rs) & 0xFF) &+ ((p01 >> rs) & 0xFF) &+ ((p10 >> rs) & 0xFF) &+ ((p11 >> rs) & 0xFF))
                    let gsum = Int32(
                        bitPattern: ((p00 >> gs) & 0xFF) &+ ((p01 >> gs) & 0xFF) &+ ((p10 >> gs) & 0xFF) &+ ((p11 >> gs) & 0xFF))
                    let bsum = Int32(
                        bitPattern: ((p00 >> bs) & 0xFF) &+ ((p01 >> bs) & 0xFF) &+ ((p10 >> bs) & 0xFF) &+ ((p11 >> bs) & 0xFF))
                    cbRow[i] = UInt8(truncatingIfNeeded: min((cbr &* rsum &+ cbg &* gsum &+ cbb &* bsum &+ chromaBias) >> 18, 255))
                    crRow[i] = UInt8(truncatingIfNeeded: min((crr &* rsum &+ crg &* gsum &+ crb &* bsum &+ chromaBias) >> 18, 255))
                }
                row += 2
            }
            return
        }
        var row = 0
        while row + 1 < height {
            let s0 = src.advanced(by: row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let s1 = src.advanced(by: (row + 1) * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let y0 = y + row * yStride
            let y1 = y + (row + 1) * yStride
            let cbRow = cb + (row / 2) * cbStride
            let crRow = cr + (row / 2) * crStride
            for i in 0..<pairs {
                let a = 2 * i * px
                let b = a + px
                let r00 = Int32(s0[a + ro])
                let g00 = Int32(s0[a + go])
                let b00 = Int32(s0[a + bo])
                let r01 = Int32(s0[b + ro])
                let g01 = Int32(s0[b + go])
                let b01 = Int32(s0[b + bo])
                let r10 = Int32(s1[a + ro])
                let g10 = Int32(s1[a + go])
                let b10 = Int32(s1[a + bo])
                let r11 = Int32(s1[b + ro])
                let g11 = Int32(s1[b + go])
                let b11 = Int32(s1[b + bo])
                y0[2 * i] = UInt8(truncatingIfNeeded: (yr &* r00 &+ yg &* g00 &+ yb &* b00 &+ lumaBias) >> 16)
                y0[2 * i + 1] = UInt8(truncatingIfNeeded: (yr &* r01 &+ yg &* g01 &+ yb &* b01 &+ lumaBias) >> 16)
                y1[2 * i] = UInt8(truncatingIfNeeded: (yr &* r10 &+ yg &* g10 &+ yb &* b10 &+ lumaBias) >> 16)
                y1[2 * i + 1] = UInt8(truncatingIfNeeded: (yr &* r11 &+ yg &* g11 &+ yb &* b11 &+ lumaBias) >> 16)
                let rs = r00 &+ r01 &+ r10 &+ r11
                let gs = g00 &+ g01 &+ g10 &+ g11
                let bs = b00 &+ b01 &+ b10 &+ b11
                cbRow[i] = UInt8(truncatingIfNeeded: min((cbr &* rs &+ cbg &* gs &+ cbb &* bs &+ chromaBias) >> 18, 255))
                crRow[i] = UInt8(truncatingIfNeeded: min((crr &* rs &+ crg &* gs &+ crb &* bs &+ chromaBias) >> 18, 255))
            }
            row += 2
        }
    }

    /// An RGBA8 buffer (opaque) from a 4:2:0 frame, tagged with the frame's RGB colour space.
    public static func makeRGBA(from frame: PlanarYCbCr420Buffer) throws(DaguerreError) -> PixelBuffer {
        var out = try PixelBuffer(
            width: frame.width, height: frame.height, format: .rgba8,
            colorSpace: frame.colorProperties.rgbColorSpace, alpha: .straight)
        try convert(frame, into: &out)
        return out
    }

    /// Fills an RGBA8 or BGRA8 buffer of the frame's size from a 4:2:0 frame (opaque: alpha
    /// 255), keeping the buffer's tags. One pass: a BGRA consumer (a camera's BGRA format, SPEC
    /// C4) gets exactly ``makeRGBA(from:)``'s pixels with red and blue swapped, without a
    /// second pass over an RGBA copy.
    public static func convert(_ frame: PlanarYCbCr420Buffer, into buffer: inout PixelBuffer) throws(DaguerreError) {
        guard buffer.width == frame.width, buffer.height == frame.height else {
            throw .invalidArgument(
                what: "Buffer of \(buffer.width)×\(buffer.height)", problem: "the Y'CbCr frame is \(frame.width)×\(frame.height)")
        }
        // Checked before channelLayout(of:), whose message is for the forward direction (it
        // offers RGB8, which this direction cannot write: its pixels are four bytes with alpha).
        guard buffer.format == .rgba8 || buffer.format == .bgra8 else {
            throw .unsupported(feature: "Y'CbCr to \(buffer.format)", hint: "Convert into an RGBA8 or BGRA8 buffer.")
        }
        let layout = try channelLayout(of: buffer.format)
        let rowBytes = buffer.bytesPerRow
        try frame.luma.withUnsafeBufferPointer { (yp) throws(DaguerreError) in
            try frame.cb.withUnsafeBufferPointer { (cbp) throws(DaguerreError) in
                try frame.cr.withUnsafeBufferPointer { (crp) throws(DaguerreError) in
                    guard let y = yp.baseAddress, let cb = cbp.baseAddress, let cr = crp.baseAddress else {
                        throw .invalidArgument(what: "Y'CbCr frame", problem: "empty planes")
                    }
                    buffer.withUnsafeMutableBytes { raw in
                        guard let base = raw.baseAddress else { return }
                        convertYCbCr(
                            y: y, yStride: frame.width, cb: cb, cbStride: frame.width / 2, cr: cr, crStride: frame.width / 2,
                            width: frame.width, height: frame.height, matrix: frame.colorProperties.matrix,
                            fullRange: frame.fullRange, into: base, bytesPerRow: rowBytes, layout: layout)
                    }
                }
            }
        }
    }

    /// The planes of a decoded 4:2:0 frame (chroma at half width and height, rounded up):
    /// one byte per sample at 8 bits, a little-endian 16-bit word above. Strides are in bytes.
    struct Planes420 {
        var y: UnsafeRawPointer, yStride: Int
        var cb: UnsafeRawPointer, cbStride: Int
        var cr: UnsafeRawPointer, crStride: Int
        var width: Int, height: Int
        /// 8 to 16.
        var bitDepth: Int
    }

    /// The pointer-level backward conversion into `out`, of the planes' size: RGBA8 from 8-bit
    /// planes, RGBA16 from deeper ones.
    static func convert(_ p: Planes420, matrix: UInt16, fullRange: Bool, into out: inout PixelBuffer) {
        let deep = p.bitDepth > 8
        assert(out.width == p.width && out.height == p.height && out.format == (deep ? .rgba16 : .rgba8))
        let rowBytes = out.bytesPerRow
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            // Bands of whole row pairs (one chroma row each) on every core: each row is
            // converted alone, so the pixels are the same whichever band runs where.
            let pairs = (p.height + 1) / 2
            let bands = pairs >= 64 ? min(WorkerPool.processorCount * 2, pairs / 32) : 1
            let shared = UnsafeTransfer((p, base))
            WorkerPool.forEach(bands) { band in
                let (p, base) = shared.value
                let top = 2 * (pairs * band / bands)
                let bottom = min(p.height, 2 * (pairs * (band + 1) / bands))
                var part = p
                part.y += top * p.yStride
                part.cb += (top / 2) * p.cbStride
                part.cr += (top / 2) * p.crStride
                part.height = bottom - top
                let into = base + top * rowBytes
                if deep {
                    convertDeepYCbCr(part, matrix: matrix, fullRange: fullRange, into: into, bytesPerRow: rowBytes)
                } else {
                    convertYCbCr(
                        y: part.y.assumingMemoryBound(to: UInt8.self), yStride: part.yStride,
                        cb: part.cb.assumingMemoryBound(to: UInt8.self), cbStride: part.cbStride,
                        cr: part.cr.assumingMemoryBound(to: UInt8.self), crStride: part.crStride,
                        width: part.width, height: part.height, matrix: matrix, fullRange: fullRange, into: into, bytesPerRow: rowBytes,
                        layout: .rgba)
                }
            }
        }
    }

    /// The backward matrix for samples of `bitDepth` bits to R'G'B' in 0…`maximum`: luma and
    /// chroma offsets and scales (video range: 219 and 224 steps of 2^(depth − 8); full range:
    /// the whole code range), then the chroma weights of the matrix code.
    struct BackwardCoefficients {
        var crToR: Float, cbToG: Float, crToG: Float, cbToB: Float
        var yOffset: Float, yScale: Float, cOffset: Float, cScale: Float

        init(matrix: UInt16, fullRange: Bool, bitDepth: Int, maximum: Float) {
            // Kr, Kb of the matrix: BT.601 (5, 6), BT.2020 (9, 10), otherwise BT.709.
            let weights = YCbCrMatrix(code: matrix)
            let kr = Float(weights.kr)
            let kb = Float(weights.kb)
            let kg = 1 - kr - kb
            crToR = 2 * (1 - kr)
            cbToB = 2 * (1 - kb)
            cbToG = -cbToB * kb / kg
            crToG = -crToR * kr / kg
            let step = Float(1 << (bitDepth - 8))
            let codes = Float((1 << bitDepth) - 1)
            yOffset = fullRange ? 0 : 16 * step
            yScale = fullRange ? maximum / codes : maximum / (219 * step)
            cOffset = 128 * step
            cScale = fullRange ? maximum / codes : maximum / (224 * step)
        }
    }

    /// Writes `height` rows of `width` opaque four-byte pixels with R, G, B at `layout`'s
    /// offsets and alpha at byte 3.
    static func convertYCbCr(
        y: UnsafePointer<UInt8>, yStride: Int, cb: UnsafePointer<UInt8>, cbStride: Int,
        cr: UnsafePointer<UInt8>, crStride: Int, width: Int, height: Int, matrix: UInt16, fullRange: Bool,
        into base: UnsafeMutableRawPointer, bytesPerRow rowBytes: Int, layout: ChannelLayout
    ) {
        let k = BackwardCoefficients(matrix: matrix, fullRange: fullRange, bitDepth: 8, maximum: 255)
        let ro = layout.r
        let go = layout.g
        let bo = layout.b
        // Each term of the formula for each of the 256 codes, computed as the formula computes
        // it (the same operations in the same order), so the tables change no pixel.
        var terms = [Float](repeating: 0, count: 5 * 256)
        for c in 0..<256 {
            let l = (Float(c) - k.yOffset) * k.yScale
            let chroma = (Float(c) - k.cOffset) * k.cScale
            terms[c] = l
            terms[256 + c] = k.crToR * chroma
            terms[512 + c] = k.cbToG * chroma
            terms[768 + c] = k.crToG * chroma
            terms[1024 + c] = k.cbToB * chroma
        }
        terms.withUnsafeBufferPointer { t in
            guard let luma = t.baseAddress else { return }
            let crToR = luma + 256
            let cbToG = luma + 512
            let crToG = luma + 768
            let cbToB = luma + 1024
            for row in 0..<height {
                let d = (base + row * rowBytes).assumingMemoryBound(to: UInt8.self)
                let yr = y + row * yStride
                let cbr = cb + (row / 2) * cbStride
                let crr = cr + (row / 2) * crStride
                let vectorEnd = width & ~7
                convertRow8(
                    y: yr, cb: cbr, cr: crr, count: vectorEnd, k: k, into: UnsafeMutableRawPointer(d), shifts: (8 * ro, 8 * go, 8 * bo))
                for x in vectorEnd..<width {
                    let l = luma[Int(yr[x])]
                    let u = Int(cbr[x / 2])
                    let v = Int(crr[x / 2])
                    d[4 * x + ro] = clamp8(l + crToR[v])
                    d[4 * x + go] = clamp8(l + cbToG[u] + crToG[v])
                    d[4 * x + bo] = clamp8(l + cbToB[u])
                    d[4 * x + 3] = 255
                }
            }
        }
    }

    /// One row's first `count` (a multiple of 8) pixels, eight at a time: the same operations
    /// in the same order as the per-code tables of ``convertYCbCr``, so the same codes, each
    /// pixel stored as one 32-bit word with R, G and B at `shifts` and alpha in the top byte.
    @inline(__always) private static func convertRow8(
        y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, count: Int, k: BackwardCoefficients,
        into d: UnsafeMutableRawPointer, shifts: (Int, Int, Int)
    ) {
        let half = SIMD8<Float>(repeating: 0.5)
        let low = SIMD8<Float>(repeating: 0)
        let high = SIMD8<Float>(repeating: 255)
        let alpha = SIMD8<UInt32>(repeating: 0xFF00_0000)
        let (rs, gs, bs) = (UInt32(shifts.0), UInt32(shifts.1), UInt32(shifts.2))
        // A whole number in 0…255 plus 2²³ has that number in its float's low mantissa bits:
        // the conversion to an integer without the library's generic per-lane one.
        let magic = SIMD8<Float>(repeating: 8_388_608)
        let byte = SIMD8<UInt32>(repeating: 0xFF)
        @inline(__always) func code(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
            let r = (v + half).rounded(.down)
            let above = low.replacing(with: r, where: r .> low)
            let clamped = high.replacing(with: above, where: above .< high)
            return unsafeBitCast(clamped + magic, to: SIMD8<UInt32>.self) & byte
        }
        var x = 0
        while x < count {
            let yv = SIMD8<Float>(UnsafeRawPointer(y + x).loadUnaligned(as: SIMD8<UInt8>.self))
            let c4b = UnsafeRawPointer(cb + x / 2).loadUnaligned(as: SIMD4<UInt8>.self)
            let c4r = UnsafeRawPointer(cr + x / 2).loadUnaligned(as: SIMD4<UInt8>.self)
            let ub = SIMD8<Float>(SIMD8<UInt8>(c4b[0], c4b[0], c4b[1], c4b[1], c4b[2], c4b[2], c4b[3], c4b[3]))
            let vr = SIMD8<Float>(SIMD8<UInt8>(c4r[0], c4r[0], c4r[1], c4r[1], c4r[2], c4r[2], c4r[3], c4r[3]))
            let l = (yv - k.yOffset) * k.yScale
            let u = (ub - k.cOffset) * k.cScale
            let v = (vr - k.cOffset) * k.cScale
            let r = code(l + k.crToR * v)
            let g = code(l + k.cbToG * u + k.crToG * v)
            let b = code(l + k.cbToB * u)
            let words = (r &<< rs) | (g &<< gs) | (b &<< bs) | alpha
            (d + 4 * x).storeBytes(of: words, as: SIMD8<UInt32>.self)
            x += 8
        }
    }

    /// Writes RGBA16 rows (opaque) from planes of 9 to 16 bits, R'G'B' scaled to 0…65535.
    static func convertDeepYCbCr(
        _ p: Planes420, matrix: UInt16, fullRange: Bool, into base: UnsafeMutableRawPointer, bytesPerRow rowBytes: Int
    ) {
        let k = BackwardCoefficients(matrix: matrix, fullRange: fullRange, bitDepth: p.bitDepth, maximum: 65535)
        for row in 0..<p.height {
            let d = (base + row * rowBytes).assumingMemoryBound(to: UInt16.self)
            let yr = (p.y + row * p.yStride).assumingMemoryBound(to: UInt16.self)
            let cbr = (p.cb + (row / 2) * p.cbStride).assumingMemoryBound(to: UInt16.self)
            let crr = (p.cr + (row / 2) * p.crStride).assumingMemoryBound(to: UInt16.self)
            for x in 0..<p.width {
                let l = (Float(UInt16(littleEndian: yr[x])) - k.yOffset) * k.yScale
                let u = (Float(UInt16(littleEndian: cbr[x / 2])) - k.cOffset) * k.cScale
                let v = (Float(UInt16(littleEndian: crr[x / 2])) - k.cOffset) * k.cScale
                d[4 * x] = clamp16(l + k.crToR * v)
                d[4 * x + 1] = clamp16(l + k.cbToG * u + k.crToG * v)
                d[4 * x + 2] = clamp16(l + k.cbToB * u)
                d[4 * x + 3] = 65535
            }
        }
    }

    @inline(__always) static func clamp16(_ v: Float) -> UInt16 {
        let r = (v + 0.5).rounded(.down)
        return r <= 0 ? 0 : r >= 65535 ? 65535 : UInt16(r)
    }

    @inline(__always) static func clamp8(_ v: Float) -> UInt8 {
        let r = (v + 0.5).rounded(.down)
        return r <= 0 ? 0 : r >= 255 ? 255 : UInt8(r)
    }
}
