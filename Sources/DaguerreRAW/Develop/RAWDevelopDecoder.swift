// The first stages of RAW development as a streaming source (SPEC X2, X3, X6): linearize (black
// and white levels per CFA position), reduce noise (pipeline version 3), demosaic, and the
// camera → working-space matrix (which carries the white balance), row band by row band as the
// engine asks, so a whole developed image never exists in memory. Our own code: the stages are
// the point of the project.
import DaguerreCore
import DaguerreFormats
import Dispatch
import Foundation

/// What the decoder needs to develop a mosaic: decided by ``RAWFilter``.
struct DevelopSettings: Sendable {
    /// Camera RGB (linearized, 0...1 of the white level above black) → working RGB, white balance included.
    var matrix: Matrix3
    /// The camera's response to the scene white (largest channel 1): LMMSE-GW demosaics the
    /// mosaic divided by it (white balanced, white at 1).
    var neutral: SIMD3<Double>
    /// The photosites developed (DNG ActiveArea and DefaultCrop).
    var crop: IntRect
    var workingSpace: ColorSpace
    var demosaic: DemosaicMethod
    /// Raw noise reduction before white balance and demosaic (X3, pipeline version 3; LMMSE-GW
    /// path only), or nil for none.
    var noiseReduction: NoiseReductionSettings? = nil
}

/// What DCT4-2S runs with (see ``MosaicNoiseReduction``).
struct NoiseReductionSettings: Sendable, Equatable {
    /// The noise of each Bayer position (from the DNG, or estimated).
    var profile: CFANoiseProfile
    /// The amount a: the noise σ assumed, in units of the profile's (REPORT §3; 1 = as profiled).
    var amount: Float
}

/// The demosaic methods (X2: a fast one for draft mode and small scales, a high-quality one).
public enum DemosaicMethod: String, Sendable, CaseIterable {
    /// Each missing colour is the mean of its nearest same-colour photosites (3×3). Draft mode,
    /// and pipeline version 1.
    case bilinear
    /// LMMSE-GW on the white-balanced, sRGB-encoded mosaic (LMMSEGWDemosaic): the default
    /// from pipeline version 2.
    case lmmseGW
}

/// Develops rows of a Bayer mosaic into linear RGB float rows (`.rgbf`) in the working space.
final class RAWDevelopDecoder: ImageDecoder {
    let info: ImageFileInfo
    private let mosaic: BayerImage
    private let settings: DevelopSettings
    private var columns: Range<Int>

    init(mosaic: BayerImage, settings: DevelopSettings) throws(DaguerreError) {
        let c = settings.crop
        guard c.width > 0, c.height > 0, c.x >= 0, c.y >= 0, c.maxX <= mosaic.width, c.maxY <= mosaic.height,
              mosaic.width >= 2, mosaic.height >= 2 else {
            throw .invalidArgument(what: "RAW crop \(c) of a \(mosaic.width)×\(mosaic.height) mosaic", problem: "must lie inside the mosaic, which must be at least 2×2")
        }
        guard mosaic.blackLevel.count == 4, mosaic.blackLevel.allSatisfy(\.isFinite) else {
            throw .invalidArgument(what: "RAW black levels \(mosaic.blackLevel)", problem: "give 4 finite values, one per 2×2 position")
        }
        try Limits.default.check(width: c.width, height: c.height, bytesPerPixel: 12, what: "developed RAW image")
        self.mosaic = mosaic; self.settings = settings
        columns = 0..<c.width
        info = ImageFileInfo(format: .tiff, width: c.width, height: c.height, pixelFormat: .rgbf, alpha: .premultiplied,
                             iccProfile: nil, colorSpace: settings.workingSpace, randomAccess: true)
    }

    func setColumns(_ requested: Range<Int>) throws(DaguerreError) -> Range<Int> {
        columns = max(0, requested.lowerBound)..<min(info.width, max(requested.upperBound, requested.lowerBound))
        return columns
    }

    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        guard y >= 0, count >= 0, y + count <= info.height else {
            throw .invalidArgument(what: "RAW rows \(y)..<\(y + count)", problem: "the image has \(info.height) rows")
        }
        if settings.demosaic == .lmmseGW {
            try readRowsChunked(y: y, count: count, into: destination, bytesPerRow: bytesPerRow)
            return
        }
        let m = mosaic, s = settings, cols = columns
        let w = m.width, h = m.height
        let black = m.blackLevel.map(Float.init)
        let scale = m.blackLevel.map { Float(1 / max(Double(m.whiteLevel) - $0, 1)) }
        let cfa = m.pattern.cfaPattern.map(Int.init)
        let k = s.matrix.m.map(Float.init)
        let out = UnsafeTransfer(destination.assumingMemoryBound(to: UInt8.self))
        m.samples.withUnsafeBufferPointer { samples in
            let src = UnsafeTransfer(UnsafeMutablePointer(mutating: samples.baseAddress!))
            DispatchQueue.concurrentPerform(iterations: count) { r in
                let sy = s.crop.y + y + r
                let row = UnsafeMutableRawPointer(out.value + r * bytesPerRow).assumingMemoryBound(to: Float.self)
                // Mirrors by two photosites at the edges, which keeps the CFA colour.
                @inline(__always) func at(_ xx: Int, _ yy: Int) -> Float {
                    let cx = xx < 0 ? xx + 2 : xx >= w ? xx - 2 : xx, cy = yy < 0 ? yy + 2 : yy >= h ? yy - 2 : yy
                    let p = (cy & 1) * 2 + (cx & 1)
                    return (Float(src.value[cy * w + cx]) - black[p]) * scale[p]
                }
                for (i, x) in cols.enumerated() {
                    let sx = s.crop.x + x
                    var rgb = SIMD3<Float>.zero
                    let own = cfa[(sy & 1) * 2 + (sx & 1)]
                    rgb[own] = at(sx, sy)
                    switch own {
                    case 1:
                        // Green: red and blue are its row or column neighbours.
                        let rowColour = cfa[(sy & 1) * 2 + ((sx + 1) & 1)]
                        let horizontal = (at(sx - 1, sy) + at(sx + 1, sy)) * 0.5, vertical = (at(sx, sy - 1) + at(sx, sy + 1)) * 0.5
                        rgb[rowColour] = horizontal; rgb[2 - rowColour] = vertical
                    default:
                        rgb[1] = (at(sx - 1, sy) + at(sx + 1, sy) + at(sx, sy - 1) + at(sx, sy + 1)) * 0.25
                        rgb[2 - own] = (at(sx - 1, sy - 1) + at(sx + 1, sy - 1) + at(sx - 1, sy + 1) + at(sx + 1, sy + 1)) * 0.25
                    }
                    let o = row + 3 * i
                    o[0] = k[0] * rgb.x + k[1] * rgb.y + k[2] * rgb.z
                    o[1] = k[3] * rgb.x + k[4] * rgb.y + k[5] * rgb.z
                    o[2] = k[6] * rgb.x + k[7] * rgb.y + k[8] * rgb.z
                }
            }
        }
    }

    /// Per CFA position, raw code → white-balanced, normalized, sRGB-encoded value (built once).
    private lazy var encodeTables: [Float] = {
        let m = mosaic, cfa = m.pattern.cfaPattern.map(Int.init)
        let n = settings.neutral / max(settings.neutral.max(), 1e-12)
        var table = [Float](repeating: 0, count: 4 * 65536)
        for p in 0..<4 {
            let black = m.blackLevel[p], range = max(Double(m.whiteLevel) - black, 1)
            let gain = 1 / max(n[cfa[p]], 1e-6)
            for code in 0..<65536 {
                table[p * 65536 + code] = Float(SRGBCurve.encode(max(0, (Double(code) - black) / range * gain)))
            }
        }
        return table
    }()
    private var workspaces: [LMMSEGWDemosaic.Workspace] = []
    private var noiseReducer: MosaicNoiseReduction?
    /// The linearized, denoised photosites of the chunk being developed (noise reduction on).
    private var denoised: [Float] = []
    /// Developed rows kept between calls: the engine asks for short bands in order, and each
    /// stripe recomputes a 20-row halo, so rows are developed `chunkRows` at a time.
    private var chunk: (rows: Range<Int>, columns: Range<Int>, pixels: [Float]) = (0..<0, 0..<0, [])
    static let chunkRows = 256

    /// Serves rows from the chunk, developing the next chunk when the request runs past it.
    private func readRowsChunked(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        var done = 0
        while done < count {
            let row = y + done
            if !chunk.rows.contains(row) || chunk.columns != columns {
                let rows = row..<min(info.height, row + max(Self.chunkRows, count - done))
                let stride = columns.count * 3
                var pixels = [Float](repeating: 0, count: rows.count * stride)
                try pixels.withUnsafeMutableBufferPointer { (buffer) throws(DaguerreError) in
                    try readRowsLMMSEGW(y: rows.lowerBound, count: rows.count, into: UnsafeMutableRawPointer(buffer.baseAddress!), bytesPerRow: stride * 4)
                }
                chunk = (rows, columns, pixels)
            }
            let n = min(count - done, chunk.rows.upperBound - row)
            let stride = chunk.columns.count * 3
            chunk.pixels.withUnsafeBytes { raw in
                for k in 0..<n {
                    (destination + (done + k) * bytesPerRow).copyMemory(from: raw.baseAddress! + (row - chunk.rows.lowerBound + k) * stride * 4,
                                                                        byteCount: stride * 4)
                }
            }
            done += n
        }
    }

    /// The LMMSE-GW path: the band is split into one stripe per worker, each demosaicked with
    /// its halo read from the mosaic (mirrored at the mosaic's edges), decoded to linear light,
    /// un-white-balanced into the camera matrix's input, and multiplied into the working space.
    private func readRowsLMMSEGW(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        guard count > 0 else { return }
        let workers = min(count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let per = (count + workers - 1) / workers
        let cols = columns
        if workspaces.count < workers || workspaces.contains(where: { $0.rows < per || $0.columns < cols.count }) {
            workspaces = (0..<workers).map { _ in LMMSEGWDemosaic.Workspace(rows: per, columns: cols.count) }
        }
        let m = mosaic, s = settings, w = m.width, h = m.height
        let n = s.neutral / max(s.neutral.max(), 1e-12)
        // Working = matrix × camera; camera = neutral × white-balanced.
        let k = (s.matrix * Matrix3.diagonal(n.x, n.y, n.z)).m.map(Float.init)
        let colors = BayerPatternColors(m.pattern.cfaPattern)
        let tables = encodeTables, decode = SRGBCurve.decodeTable
        let spaces = UnsafeTransfer(workspaces)
        let out = UnsafeTransfer(destination)
        // With noise reduction, the stripes read the chunk's denoised window instead of codes.
        let window = try s.noiseReduction.map { (nr) throws(DaguerreError) in try denoiseWindow(y: y, count: count, settings: nr) }
        let gains = (0..<4).map { Float(1 / max(n[Int(m.pattern.cfaPattern[$0])], 1e-6)) }
        m.samples.withUnsafeBufferPointer { samples in
        tables.withUnsafeBufferPointer { lut in
        decode.withUnsafeBufferPointer { dec in
        denoised.withUnsafeBufferPointer { den in
        SRGBCurve.encodeTable.withUnsafeBufferPointer { encf in
            let src = UnsafeTransfer(samples.baseAddress!), enc = UnsafeTransfer(lut.baseAddress!), dtab = UnsafeTransfer(dec.baseAddress!)
            let nrw = UnsafeTransfer(den.baseAddress), etab = UnsafeTransfer(encf.baseAddress!)
            // Safety: each worker writes only its own rows of `destination` and uses its own
            // workspace; the mosaic, the denoised window and the tables are read-only here and
            // outlive the call.
            DispatchQueue.concurrentPerform(iterations: workers) { wkr in
                let r0 = y + wkr * per, r1 = min(y + count, r0 + per)
                guard r0 < r1 else { return }
                let cx = s.crop.x, cy = s.crop.y
                let rows = (cy + r0)..<(cy + r1), columns = (cx + cols.lowerBound)..<(cx + cols.upperBound)
                let write = { (x: Int, yy: Int, rgb: SIMD3<Float>) in
                    let row = (out.value + (yy - cy - y) * bytesPerRow).assumingMemoryBound(to: Float.self)
                    let o = row + 3 * (x - cx - cols.lowerBound)
                    let r = SRGBCurve.decodeFast(rgb.x, dtab.value), g = SRGBCurve.decodeFast(rgb.y, dtab.value)
                    let b = SRGBCurve.decodeFast(rgb.z, dtab.value)
                    o[0] = k[0] * r + k[1] * g + k[2] * b
                    o[1] = k[3] * r + k[4] * g + k[5] * b
                    o[2] = k[6] * r + k[7] * g + k[8] * b
                }
                // Mirrors at the mosaic's edges (whole-sample, which keeps the CFA colour).
                @inline(__always) func mirrored(_ x: Int, _ yy: Int) -> (Int, Int) {
                    var mx = x < 0 ? -x : x, my = yy < 0 ? -yy : yy
                    if mx >= w { mx = 2 * (w - 1) - mx }
                    if my >= h { my = 2 * (h - 1) - my }
                    return (min(max(mx, 0), w - 1), min(max(my, 0), h - 1))
                }
                if let window, let base = nrw.value {
                    LMMSEGWDemosaic.stripe(rows: rows, columns: columns, pattern: colors, workspace: spaces.value[wkr],
                                           encoded: { x, yy in
                                               let (mx, my) = mirrored(x, yy)
                                               let wx = min(max(mx - window.x, 0), window.width - 1), wy = min(max(my - window.y, 0), window.height - 1)
                                               return SRGBCurve.encodeFast(base[wy * window.width + wx] * gains[(my & 1) << 1 | (mx & 1)], etab.value)
                                           }, write: write)
                } else {
                    LMMSEGWDemosaic.stripe(rows: rows, columns: columns, pattern: colors, workspace: spaces.value[wkr],
                                           encoded: { x, yy in
                                               let (mx, my) = mirrored(x, yy)
                                               let p = (my & 1) << 1 | (mx & 1)
                                               return enc.value[p << 16 | Int(src.value[my * w + mx])]
                                           }, write: write)
                }
            }
        }}}}}
    }

    /// Linearizes and denoises the photosites that the stripes of output rows `y..<y+count` read
    /// (their 20-photosite demosaic halo, clipped to the mosaic), into ``denoised``. The window
    /// read from the mosaic reaches a further ``MosaicNoiseReduction/halo`` beyond them, starts on
    /// an even row and on a column that is a multiple of 16 (so the result is bit-identical
    /// however the image is cut into chunks and columns), and is clipped to the mosaic, where
    /// DCT4-2S mirrors as a full-frame run does.
    private func denoiseWindow(y: Int, count: Int, settings nr: NoiseReductionSettings) throws(DaguerreError) -> (x: Int, y: Int, width: Int, height: Int) {
        let m = mosaic, s = settings, w = m.width, h = m.height
        let reach = LMMSEGWDemosaic.halo + MosaicNoiseReduction.halo
        let y0 = max(0, s.crop.y + y - reach) & ~1, y1 = min(h, s.crop.y + y + count + reach)
        let x0 = max(0, s.crop.x + columns.lowerBound - reach) & ~15, x1 = min(w, s.crop.x + columns.upperBound + reach)
        let ww = x1 - x0, wh = y1 - y0
        try Limits.default.check(width: ww, height: wh, bytesPerPixel: 4, what: "noise reduction window")
        if noiseReducer.map({ $0.maxWidth < ww || $0.maxHeight < wh }) ?? true {
            noiseReducer = nil
            noiseReducer = try MosaicNoiseReduction(maxWidth: ww, maxHeight: wh, workers: ProcessInfo.processInfo.activeProcessorCount)
        }
        if denoised.count < ww * wh { denoised = [Float](repeating: 0, count: ww * wh) }
        let black = m.blackLevel.map(Float.init)
        let scale = m.blackLevel.map { Float(1 / max(Double(m.whiteLevel) - $0, 1)) }
        let reducer = noiseReducer
        m.samples.withUnsafeBufferPointer { samples in
            denoised.withUnsafeMutableBufferPointer { buffer in
                let src = samples.baseAddress!, dst = buffer.baseAddress!
                for r in 0..<wh {
                    let sy = y0 + r, row = src + sy * w + x0, o = dst + r * ww
                    let b0 = black[(sy & 1) << 1 | (x0 & 1)], s0 = scale[(sy & 1) << 1 | (x0 & 1)]
                    let b1 = black[(sy & 1) << 1 | ((x0 + 1) & 1)], s1 = scale[(sy & 1) << 1 | ((x0 + 1) & 1)]
                    var c = 0
                    while c + 1 < ww {
                        o[c] = (Float(row[c]) - b0) * s0
                        o[c + 1] = (Float(row[c + 1]) - b1) * s1
                        c += 2
                    }
                    if c < ww { o[c] = (Float(row[c]) - b0) * s0 }
                }
                reducer?.denoise(MosaicWindow(x: x0, y: y0, width: ww, height: wh, stride: ww, samples: dst), profile: nr.profile, amount: nr.amount)
            }
        }
        return (x0, y0, ww, wh)
    }
}
