// The denoised photosites a streaming develop reads (SPEC X3, X8): the
// develop source asks for the rows of one chunk at a time, and this keeps a window of the
// linearized mosaic around them, denoised by DCT4-2S, so no whole-image float copy ever exists.
// Our own code: the windowing is what makes raw noise reduction fit a streaming engine.
import DaguerreCore
import DaguerreFormats
import Foundation

/// A window of the linearized (x = (code − black)/(white − black), unclipped), denoised mosaic
/// that follows the develop down the image.
///
/// ``update(rows:columns:halo:)`` makes the photosites of `rows` × `columns` plus `halo` on each
/// side (clipped to the mosaic) final: they equal a full-frame run of DCT4-2S, bit for bit. The
/// window read from the mosaic reaches a further ``MosaicNoiseReduction/halo(_:)`` (12, or 14 for
/// version 7's joint pilot) beyond them,
/// starts on a row that is a multiple of 4 and a column that is a multiple of 32 (block grid and SIMD lane groups where the
/// full frame has them), and is clipped to the mosaic, where each plane is mirrored as in a
/// full-frame run. When the rows come in order, the final rows the previous window shares with
/// the next (2 × `halo`) are carried over and only the rest is denoised, with its own margin (the
/// halo): at the develop's 256-row chunks (`DevelopChunks.chunkRows`) and the demosaic's
/// 20-row halo, about 9 % of rows are denoised twice instead of 25 %.
///
/// ```swift
/// let d = DenoisedMosaic(layout: mosaic.layout, settings: nr)
/// try d.reserve(rows: 256, columns: 6000)
/// let w = try d.update(rows: 0..<256, columns: 0..<6000, halo: 20)
/// d.samples[(y - w.y) * w.width + (x - w.x)]      // for y in 0..<276, x in 0..<6000
/// ```
final class DenoisedMosaic {
    let mosaic: MosaicLayout
    /// Noise reduction, or nil when the window only linearizes (and applies gain maps).
    let settings: NoiseReductionSettings?
    /// OpcodeList2's gain maps (lens shading, DNG 1.4 §7), applied to the linearized photosites
    /// before noise reduction, in the coordinates of `activeArea` (the stage-2 image).
    let gainMaps: [DNGGainMap]
    let activeArea: IntRect
    let limits: Limits
    /// The window's samples, row stride `layout.width`: zero pages from the kernel
    /// (``ZeroedBuffer``), first touched by the workers that linearize and denoise them. A
    /// zero-filled array cleared its 14 MB (24 MP) on the develop's thread before the first
    /// chunk's workers started, with both cores waiting.
    var samples: UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(
            start: storage?.pointer.assumingMemoryBound(to: Float.self), count: storage.map { $0.byteCount / 4 } ?? 0)
    }
    private var storage: ZeroedBuffer?
    /// Where the samples lie in the mosaic, and the rows of them that are final.
    private var layout: (x: Int, y: Int, width: Int, valid: Range<Int>)?
    /// Final rows carried from one window to the next.
    private var carried: [Float] = []
    private var reducer: MosaicNoiseReduction?
    /// The window size allocated so far.
    private var reserved = (width: 0, height: 0)
    /// The noise reduction's halo (``MosaicNoiseReduction/halo(_:)``).
    var halo: Int { MosaicNoiseReduction.halo(settings?.pilot ?? .perPlane) }
    /// Every code's stabilized value per position, for the noise reduction (built on first use).
    private var stabilizedCodes: StabilizedCodes?

    init(
        layout: MosaicLayout, settings: NoiseReductionSettings?, gainMaps: [DNGGainMap] = [], activeArea: IntRect? = nil,
        limits: Limits = .default
    ) {
        mosaic = layout
        self.settings = settings
        self.gainMaps = gainMaps
        self.limits = limits
        self.activeArea = activeArea ?? IntRect(x: 0, y: 0, width: mosaic.width, height: mosaic.height)
    }

    /// The mosaic window DCT4-2S runs on for final photosites `rows` × `columns` (mosaic
    /// coordinates, already including the caller's halo), `reach` (the noise reduction's halo)
    /// beyond them.
    static func window(
        rows: Range<Int>, columns: Range<Int>, mosaicWidth w: Int, mosaicHeight h: Int, reach: Int
    ) -> (x: Int, y: Int, width: Int, height: Int) {
        // Rows start on a multiple of 4 (a plane's even row: version 4's block grid; any even
        // row would do for version 3, whose every block is visited).
        let y0 = max(0, rows.lowerBound - reach) & ~3
        let y1 = min(h, rows.upperBound + reach)
        // Columns start on a multiple of 32: 16 plane samples, version 4's SIMD lane group.
        let x0 = max(0, columns.lowerBound - reach) & ~31
        let x1 = min(w, columns.upperBound + reach)
        return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
    }

    /// Allocates the window and the workspaces for requests of up to `rows` × `columns` with a
    /// halo of up to 20, once (sizes checked before allocating).
    func reserve(rows: Int, columns: Int, halo: Int = LMMSEGWDemosaic.halo, minimumWidth: Int = 0, minimumHeight: Int = 0)
        throws(DaguerreError)
    {
        let reach = halo + self.halo
        let width = min(mosaic.width, max(minimumWidth, columns + 2 * reach + 32))
        let height = min(mosaic.height, max(minimumHeight, rows + 2 * reach + 4))
        guard reserved.width < width || reserved.height < height else { return }
        try limits.check(width: width, height: height, bytesPerPixel: 4, what: "noise reduction window")
        reducer = nil
        storage = nil
        layout = nil
        if settings != nil {
            reducer = try MosaicNoiseReduction(maxWidth: width, maxHeight: height, workers: WorkerPool.processorCount, limits: limits)
        }
        storage = ZeroedBuffer(byteCount: width * height * MemoryLayout<Float>.stride)
        reserved = (width, height)
    }

    /// Makes `rows` × `columns` (mosaic coordinates) and `halo` around them final in
    /// ``samples``; returns where the samples lie (row stride `width`).
    ///
    /// `assistance` is offered the parallel loops (``WorkerPool/Assistance``).
    func update(
        rows: Range<Int>, columns: Range<Int>, halo: Int, from source: MosaicRows,
        assistance: WorkerPool.Assistance? = nil
    ) throws(DaguerreError) -> (x: Int, y: Int, width: Int, height: Int) {
        let m = mosaic
        let h = m.height
        let margin = self.halo
        let needed = max(0, rows.lowerBound - halo)..<min(h, rows.upperBound + halo)
        let (x0, y0, ww, wh) = Self.window(
            rows: needed, columns: max(0, columns.lowerBound - halo)..<min(m.width, columns.upperBound + halo),
            mosaicWidth: m.width, mosaicHeight: h, reach: margin)
        try reserve(rows: rows.count, columns: columns.count, halo: halo, minimumWidth: ww, minimumHeight: wh)
        let valid = (y0 == 0 ? 0 : y0 + margin)..<(y0 + wh == h ? h : y0 + wh - margin)
        var from = y0
        var keep = 0..<0
        if let old = layout, old.x == x0, old.width == ww, old.valid.contains(needed.lowerBound),
            old.valid.upperBound < valid.upperBound, old.valid.upperBound - margin >= y0
        {
            keep = needed.lowerBound..<old.valid.upperBound
            from = max(y0, (old.valid.upperBound - margin) & ~3)
            if carried.count < keep.count * ww { carried = [Float](repeating: 0, count: keep.count * ww) }
            let src = samples
            carried.withUnsafeMutableBufferPointer { dst in
                dst.baseAddress!.update(from: src.baseAddress! + (keep.lowerBound - old.y) * ww, count: keep.count * ww)
            }
        }
        let reducer = reducer
        let nr = settings
        let buffer = samples
        let window = MosaicWindow(
            x: x0, y: from, width: ww, height: y0 + wh - from, stride: ww, samples: buffer.baseAddress! + (from - y0) * ww)
        try source.check(holds: window.y..<(window.y + window.height), for: "raw noise reduction")
        // Without gain maps, the noise reduction stabilizes the codes themselves when it
        // denoises every photosite: the linearized window would only be read back and overwritten.
        var denoisedFromCodes = false
        if let nr, let reducer, gainMaps.isEmpty, nr.profile.planes.allSatisfy(\.hasNoise) {
            let codes = stabilizedCodes ?? StabilizedCodes(layout: m, profile: nr.profile)
            stabilizedCodes = codes
            denoisedFromCodes = reducer.denoise(
                window, codes: source, stabilized: codes, profile: nr.profile, amount: nr.amount,
                noiseScales: nr.controls.coefficientNoiseScales, blockStep: nr.blockStep, pilot: nr.pilot, assistance: assistance)
        }
        if !denoisedFromCodes {
            Self.linearize(m, from: source, into: window, assistance: assistance)
            applyGainMaps(window)
            if let nr {
                reducer?.denoise(
                    window, profile: nr.profile, amount: nr.amount, noiseScales: nr.controls.coefficientNoiseScales,
                    blockStep: nr.blockStep, pilot: nr.pilot, assistance: assistance)
            }
        }
        if !keep.isEmpty {
            carried.withUnsafeBufferPointer { src in
                (buffer.baseAddress! + (keep.lowerBound - y0) * ww).update(from: src.baseAddress!, count: keep.count * ww)
            }
        }
        layout = (x0, y0, ww, keep.isEmpty ? valid : keep.lowerBound..<valid.upperBound)
        return (x0, y0, ww, wh)
    }

    /// Multiplies the window's photosites by OpcodeList2's gain maps, a row at a time in place
    /// (the maps count rows and columns from the active area's corner).
    private func applyGainMaps(_ window: MosaicWindow) {
        guard !gainMaps.isEmpty, window.width > 0, window.height > 0 else { return }
        let a = activeArea
        let columns = (window.x - a.x)..<(window.x - a.x + window.width)
        for r in 0..<window.height {
            for map in gainMaps {
                map.multiplyRow(
                    window.y - a.y + r, columns: columns, width: a.width, height: a.height, into: window.samples + r * window.stride)
            }
        }
    }

    /// Writes x = (code − black)/(white − black) of each photosite of `window` (inside the mosaic),
    /// in bands of rows on all cores: on one thread it held up the start of every chunk's noise
    /// reduction (and the first touch of the window's pages) while the other core waited.
    static func linearize(_ m: MosaicLayout, from source: MosaicRows, into window: MosaicWindow, assistance: WorkerPool.Assistance? = nil) {
        let lin = Linearization(layout: m)
        let black = lin.floatBlack
        let scale = lin.floatScale
        let (x0, y0, ww) = (window.x, window.y, window.width)
        let band = 64
        let bands = (window.height + band - 1) / band
        do {
            let src = source
            let shared = UnsafeTransfer(window)
            // Safety: each band writes only its own rows of the window; the mosaic is read-only.
            WorkerPool.share(workers: WorkerPool.processorCount, items: bands, assistance: assistance) { _, item in
                let window = shared.value
                for r in (item * band)..<min(window.height, (item + 1) * band) {
                    let sy = y0 + r
                    let row = src.row(sy) + x0
                    let o = window.samples + r * window.stride
                    let b0 = black[(sy & 1) << 1 | (x0 & 1)]
                    let s0 = scale[(sy & 1) << 1 | (x0 & 1)]
                    let b1 = black[(sy & 1) << 1 | ((x0 + 1) & 1)]
                    let s1 = scale[(sy & 1) << 1 | ((x0 + 1) & 1)]
                    var c = 0
                    while c + 1 < ww {
                        o[c] = Linearization.float(row[c], black: b0, scale: s0)
                        o[c + 1] = Linearization.float(row[c + 1], black: b1, scale: s1)
                        c += 2
                    }
                    if c < ww { o[c] = Linearization.float(row[c], black: b0, scale: s0) }
                }
            }
        }
    }
}
