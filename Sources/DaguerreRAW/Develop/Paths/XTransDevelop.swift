// The X-Trans develop (SPEC X2, X3 for Fujifilm's 6×6 mosaics): each band of rows is split into
// column blocks that the workers take in turn; each block's window (the block and the
// demosaic's halo, folded back into the mosaic at its edges by whole 6×6 repeats, so the colour
// filter stays in phase) is linearized, white balanced and encoded in the power-2.5 domain from
// per-code tables (with raw noise reduction: linearized with the noise reduction's halo more,
// denoised by ``XTransNoiseReduction``, then encoded), lens shading applied (OpcodeList2's gain
// maps), demosaicked by ``XTransDemosaic``, decoded to linear light, sent through the
// highlight stage (which reads the X-Trans mosaic for the colours that clipped) and the matrix.
// The algorithm for one band; which bands, when and on which thread is ``DevelopChunks``'.
import DaguerreCore
import DaguerreFormats

/// Develops bands of an X-Trans mosaic.
///
/// Not thread-safe: one band at a time (the schedule guarantees it).
///
/// ```swift
/// let develop = XTransDevelop(mosaic: .whole(mosaic), settings: settings, passes: 3)
/// try develop.develop(rows: 0..<256, columns: 0..<width, into: chunk, bytesPerRow: width * 12, assistance: nil)
/// ```
final class XTransDevelop: ChunkDevelop {
    let mosaic: DevelopMosaic
    let settings: DevelopSettings
    let layout: MosaicLayout
    let pattern: XTransPattern
    let demosaic: XTransDemosaic
    let pixel: PixelDevelop

    /// Passes of the full develop and of the draft.
    static let fullPasses = 3
    static let draftPasses = 1
    /// Columns demosaicked at a time by one worker (plus the halo each side).
    static let blockColumns = 1024

    /// How far beyond a band's rows its develop reads the mosaic: the demosaic's halo (and the
    /// noise reduction's, when it runs), and a 6×6 repeat for the fold at the mosaic's edges
    /// (the highlight stage's reach lies inside).
    static func mosaicReach(passes: Int, noiseReduction: Bool) -> Int {
        XTransDemosaic.halo(passes: passes) + (noiseReduction ? XTransNoiseReduction.halo : 0) + 6
    }

    init(mosaic: DevelopMosaic, settings: DevelopSettings, pattern: XTransPattern, passes: Int) {
        self.mosaic = mosaic
        self.settings = settings
        layout = mosaic.layout
        self.pattern = pattern
        demosaic = XTransDemosaic(pattern: pattern, passes: passes)
        pixel = PixelDevelop(settings: settings, layout: layout)
    }

    private var workspaces: [XTransDemosaic.Workspace] = []
    /// Per worker, with noise reduction: its denoiser and the linear window it denoises.
    private var denoisers: [(nr: XTransNoiseReduction, window: ZeroedBuffer)] = []

    /// Per 2×2 position (black level) and colour (white balance), raw code → white-balanced,
    /// normalized value in the power-2.5 domain; built on first use.
    private lazy var encodeTables: [Float] = {
        let lin = Linearization(layout: layout)
        let n = settings.balance
        var table = [Float](repeating: 0, count: 12 * 65536)
        for p in 0..<4 {
            for c in 0..<3 {
                let gain = 1 / max(n[c], 1e-6)
                let base = (p * 3 + c) * 65536
                for code in 0..<65536 {
                    table[base + code] = Float(DemosaicDomain.power25.encode(max(0, lin.value(Double(code), at: p) * gain)))
                }
            }
        }
        return table
    }()

    func reserve(rows: Int, columns: Int) throws(DaguerreError) {}

    func develop(
        rows: Range<Int>, columns: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
        assistance: WorkerPool.Assistance?
    ) throws(DaguerreError) {
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let reachRows = Self.mosaicReach(passes: demosaic.passes, noiseReduction: settings.noiseReduction != nil)
        let first = settings.crop.y + rows.lowerBound
        let reach = (first - reachRows)..<(first + rows.count + reachRows)
        try mosaic.withRows(reach, assistance: assistance) { (source) throws(DaguerreError) in
            try develop(rows: rows, columns: columns, into: destination, bytesPerRow: bytesPerRow, from: source, assistance: assistance)
        }
    }

    /// A coordinate outside 0..<n moved back inside by whole 6×6 repeats (n ≥ 6).
    @inline(__always) static func fold(_ v: Int, _ n: Int) -> Int {
        if v < 0 { return v + 6 * ((-v + 5) / 6) }
        if v >= n { return v - 6 * ((v - n + 6) / 6) }
        return v
    }

    private func develop(
        rows band: Range<Int>, columns cols: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
        from source: MosaicRows, assistance: WorkerPool.Assistance?
    ) throws(DaguerreError) {
        let s = settings
        let (w, h) = (layout.width, layout.height)
        let halo = demosaic.halo
        let sensorRows = (s.crop.y + band.lowerBound)..<(s.crop.y + band.upperBound)
        let sensorColumns = (s.crop.x + cols.lowerBound)..<(s.crop.x + cols.upperBound)
        let nrHalo = s.noiseReduction == nil ? 0 : XTransNoiseReduction.halo
        let needed = max(0, sensorRows.lowerBound - halo - nrHalo - 6)..<min(h, sensorRows.upperBound + halo + nrHalo + 6)
        try source.check(holds: needed.clamped(to: 0..<h), for: "X-Trans develop")
        let workers = max(1, WorkerPool.processorCount)
        var blocks = (cols.count + Self.blockColumns - 1) / Self.blockColumns
        blocks = min(cols.count, (blocks + workers - 1) / workers * workers)
        let block = (cols.count + blocks - 1) / blocks
        let windowWidth = block + 2 * halo
        let windowHeight = band.count + 2 * halo
        // One workspace per worker (the reading thread that assists is one more).
        if workspaces.count < workers + 1 { workspaces = (0...workers).map { _ in XTransDemosaic.Workspace() } }
        for ws in workspaces { ws.reserve(windowWidth * windowHeight) }
        if s.noiseReduction != nil {
            let (nw, nh) = (windowWidth + 2 * nrHalo, windowHeight + 2 * nrHalo)
            if denoisers.count < workers + 1 || denoisers[0].nr.maxWidth < nw || denoisers[0].nr.maxHeight < nh {
                denoisers = []
                for _ in 0...workers {
                    denoisers.append(
                        (
                            try XTransNoiseReduction(pattern: pattern, maxWidth: nw, maxHeight: nh, limits: s.limits),
                            ZeroedBuffer(byteCount: nw * nh * MemoryLayout<Float>.stride)
                        ))
                }
            }
        }
        // Colour c's model is the profile's plane c (read with ``CFANoiseProfile/xTransColors``).
        let noise = s.noiseReduction.map { nr in
            (models: Array(nr.profile.planes.prefix(3)), amount: nr.amount, scales: nr.controls.coefficientNoiseScales, step: nr.blockStep)
        }
        let gains = (0..<3).map { Float(1 / max(s.balance[$0], 1e-6)) }
        let denoisers = UnsafeTransfer(denoisers)
        let spaces = UnsafeTransfer(workspaces)
        let demosaic = demosaic
        let pattern = pattern
        let pixel = pixel
        let knee = pixel.highlight.map { $0.saturation * HighlightRecovery.knee } ?? SIMD3(repeating: .infinity)
        let out = UnsafeTransfer(destination)
        let gainMaps = s.gainMaps
        let area = s.activeArea ?? IntRect(x: 0, y: 0, width: w, height: h)
        // Without noise reduction codes are encoded through per-code tables; with it they are
        // linearized as the Bayer denoise window is (``Linearization``'s Float form), no table.
        let encoded = noise == nil ? encodeTables : [0]
        let levels = Linearization(layout: layout)
        let (black, scale) = (levels.floatBlack, levels.floatScale)
        encoded.withUnsafeBufferPointer { tablesBuffer in
            let tables = UnsafeTransfer(UnsafeMutablePointer(mutating: tablesBuffer.baseAddress!))
            // Safety: each column block writes only its own columns of `destination`, and each
            // worker uses its own workspace; the mosaic rows and the tables are read-only here
            // and outlive the call.
            WorkerPool.share(workers: workers, items: blocks, assistance: assistance) { worker, item in
                let start = sensorColumns.lowerBound + item * block
                guard start < sensorColumns.upperBound else { return }
                let end = min(start + block, sensorColumns.upperBound)
                let ws = spaces.value[worker]
                let ww = end - start + 2 * halo
                let ox = start - halo
                let oy = sensorRows.lowerBound - halo
                // The window's codes, encoded: table per position of the 6×6 block.
                var tableBase = [Int](repeating: 0, count: 36)
                for pos in 0..<36 {
                    let (x, y) = (ox + pos % 6, oy + pos / 6)
                    tableBase[pos] = (((y & 1) << 1 | (x & 1)) * 3 + pattern.color(x: x, y: y)) * 65536
                }
                let columnsIn = (0..<ww).map { Self.fold(ox + $0, w) }
                let inside = max(0, ox)..<min(w, ox + ww)
                let m = ws.mosaic
                // With noise reduction: the worker's linear window (the block's and the halo around it).
                let (nw, nh) = (ww + 2 * nrHalo, windowHeight + 2 * nrHalo)
                let linear = noise == nil ? nil : denoisers.value[worker].window.pointer.assumingMemoryBound(to: Float.self)
                if let noise, let linear {
                    // Linear values of the window and the noise reduction's halo around it,
                    // denoised, then white balanced and encoded into the demosaic's window.
                    let (nx, ny) = (ox - nrHalo, oy - nrHalo)
                    let nrColumns = (0..<nw).map { Self.fold(nx + $0, w) }
                    for wy in 0..<nh {
                        let sy = Self.fold(ny + wy, h)
                        let line = source.row(sy)
                        let dst = linear + wy * nw
                        for wx in 0..<nw {
                            let sx = nrColumns[wx]
                            let p = (sy & 1) << 1 | (sx & 1)
                            dst[wx] = Linearization.float(line[sx], black: black[p], scale: scale[p])
                        }
                    }
                    denoisers.value[worker].nr.denoise(
                        MosaicWindow(x: nx, y: ny, width: nw, height: nh, stride: nw, samples: linear), models: noise.models,
                        amount: noise.amount, noiseScales: noise.scales, blockStep: noise.step)
                }
                for wy in 0..<windowHeight {
                    let sy = Self.fold(oy + wy, h)
                    let dst = m + wy * ww
                    if let linear {
                        // The denoised linear row, white balanced and encoded.
                        let src = linear + (wy + nrHalo) * nw + nrHalo
                        for wx in 0..<ww {
                            dst[wx] = PowerDomain.encode(max(0, src[wx] * gains[pattern.color(x: columnsIn[wx], y: sy)]))
                        }
                    } else {
                        let line = source.row(sy)
                        let row = (wy % 6) * 6
                        var pos = 0
                        for wx in 0..<ww {
                            dst[wx] = tables.value[tableBase[row + pos] + Int(line[columnsIn[wx]])]
                            pos = pos == 5 ? 0 : pos + 1
                        }
                    }
                    // Lens shading multiplies linear light, so the domain's value by the factor^0.4.
                    if let factors = LensShading.factors(gainMaps, area: area, row: sy, columns: inside) {
                        for wx in 0..<ww { dst[wx] *= PowerDomain.encode(factors[columnsIn[wx] - inside.lowerBound]) }
                    }
                }
                demosaic.run(ws, width: ww, height: windowHeight, originX: ox, originY: oy)
                let count = end - start
                let marks = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
                defer { marks.deallocate() }
                for y in sensorRows {
                    let wy = y - oy
                    let at = wy * ww + halo
                    let o =
                        (out.value + (y - sensorRows.lowerBound) * bytesPerRow).assumingMemoryBound(to: Float.self)
                        + 3 * (start - sensorColumns.lowerBound)
                    let r = ws.plane(0) + at
                    let g = ws.plane(1) + at
                    let b = ws.plane(2) + at
                    guard PowerDomain.developRow(r, g, b, count: count, matrix: pixel.balancedMatrix, knee: knee, into: o, flags: marks),
                        let hl = pixel.highlight
                    else { continue }
                    PowerDomain.forEachFlagged(marks, count: count) { i in
                        var v = SIMD3(PowerDomain.decode(r[i]), PowerDomain.decode(g[i]), PowerDomain.decode(b[i]))
                        guard hl.mayBeClipped(v) else { return }
                        v = hl.apply(v, clipped: Self.clippedColours(x: start + i, y: y, in: source, layout: pattern, pixel: pixel))
                        pixel.balancedMatrix.write(v.x, v.y, v.z, to: o + 3 * i)
                    }
                }
            }
        }
    }

    /// Which colours have a photosite at the white level within ``HighlightRecovery/reach`` of
    /// (x, y), the X-Trans filter saying which colour each is.
    static func clippedColours(x: Int, y: Int, in rows: MosaicRows, layout pattern: XTransPattern, pixel: PixelDevelop) -> SIMD3<Float> {
        var found = SIMD3<Float>.zero
        let reach = HighlightRecovery.reach
        let h = pixel.height
        for yy in max(0, y - reach)...min(h - 1, y + reach) {
            let line = rows.row(yy)
            for xx in max(0, x - reach)...min(rows.width - 1, x + reach) {
                let p = (yy & 1) << 1 | (xx & 1)
                if Int32(line[xx]) >= pixel.threshold[p] { found[pattern.color(x: xx, y: yy)] = 1 }
            }
        }
        return found
    }
}
