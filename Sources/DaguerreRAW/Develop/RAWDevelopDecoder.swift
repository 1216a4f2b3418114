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
    /// The curve LMMSE-GW works in: the sRGB curve's tables (versions 2, 3) or the power 2.5 (4).
    var domain: DemosaicDomain = .sRGB
    /// Highlight handling on the white-balanced camera RGB (pipeline version 3); nil before.
    var highlight: HighlightRecovery?
    /// Raw noise reduction before white balance and demosaic (X3, pipeline version 3; LMMSE-GW
    /// path only), or nil for none.
    var noiseReduction: NoiseReductionSettings? = nil
    /// OpcodeList2's gain maps (lens correction on, version 3), in `activeArea`'s coordinates;
    /// every demosaic applies them to the linearized photosites.
    var gainMaps: [DNGGainMap] = []
    var activeArea: IntRect? = nil
    /// The caller's size limits (RAWFilter's), checked before anything is allocated.
    var limits: Limits = .default

    /// A camera neutral scaled so its largest channel is 1 (the white-balance gains are its reciprocals).
    static func normalized(_ neutral: SIMD3<Double>) -> SIMD3<Double> { neutral / max(neutral.max(), 1e-12) }
    var balance: SIMD3<Double> { Self.normalized(neutral) }
}

/// What DCT4-2S runs with (see ``MosaicNoiseReduction``).
struct NoiseReductionSettings: Sendable, Equatable {
    /// The noise of each Bayer position (from the DNG, or estimated).
    var profile: CFANoiseProfile
    /// The amount a: the noise σ assumed, in units of the profile's (REPORT §3; 1 = as profiled).
    var amount: Float
    /// Core Image's detail and contrast controls (X1; the defaults are DCT4-2S as specified).
    var controls = NoiseReductionControls()
    /// Every block (pipeline version 3) or every other block in each direction (version 4).
    var blockStep: DCT4PlaneDenoiser.BlockStep = .every
}

/// The demosaic methods (X2: a fast one for draft mode and small scales, a high-quality one).
public enum DemosaicMethod: String, Sendable, CaseIterable {
    /// Each missing colour is the mean of its nearest same-colour photosites (3×3). Draft mode,
    /// and pipeline version 1.
    case bilinear
    /// LMMSE-GW on the white-balanced, sRGB-encoded mosaic (LMMSEGWDemosaic): the default
    /// from pipeline version 2.
    case lmmseGW
    /// Each 2×2 block of photosites becomes one pixel (red, the mean of the greens, blue): half
    /// the width and height, no interpolation. For draft mode and scale factors of ½ or less (X2, X7).
    case halfSize
}

/// Develops rows of a Bayer mosaic into linear RGB float rows (`.rgbf`) in the working space.
final class RAWDevelopDecoder: DevelopSource {
    let info: ImageFileInfo
    private let mosaic: BayerImage
    private let settings: DevelopSettings
    /// For a deferred mosaic (``BayerImage/isDeferred``): its file's chunks, decoded band by
    /// band as the chunks develop (LMMSE-GW only; the draft paths read a whole mosaic).
    private let stream: StreamedMosaic?
    var columns: Range<Int>

    /// Develops `mosaic`; a deferred one needs `chunks`, the file's chunks that hold it.
    init(mosaic: BayerImage, settings: DevelopSettings, chunks: DNGRawChunks? = nil) throws(DaguerreError) {
        info = try Self.developedInfo(mosaic: mosaic, settings: settings)
        if mosaic.isDeferred {
            guard let chunks, settings.demosaic == .lmmseGW, chunks.width == mosaic.width, chunks.height == mosaic.height else {
                throw .invalidArgument(what: "a \(settings.demosaic.rawValue) develop of a mosaic still in its file",
                                       problem: "only LMMSE-GW streams the file's chunks; decode the whole mosaic first")
            }
            // A chunk's band: its rows and the reach around them.
            stream = StreamedMosaic(chunks: chunks, limits: settings.limits, bandRows: Self.chunkRows + 2 * Self.mosaicReach)
        } else {
            stream = nil
        }
        self.mosaic = mosaic; self.settings = settings
        columns = 0..<info.width
    }

    /// What a develop of `mosaic` with `settings` gives (linear RGB floats in the working space,
    /// half the crop's size for the half-size path), once the crop, the black levels and the
    /// caller's size limits are checked: before anything is allocated.
    static func developedInfo(mosaic: BayerImage, settings: DevelopSettings) throws(DaguerreError) -> ImageFileInfo {
        let c = settings.crop
        guard c.width > 0, c.height > 0, c.x >= 0, c.y >= 0, c.maxX <= mosaic.width, c.maxY <= mosaic.height,
              mosaic.width >= 2, mosaic.height >= 2 else {
            throw .invalidArgument(what: "RAW crop \(c) of a \(mosaic.width)×\(mosaic.height) mosaic", problem: "must lie inside the mosaic, which must be at least 2×2")
        }
        guard mosaic.blackLevel.count == 4, mosaic.blackLevel.allSatisfy(\.isFinite) else {
            throw .invalidArgument(what: "RAW black levels \(mosaic.blackLevel)", problem: "give 4 finite values, one per 2×2 position")
        }
        try settings.limits.check(width: c.width, height: c.height, bytesPerPixel: 12, what: "developed RAW image")
        let half = settings.demosaic == .halfSize
        let (w, h) = half ? (c.width / 2, c.height / 2) : (c.width, c.height)
        guard w > 0, h > 0 else {
            throw .invalidArgument(what: "half-size develop of a \(c.width)×\(c.height) crop", problem: "needs at least 2×2 photosites")
        }
        return ImageFileInfo(format: .tiff, width: w, height: h, pixelFormat: .rgbf, alpha: .premultiplied,
                             iccProfile: nil, colorSpace: settings.workingSpace, randomAccess: true)
    }

    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        try checkRows(y: y, count: count)
        switch settings.demosaic {
        case .lmmseGW:
            try readRowsChunked(y: y, count: count, into: destination, bytesPerRow: bytesPerRow)
            return
        case .halfSize:
            readRowsHalfSize(y: y, count: count, into: destination, bytesPerRow: bytesPerRow)
            return
        case .bilinear: break
        }
        let m = mosaic, s = settings, cols = columns
        let w = m.width, h = m.height
        let black = m.blackLevel.map(Float.init)
        let scale = m.blackLevel.map { Float(1 / max(Double(m.whiteLevel) - $0, 1)) }
        let cfa = m.pattern.cfaPattern.map(Int.init)
        let matrix = DevelopMatrix(s.matrix)
        let (neutral, wbGain) = Self.whiteBalance(s)
        let threshold = HighlightRecovery.thresholds(black: m.blackLevel, white: m.whiteLevel), colors = BayerPatternColors(m.pattern.cfaPattern)
        let area = gainMapArea, shaded = !s.gainMaps.isEmpty
        // The photosites a row reads: its columns and one more each side (mirrored inside).
        let shadingColumns = max(0, s.crop.x + cols.lowerBound - 1)..<min(w, s.crop.x + cols.upperBound + 1)
        let out = UnsafeTransfer(destination.assumingMemoryBound(to: UInt8.self))
        m.samples.withUnsafeBufferPointer { samples in
            let whole = MosaicRows(whole: samples.baseAddress!, width: w, height: h)
            SharedWork.run(iterations: count) { r in
                let sy = s.crop.y + y + r
                let row = UnsafeMutableRawPointer(out.value + r * bytesPerRow).assumingMemoryBound(to: Float.self)
                // Lens shading (GainMap) per photosite: factors of the (mirrored) rows sy − 1…sy + 1.
                let shading = shaded ? [sy - 1, sy, sy + 1].map {
                    Self.gainFactors(s.gainMaps, area: area, row: $0 < 0 ? $0 + 2 : $0 >= h ? $0 - 2 : $0, columns: shadingColumns)
                } : []
                // Mirrors by two photosites at the edges, which keeps the CFA colour.
                @inline(__always) func at(_ xx: Int, _ yy: Int) -> Float {
                    let cx = xx < 0 ? xx + 2 : xx >= w ? xx - 2 : xx, cy = yy < 0 ? yy + 2 : yy >= h ? yy - 2 : yy
                    let p = (cy & 1) * 2 + (cx & 1)
                    let v = (Float(whole.row(cy)[cx]) - black[p]) * scale[p]
                    guard shaded, let f = shading[yy - sy + 1] else { return v }
                    return v * f[cx - shadingColumns.lowerBound]
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
                    if let hl = s.highlight, hl.mayBeClipped(rgb * wbGain) {
                        let clipped = HighlightRecovery.clippedColours(x: sx, y: sy, in: whole, height: h, threshold: threshold, colors: colors)
                        rgb = hl.apply(rgb * wbGain, clipped: clipped) * neutral
                    }
                    matrix.write(rgb.x, rgb.y, rgb.z, to: row + 3 * i)
                }
            }
        }
    }

    /// The gain maps' factors for sensor row `y`, columns `columns` of a mosaic whose active
    /// area is `area` (1 where no map applies), or nil without maps: the draft paths multiply
    /// each photosite they read by them.
    static func gainFactors(_ maps: [DNGGainMap], area: IntRect, row y: Int, columns: Range<Int>) -> [Float]? {
        guard !maps.isEmpty else { return nil }
        var factors = [Float](repeating: 1, count: columns.count)
        factors.withUnsafeMutableBufferPointer { f in
            for map in maps {
                map.multiplyRow(y - area.y, columns: (columns.lowerBound - area.x)..<(columns.upperBound - area.x),
                                width: area.width, height: area.height, into: f.baseAddress!)
            }
        }
        return factors
    }

    /// The active area the gain maps count from.
    private var gainMapArea: IntRect { settings.activeArea ?? IntRect(width: mosaic.width, height: mosaic.height) }

    /// The camera's neutral normalized to a largest channel of 1, and its reciprocal: the white
    /// balance gains, which take camera RGB to white-balanced RGB with white at 1.
    static func whiteBalance(_ s: DevelopSettings) -> (neutral: SIMD3<Float>, gain: SIMD3<Float>) {
        let n = s.balance
        let f = SIMD3<Float>(Float(max(n.x, 1e-6)), Float(max(n.y, 1e-6)), Float(max(n.z, 1e-6)))
        return (f, 1 / f)
    }

    /// The half-size path: one pixel per 2×2 block (red, mean green, blue), linearized per CFA
    /// position, through the highlight stage and the camera matrix. Cheap enough for draft
    /// re-renders (X7): each photosite is read once, and a block's layout is the same
    /// everywhere (blocks start on the crop's even offsets), so it is worked out once.
    private func readRowsHalfSize(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) {
        let m = mosaic, s = settings, cols = columns, w = m.width, h = m.height
        let matrix = DevelopMatrix(s.matrix)
        let (neutral, wbGain) = Self.whiteBalance(s)
        let threshold = HighlightRecovery.thresholds(black: m.blackLevel, white: m.whiteLevel), colors = BayerPatternColors(m.pattern.cfaPattern)
        // The four photosites of a block, by offset (dy·2 + dx): which is red, blue and the greens.
        let offsets = (0..<4).map { (dy: $0 / 2, dx: $0 % 2) }
        let colourAt = offsets.map { colors.color(x: s.crop.x + $0.dx, y: s.crop.y + $0.dy) }
        guard let ri = colourAt.firstIndex(of: 0), let bi = colourAt.firstIndex(of: 2) else { return }
        let greens = (0..<4).filter { colourAt[$0] == 1 }
        let levels = offsets.map { o in
            let p = ((s.crop.y + o.dy) & 1) * 2 + ((s.crop.x + o.dx) & 1)
            return (black: Float(m.blackLevel[p]), scale: Float(1 / max(Double(m.whiteLevel) - m.blackLevel[p], 1)))
        }
        let layout = HalfSizeRow.Layout(black: (levels[0].black, levels[1].black, levels[2].black, levels[3].black),
                                        scale: (levels[0].scale, levels[1].scale, levels[2].scale, levels[3].scale),
                                        roles: (ri, greens.first ?? ri, greens.last ?? greens.first ?? ri, bi))
        let highlight = s.highlight, cropX = s.crop.x, cropY = s.crop.y, maps = s.gainMaps, area = gainMapArea
        // Below this level in every white-balanced channel no photosite can be clipped.
        let knee = (highlight?.saturation ?? SIMD3(repeating: .infinity)) * HighlightRecovery.knee / wbGain
        let out = UnsafeTransfer(destination)
        m.samples.withUnsafeBufferPointer { samples in
            let whole = MosaicRows(whole: samples.baseAddress!, width: w, height: h)
            SharedWork.run(iterations: count) { row in
                let sy = cropY + 2 * (y + row)
                let o = (out.value + row * bytesPerRow).assumingMemoryBound(to: Float.self)
                let first = cropX + 2 * cols.lowerBound, line = whole.row(sy) + first
                // Lens shading (GainMap) per photosite: factors of the block's two sensor rows.
                let sensorColumns = first..<(cropX + 2 * cols.upperBound)
                let topGain = Self.gainFactors(maps, area: area, row: sy, columns: sensorColumns) ?? []
                let bottomGain = Self.gainFactors(maps, area: area, row: sy + 1, columns: sensorColumns) ?? []
                topGain.withUnsafeBufferPointer { t in
                bottomGain.withUnsafeBufferPointer { u in
                    let blocks = HalfSizeRow(top: line, bottom: line + w, topGain: maps.isEmpty ? nil : t.baseAddress,
                                             bottomGain: maps.isEmpty ? nil : u.baseAddress, layout: layout)
                    // The whole row as a vector loop; then the blocks near clipping again, through
                    // the highlight stage (the mosaic says which colours clipped).
                    guard !blocks.develop(blocks: cols.count, matrix: matrix, knee: knee, into: o), let hl = highlight else { return }
                    for j in 0..<cols.count {
                        let (red, green, blue) = blocks.block(j)
                        guard red > knee.x || green > knee.y || blue > knee.z else { continue }
                        let clipped = HighlightRecovery.clippedColours(x: first + 2 * j, y: sy, in: whole, height: h,
                                                                       threshold: threshold, colors: colors)
                        let v = hl.apply(SIMD3(red, green, blue) * wbGain, clipped: clipped) * neutral
                        matrix.write(v.x, v.y, v.z, to: o + 3 * j)
                    }
                }}
            }
        }
    }

    /// Per CFA position, raw code → white-balanced, normalized value in the demosaic's domain
    /// (built once).
    private lazy var encodeTables: [Float] = {
        let m = mosaic, cfa = m.pattern.cfaPattern.map(Int.init)
        let n = settings.balance, domain = settings.domain
        var table = [Float](repeating: 0, count: 4 * 65536)
        for p in 0..<4 {
            let black = m.blackLevel[p], range = max(Double(m.whiteLevel) - black, 1)
            let gain = 1 / max(n[cfa[p]], 1e-6)
            for code in 0..<65536 {
                table[p * 65536 + code] = Float(domain.encode(max(0, (Double(code) - black) / range * gain)))
            }
        }
        return table
    }()
    private var workspaces: [LMMSEGWDemosaic.Workspace] = []
    /// The linearized, denoised photosites the chunk's stripes read (noise reduction on).
    private var denoised: DenoisedMosaic?
    /// Developed rows kept between calls: the engine asks for short bands in order, and rows
    /// are developed `chunkRows` at a time. 256 rows, not 512: two chunk buffers (this one and
    /// the next, developing ahead) of 18 MB instead of 37 at 24 MP, peak RSS 191 -> 147 MB, for
    /// the same CPU time (the noise reduction's shared rows are carried over, the demosaic's
    /// stripes roll on, so a chunk boundary costs little).
    private var chunk = Chunk()
    static let chunkRows = 256
    /// The height of the image's last chunk, when the rows left allow it (see `takeChunk`).
    static let lastChunkRows = 64
    /// Columns demosaicked at a time by one worker (plus the 20-photosite halo each side).
    static let blockColumns = 1024
    /// The next chunk, developing on its own thread while the engine reads this one (X7): the
    /// engine's colour conversion and encoding of a chunk's rows then run beside the develop of
    /// the next, instead of leaving cores idle between them. Only inside the rows the render
    /// said it reads (``willRead(rows:)``); without that hint nothing is developed ahead.
    private var pending: PendingChunk?
    private var readRange: Range<Int>?

    /// Rows developed together, and where their pixels are (3 floats a pixel, rows of `columns`).
    struct Chunk {
        var rows: Range<Int> = 0..<0
        var columns: Range<Int> = 0..<0
        /// Zero pages from the kernel (``ZeroedBuffer``): every sample is written by the
        /// develop, and clearing them first was a serial pass before the first chunk's workers.
        var pixels: ZeroedBuffer?
        /// Floats the storage holds.
        var capacity: Int { (pixels?.byteCount ?? 0) / 4 }
    }

    /// A chunk developing on another thread. Safety: the develop thread writes `chunk` and
    /// `error`, then signals `finished`; the decoder reads them only after waiting on it.
    private final class PendingChunk: @unchecked Sendable {
        var chunk: Chunk
        var error: DaguerreError?
        let finished = DispatchSemaphore(value: 0)
        /// The develop's parallel loops, for the reading thread to work on while it waits.
        let assistance = SharedWork.Assistance()
        init(_ chunk: Chunk) { self.chunk = chunk }
    }

    func willRead(rows: Range<Int>) { readRange = rows }

    /// Serves rows from the chunk, developing the next chunk when the request runs past it.
    private func readRowsChunked(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        try eachChunkSpan(y: y, count: count) { span in
            for r in span.rows {
                (destination + (r - y) * bytesPerRow).copyMemory(from: span.row(r), byteCount: span.bytesPerRow)
            }
        }
    }

    /// Walks rows `y ..< y + count` a chunk at a time, taking each chunk (``takeChunk``) and
    /// handing `body` its rows in it before the next is taken: the next chunk's develop ahead
    /// may reuse this chunk's buffer unless `body` lends it.
    private func eachChunkSpan(y: Int, count: Int, _ body: (LentRows) throws(DaguerreError) -> Void) throws(DaguerreError) {
        var row = y
        while row < y + count {
            if !chunk.rows.contains(row) || chunk.columns != columns {
                try takeChunk(containing: row, rows: y + count - row)
            }
            let n = min(y + count - row, chunk.rows.upperBound - row), bytesPerRow = chunk.columns.count * 12
            if let pixels = chunk.pixels {
                try body(LentRows(rows: row..<row + n, base: UnsafeRawPointer(pixels.pointer + (row - chunk.rows.lowerBound) * bytesPerRow),
                                  bytesPerRow: bytesPerRow))
            } else if bytesPerRow > 0 {
                throw .invalidArgument(what: "RAW rows \(row)..<\(y + count)", problem: "the develop left no pixels for them (internal error)")
            }
            row += n
        }
    }

    /// Makes `chunk` hold `row`: the pending chunk when it does, else a chunk developed here
    /// (at least `rows` rows); then starts developing the chunk after it.
    private func takeChunk(containing row: Int, rows wanted: Int) throws(DaguerreError) {
        // The previous chunk's storage is reused (every sample is rewritten): a fresh allocation
        // per chunk cost page faults and zeroing (a tenth of the samples in perf). Not while its
        // rows are lent: then a buffer the engine has released is used.
        var spare = isLent(chunk) ? spares.popLast() : chunk.pixels
        chunk = Chunk()
        aheadWaits = false
        if let p = pending {
            pending = nil
            // Instead of blocking until the chunk is ready, this thread takes items of the
            // develop's parallel loops (the same items, the same pixels).
            p.assistance.help()
            p.finished.wait()
            if p.chunk.rows.contains(row), p.chunk.columns == columns, p.error == nil {
                chunk = p.chunk
            } else if (p.chunk.pixels?.byteCount ?? 0) > (spare?.byteCount ?? 0) {
                spare = p.chunk.pixels
            }
            if let error = p.error { throw error }
        }
        if chunk.rows.isEmpty {
            let rows = row..<min(info.height, row + max(Self.chunkRows, wanted))
            chunk = Chunk(rows: rows, columns: columns, pixels: spare)
            spare = nil     // one owner at a time
            try develop(&chunk)
        }
        developAhead(into: spare ?? spares.popLast())
    }

    /// Starts developing the chunk after `chunk` on its own thread, into `spare` (or a new
    /// buffer). While the engine still reads lent rows, a buffer of theirs is waited for
    /// instead (``releaseRows(below:)`` starts it): where the engine's bands lie within two
    /// chunks (its 64-row bands under 256-row chunks), two chunk buffers in all, not three.
    /// Bands taller than a chunk take a chunk developed on the spot for each chunk they cover.
    private func developAhead(into spare: ZeroedBuffer?) {
        // Work ahead only inside the rows the render reads, so a region render costs no more.
        guard pending == nil, let range = readRange, range.contains(chunk.rows.upperBound) else { return }
        if spare == nil, lent.contains(where: { $0.pixels != nil && $0.pixels !== chunk.pixels }) {
            aheadWaits = true
            return
        }
        let start = chunk.rows.upperBound
        var stop = min(info.height, start + Self.chunkRows)
        // The image's last rows come as a short chunk of their own: once the develop is done,
        // only the engine's packing and encoding of the last chunk are left, on one core, so a
        // short last chunk leaves the other core idle for less time. The stripes roll on across
        // the extra boundary (``LMMSEGWDemosaic/stripe``), so it costs only the noise
        // reduction's 12-row margin.
        if stop == info.height, stop - start > 2 * Self.lastChunkRows { stop -= Self.lastChunkRows }
        let next = start..<stop
        let work = PendingChunk(Chunk(rows: next, columns: columns, pixels: spare))
        pending = work
        // Safety: until `finished` is signalled only the develop thread uses the decoder's
        // develop state (workspaces, noise-reduction window, tables), and the threads it shares
        // its parallel loops with, the reading thread among them (`assistance`), run only
        // items of those loops; the reading thread waits on `finished` before it touches any of
        // that state itself (`takeChunk` is its only way in).
        // The thread holds the decoder (strongly) until the chunk is done.
        let me = UnsafeTransfer(self)
        Thread.detachNewThread {
            do throws(DaguerreError) {
                try me.value.develop(&work.chunk, assistance: work.assistance)
            } catch {
                work.error = error
            }
            work.assistance.finish()
            work.finished.signal()
        }
    }

    // MARK: Lending rows (the engine reads chunks in place)

    var lendsRows: Bool { settings.demosaic == .lmmseGW && !columns.isEmpty }

    /// Chunks whose rows are lent and not yet released: their buffers are not reused until
    /// ``releaseRows(below:)`` passes them.
    private var lent: [Chunk] = []
    /// Released chunk buffers, for the next develop.
    private var spares: [ZeroedBuffer] = []
    /// Whether the develop ahead waits for a lent buffer to be released.
    private var aheadWaits = false

    /// Whether a chunk is developing ahead on its own thread (for the tests).
    var isDevelopingAhead: Bool { pending != nil }

    private func isLent(_ c: Chunk) -> Bool {
        guard let p = c.pixels else { return false }
        return lent.contains { $0.pixels === p }
    }

    func lendRows(y: Int, count: Int) throws(DaguerreError) -> [LentRows] {
        try checkRows(y: y, count: count)
        guard lendsRows else {
            throw .unsupported(feature: "lending rows of a \(settings.demosaic.rawValue) develop", hint: "Read them with readRows(y:count:into:bytesPerRow:).")
        }
        var spans: [LentRows] = []
        try eachChunkSpan(y: y, count: count) { span in
            if !isLent(chunk) { lent.append(chunk) }
            spans.append(span)
        }
        return spans
    }

    func releaseRows(below y: Int) {
        lent.removeAll { c in
            guard c.rows.upperBound <= y else { return false }
            if let p = c.pixels, p !== chunk.pixels, spares.isEmpty { spares.append(p) }
            return true
        }
        if aheadWaits, let spare = spares.popLast() {
            aheadWaits = false
            developAhead(into: spare)
        }
    }

    /// Develops `chunk.rows` × `chunk.columns` into `chunk.pixels` (grown when too small).
    private func develop(_ chunk: inout Chunk, assistance: SharedWork.Assistance? = nil) throws(DaguerreError) {
        let rows = chunk.rows
        if settings.noiseReduction != nil || !settings.gainMaps.isEmpty {
            // Allocated before the chunk's pixels, which keeps glibc's heap from
            // fragmenting around them (about 16 MB less peak RSS at 24 MP).
            if denoised == nil {
                denoised = DenoisedMosaic(mosaic: mosaic, settings: settings.noiseReduction, gainMaps: settings.gainMaps,
                                          activeArea: settings.activeArea, limits: settings.limits)
            }
            try denoised?.reserve(rows: rows.count, columns: chunk.columns.count)
        }
        let stride = chunk.columns.count * 3
        if chunk.capacity < rows.count * stride {
            chunk.pixels = nil
            chunk.pixels = ZeroedBuffer(byteCount: max(rows.count, Self.chunkRows) * stride * 4)
        }
        guard let storage = chunk.pixels else { return }
        try readRowsLMMSEGW(y: rows.lowerBound, count: rows.count, columns: chunk.columns, into: storage.pointer, bytesPerRow: stride * 4,
                            assistance: assistance)
    }

    /// The LMMSE-GW path: the band is split into column blocks that the workers take in turn,
    /// each demosaicked with its halo read from the mosaic (mirrored at the mosaic's edges),
    /// decoded to linear light,
    /// un-white-balanced into the camera matrix's input, and multiplied into the working space.
    private func readRowsLMMSEGW(y: Int, count: Int, columns cols: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
                                 assistance: SharedWork.Assistance? = nil) throws(DaguerreError) {
        guard count > 0 else { return }
        if let stream {
            let first = settings.crop.y + y
            let rows = try stream.cover((first - Self.mosaicReach)..<(first + count + Self.mosaicReach), assistance: assistance)
            try readRowsLMMSEGW(y: y, count: count, columns: cols, into: destination, bytesPerRow: bytesPerRow, from: rows, assistance: assistance)
            return
        }
        try mosaic.samples.withUnsafeBufferPointer { (samples) throws(DaguerreError) in
            let rows = MosaicRows(whole: samples.baseAddress!, width: mosaic.width, height: mosaic.height)
            try readRowsLMMSEGW(y: y, count: count, columns: cols, into: destination, bytesPerRow: bytesPerRow, from: rows, assistance: assistance)
        }
    }

    /// How far beyond a band's rows its develop reads the mosaic: the demosaic's halo, the
    /// noise reduction's (``DenoisedMosaic``) and the noise-reduction window's row alignment
    /// (the highlight stage's reach, 2, lies inside). A streamed band covers it.
    static let mosaicReach = LMMSEGWDemosaic.halo + MosaicNoiseReduction.halo + 4

    /// ``readRowsLMMSEGW(y:count:columns:into:bytesPerRow:assistance:)`` reading the mosaic's
    /// photosites from `source`, which holds the band's rows and ``mosaicReach`` around them.
    private func readRowsLMMSEGW(y: Int, count: Int, columns cols: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
                                 from source: MosaicRows, assistance: SharedWork.Assistance?) throws(DaguerreError) {
        let first = settings.crop.y + y
        try source.check(holds: max(0, first - Self.mosaicReach)..<min(mosaic.height, first + count + Self.mosaicReach), for: "RAW develop")
        // Workers claim whole column blocks of the band as they become free (each block's rows
        // roll through a workspace of about 1 MB, whatever the band's height), so the 20-row halo
        // is paid once per band, not once per worker. Blocks read their halo from real
        // neighbours: the pixels are the same as one wide stripe's, whichever worker runs them.
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var blocks = (cols.count + Self.blockColumns - 1) / Self.blockColumns
        blocks = min(cols.count, (blocks + workers - 1) / workers * workers)
        let block = (cols.count + blocks - 1) / blocks
        // One workspace per column block, not per worker: a block's next chunk then resumes its
        // roll (``LMMSEGWDemosaic/stripe``) on whichever worker claims it.
        if workspaces.count < blocks || workspaces.contains(where: { $0.columns < block }) {
            workspaces = []
            workspaces = (0..<blocks).map { _ in LMMSEGWDemosaic.Workspace(columns: block) }
        }
        let m = mosaic, s = settings, w = m.width, h = m.height
        let n = s.balance
        // Working = matrix × camera; camera = neutral × white-balanced.
        let matrix = DevelopMatrix(s.matrix * Matrix3.diagonal(n.x, n.y, n.z))
        let colors = BayerPatternColors(m.pattern.cfaPattern)
        let threshold = HighlightRecovery.thresholds(black: m.blackLevel, white: m.whiteLevel)
        // The code tables serve only the path without a noise-reduction window (4 × 65 536 pows).
        let tables = denoised == nil ? encodeTables : []
        // The sRGB curve's tables serve only the sRGB domain (versions 2 and 3): building them
        // (131 072 pows) was 3–6 ms before version 4's first chunk, which never reads them.
        let srgb = s.domain != .power25, unused: [Float] = [0]
        let decode = srgb ? SRGBCurve.decodeTable : unused, encode = srgb ? SRGBCurve.encodeTable : unused
        let spaces = UnsafeTransfer(workspaces)
        let out = UnsafeTransfer(destination)
        // With noise reduction, the stripes read the chunk's denoised window instead of codes.
        let window = try denoised.map { (d) throws(DaguerreError) in
            try d.update(rows: (s.crop.y + y)..<(s.crop.y + y + count), columns: (s.crop.x + cols.lowerBound)..<(s.crop.x + cols.upperBound),
                         halo: LMMSEGWDemosaic.halo, from: source, assistance: assistance)
        }
        let gains = (0..<4).map { Float(1 / max(n[Int(m.pattern.cfaPattern[$0])], 1e-6)) }
        tables.withUnsafeBufferPointer { lut in
        decode.withUnsafeBufferPointer { dec in
        encode.withUnsafeBufferPointer { encf in
            let src = source, enc = UnsafeTransfer(lut.baseAddress!), dtab = UnsafeTransfer(dec.baseAddress!)
            let nrw = UnsafeTransfer(denoised?.samples.baseAddress.map { UnsafePointer($0) }), etab = UnsafeTransfer(encf.baseAddress!)
            // Safety: each column block (claimed by one worker) writes only its own columns of
            // `destination` and uses its own workspace; the mosaic, the denoised window and the
            // tables are read-only here and outlive the call.
            SharedWork.run(workers: workers, items: blocks, assistance: assistance) { _, item in
                let cx = s.crop.x, cy = s.crop.y
                let rows = (cy + y)..<(cy + y + count)
                let highlight = s.highlight, decodeTable = dtab.value
                let (g0, g1, g2, g3) = (gains[0], gains[1], gains[2], gains[3])
                @inline(__always) func gain(_ k: Int) -> Float { switch k { case 0: g0; case 1: g1; case 2: g2; default: g3 } }
                // One pixel, decoded to linear light: through the highlight stage when it is near
                // clipping (the mosaic says which colours clipped), then the matrix.
                @inline(__always) func developPixel(_ r: Float, _ g: Float, _ b: Float, x: Int, y yy: Int, into o: UnsafeMutablePointer<Float>) {
                    var v = SIMD3(r, g, b)
                    if let hl = highlight, hl.mayBeClipped(v) {
                        let clipped = HighlightRecovery.clippedColours(x: x, y: yy, in: src, height: h,
                                                                       threshold: threshold, colors: colors)
                        v = hl.apply(v, clipped: clipped)
                    }
                    matrix.write(v.x, v.y, v.z, to: o)
                }
                let knee = highlight.map { $0.saturation * HighlightRecovery.knee } ?? SIMD3(repeating: .infinity)
                // The power domain: a vectorized row, and the scalar pixel path (the same
                // arithmetic) only over rows that have a pixel near clipping.
                let writePower = { (yy: Int, x0: Int, count: Int, rp: UnsafePointer<Float>, gp: UnsafePointer<Float>, bp: UnsafePointer<Float>) in
                    let o = (out.value + (yy - cy - y) * bytesPerRow).assumingMemoryBound(to: Float.self) + 3 * (x0 - cx - cols.lowerBound)
                    guard PowerDomain.developRow(rp, gp, bp, count: count, matrix: matrix, knee: knee, into: o) else { return }
                    for i in 0..<count {
                        developPixel(PowerDomain.decode(rp[i]), PowerDomain.decode(gp[i]), PowerDomain.decode(bp[i]), x: x0 + i, y: yy, into: o + 3 * i)
                    }
                }
                let writeSRGB = { (yy: Int, x0: Int, count: Int, rp: UnsafePointer<Float>, gp: UnsafePointer<Float>, bp: UnsafePointer<Float>) in
                    let o = (out.value + (yy - cy - y) * bytesPerRow).assumingMemoryBound(to: Float.self) + 3 * (x0 - cx - cols.lowerBound)
                    for i in 0..<count {
                        developPixel(SRGBCurve.decodeFast(rp[i], decodeTable), SRGBCurve.decodeFast(gp[i], decodeTable),
                                     SRGBCurve.decodeFast(bp[i], decodeTable), x: x0 + i, y: yy, into: o + 3 * i)
                    }
                }
                let power = s.domain == .power25
                let write = power ? writePower : writeSRGB
                // Mirrors at the mosaic's edges (whole-sample, which keeps the CFA colour).
                @inline(__always) func mirrored(_ v: Int, _ size: Int) -> Int {
                    var m = v < 0 ? -v : v
                    if m >= size { m = 2 * (size - 1) - m }
                    return min(max(m, 0), size - 1)
                }
                let start = cx + cols.lowerBound + item * block
                if start < cx + cols.upperBound {
                    let columns = start..<min(start + block, cx + cols.upperBound)
                    if let window, let base = nrw.value {
                        LMMSEGWDemosaic.stripe(rows: rows, columns: columns, pattern: colors, workspace: spaces.value[item],
                                               fill: { yy, x0, count, dst in
                                                   let my = mirrored(yy, h)
                                                   let line = base + min(max(my - window.y, 0), window.height - 1) * window.width
                                                   let gy = (my & 1) << 1, encode = etab.value
                                                   // Columns inside the mosaic and the window need no mirroring and
                                                   // their gains alternate: they go through the row loops. The few
                                                   // mirrored ones of the edge blocks go one by one (the same
                                                   // arithmetic; before, an edge block's whole row did).
                                                   let end = x0 + count
                                                   let lo = min(max(x0, max(0, window.x)), end), hi = max(min(end, min(w, window.x + window.width)), lo)
                                                   func edge(_ x: Int) {
                                                       let mx = mirrored(x, w)
                                                       let wx = min(max(mx - window.x, 0), window.width - 1)
                                                       let v = line[wx] * gain(gy | (mx & 1))
                                                       dst[x - x0] = power ? PowerDomain.encode(v) : SRGBCurve.encodeFast(v, encode)
                                                   }
                                                   for x in x0..<lo { edge(x) }
                                                   for x in hi..<end { edge(x) }
                                                   guard hi > lo else { return }
                                                   let row = line + (lo - window.x), out = dst + (lo - x0), n = hi - lo
                                                   let first = gain(gy | (lo & 1)), second = gain(gy | ((lo + 1) & 1))
                                                   if power {
                                                       PowerDomain.encodeRow(row, count: n, first: first, second: second, into: out)
                                                       return
                                                   }
                                                   var i = 0
                                                   while i + 1 < n {
                                                       out[i] = SRGBCurve.encodeFast(row[i] * first, encode)
                                                       out[i + 1] = SRGBCurve.encodeFast(row[i + 1] * second, encode)
                                                       i += 2
                                                   }
                                                   if i < n { out[i] = SRGBCurve.encodeFast(row[i] * first, encode) }
                                               }, write: write)
                    } else {
                        LMMSEGWDemosaic.stripe(rows: rows, columns: columns, pattern: colors, workspace: spaces.value[item],
                                               fill: { yy, x0, count, dst in
                                                   let my = mirrored(yy, h)
                                                   let line = src.row(my), table = enc.value, py = (my & 1) << 1
                                                   // Mirrored columns only at the mosaic's edges, as above.
                                                   let end = x0 + count, lo = min(max(x0, 0), end), hi = max(min(end, w), lo)
                                                   @inline(__always) func put(_ x: Int, from mx: Int) { dst[x - x0] = table[(py | (mx & 1)) << 16 | Int(line[mx])] }
                                                   for x in x0..<lo { put(x, from: mirrored(x, w)) }
                                                   for x in lo..<hi { put(x, from: x) }
                                                   for x in hi..<end { put(x, from: mirrored(x, w)) }
                                               }, write: write)
                    }
                }
            }
        }}}
    }
}
