// The draft develop's highlight inputs (SPEC X3 highlight recovery, X7 draft re-renders): for
// each pixel of a draft develop (half size or full size), whether the highlight stage will look
// at it, which colours it counts as clipped, and its camera RGB. None of it depends on the white
// balance, so draft mode resamples and caches it beside the camera-RGB develop, and a white-
// balance change re-runs only the per-pixel highlight stage and matrix (DraftBalance).
// Our own code: the mosaic's clipping is the point of the highlight stage.
import DaguerreCore
import DaguerreFormats
import DaguerreImage

/// Rows (RGBA floats) in the geometry of the draft develop that `settings` describe: one pixel
/// per 2×2 block for the half-size path, one per photosite for bilinear.
///
/// A pixel is *marked* (m = 1) when the undivided develop's highlight stage would rebuild it:
/// a photosite at the white level lies within ``HighlightRecovery/reach`` of the pixel's
/// photosite (a block's top-left one), and one of its camera-RGB channels is above the knee
/// (``HighlightRecovery/knee`` of the white level: the stage's own test, which in camera RGB
/// does not depend on the white balance).
/// - ``Output/flags``: the colours ``HighlightRecovery/clippedColours`` finds, 0 or 1 each,
///   premultiplied by m, with alpha m. Resampled (Lanczos, as the camera RGB), its alpha is the
///   weight marked pixels have in the resampled camera RGB, and each colour's share of it the
///   weight of those with that colour clipped.
/// - ``Output/markedCamera``: the camera RGB of marked pixels, premultiplied by m, with alpha m.
///   Resampled with weights that are never negative, its unpremultiplied colour is the mean
///   camera RGB of the marked pixels under the footprint.
///
/// Rows whose neighbourhood has no photosite at the white level (nearly all of a typical photo)
/// are zeros without a develop; which rows have one is scanned once per filter and shared.
///
/// ```swift
/// let rows = HighlightRecovery.rowsReachingWhite(mosaic)
/// let flags = try ClipMaskDecoder(mosaic: mosaic, settings: cameraSettings, clippedRows: rows, output: .flags)
/// try flags.readRows(y: 0, count: 16, into: rows, bytesPerRow: flags.info.width * 16)
/// ```
final class ClipMaskDecoder: DevelopSource {
    enum Output: String, Sendable { case flags, markedCamera }

    let info: RowSourceInfo
    var columns: Range<Int>
    private let output: Output
    private let mosaic: BayerImage
    /// The camera-RGB develop the knee test reads (rows near clipping only).
    private let camera: RAWDevelopDecoder
    private let crop: IntRect
    /// Photosites per output pixel along each axis: 2 for the half-size develop, 1 for bilinear.
    private let step: Int
    private let threshold: SIMD4<Int32>
    private let colors: BayerPatternColors
    /// Per mosaic row, whether a photosite in it is at the white level
    /// (``HighlightRecovery/rowsReachingWhite(_:)``, scanned once per filter and shared).
    private let rowClips: [Bool]

    /// `settings` must describe a camera-RGB develop (identity matrix, no highlight stage);
    /// `clippedRows` is ``HighlightRecovery/rowsReachingWhite(_:)`` of `mosaic`.
    init(mosaic: BayerImage, settings: DevelopSettings, clippedRows: [Bool], output: Output) throws(DaguerreError) {
        guard settings.demosaic != .lmmseGW else {
            throw .unsupported(
                feature: "a clip mask for the LMMSE-GW develop",
                hint: "Draft mode develops half size or bilinear; LMMSE-GW applies its highlight stage itself.")
        }
        guard settings.highlight == nil, settings.matrix == .identity else {
            throw .invalidArgument(
                what: "the clip mask's develop settings", problem: "must develop camera RGB: identity matrix, no highlight stage")
        }
        guard clippedRows.count == mosaic.height else {
            throw .invalidArgument(
                what: "the clip mask's clipped rows (\(clippedRows.count))", problem: "give one per mosaic row (\(mosaic.height))")
        }
        rowClips = clippedRows
        camera = try RAWDevelopDecoder(mosaic: mosaic, settings: settings)
        let base = camera.info
        info = RowSourceInfo(
            kind: "RAW clip mask", width: base.width, height: base.height, pixelFormat: .rgbaf, alpha: .premultiplied,
            colorSpace: base.colorSpace)
        self.output = output
        self.mosaic = mosaic
        crop = settings.crop
        step = settings.demosaic == .halfSize ? 2 : 1
        columns = 0..<info.width
        threshold = HighlightRecovery.thresholds(black: mosaic.blackLevel, white: mosaic.whiteLevel)
        colors = BayerPatternColors(mosaic.pattern.cfaPattern)
    }

    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        try checkRows(y: y, count: count)
        let w = mosaic.width
        let h = mosaic.height
        let reach = HighlightRecovery.reach
        let cols = columns
        let n = cols.count
        let rowClips = self.rowClips
        let crop = self.crop
        let step = self.step
        let output = self.output
        let threshold = self.threshold
        let colors = self.colors
        // The mosaic rows each output row's pixels look at; rows with no clip there are zeros.
        let windows = (0..<count).map { r in
            let sy = crop.y + step * (y + r)
            return max(0, sy - reach)...min(h - 1, sy + reach)
        }
        let near = windows.map { $0.contains { rowClips[$0] } }
        for r in 0..<count { (destination + r * bytesPerRow).assumingMemoryBound(to: SIMD4<Float>.self).update(repeating: .zero, count: n) }
        guard n > 0, let first = near.firstIndex(of: true), let last = near.lastIndex(of: true) else { return }
        // The camera RGB of the rows near a clip, for the knee test (one develop call: its
        // workers share the rows).
        _ = try camera.setColumns(cols)
        var rgb = [Float](repeating: 0, count: 3 * n * (last - first + 1))
        var failure: DaguerreError?
        rgb.withUnsafeMutableBytes { b in
            do throws(DaguerreError) {
                try camera.readRows(y: y + first, count: last - first + 1, into: b.baseAddress!, bytesPerRow: 12 * n)
            } catch { failure = error }
        }
        if let failure { throw failure }
        // The sensor columns the row's pixels sit on, and their neighbourhood.
        let firstX = crop.x + step * cols.lowerBound
        let lastX = crop.x + step * (cols.upperBound - 1)
        let lo = max(0, firstX - reach)
        let hi = min(w - 1, lastX + reach)
        // Each sensor row the windows cover, once: per photosite, its colour's bit if it is at
        // the white level (rows with no clip stay zero).
        let sensorRows = windows[first].lowerBound...windows[last].upperBound
        let span = hi - lo + 1
        var bits = [UInt8](repeating: 0, count: sensorRows.count * span)
        bits.withUnsafeMutableBufferPointer { b in
            let rowBits = UnsafeTransfer(b.baseAddress!)
            mosaic.samples.withUnsafeBufferPointer { s in
                let samples = UnsafeTransfer(UnsafeMutablePointer(mutating: s.baseAddress!))
                WorkerPool.share(iterations: min(sensorRows.count, 8)) { part in
                    for k in stride(from: part, to: sensorRows.count, by: min(sensorRows.count, 8)) {
                        let yy = sensorRows.lowerBound + k
                        guard rowClips[yy] else { continue }
                        let line = samples.value + yy * w
                        let o = rowBits.value + k * span
                        // The two colours and thresholds of this row, by column parity: the loop
                        // goes by pairs of columns from an even one.
                        let even = (threshold[(yy & 1) << 1], UInt8(1) << UInt8(colors.color(x: 0, y: yy)))
                        let odd = (threshold[(yy & 1) << 1 | 1], UInt8(1) << UInt8(colors.color(x: 1, y: yy)))
                        let start = lo & ~1
                        var x = start
                        while x < hi {
                            let a: UInt8 = Int32(line[x]) >= even.0 ? even.1 : 0
                            let b: UInt8 = Int32(line[x &+ 1]) >= odd.0 ? odd.1 : 0
                            if x >= lo { o[x &- lo] = a }
                            o[x &+ 1 &- lo] = b
                            x &+= 2
                        }
                        if x == hi { o[hi &- lo] = Int32(line[hi]) >= even.0 ? even.1 : 0 }
                    }
                }
            }
        }
        let out = UnsafeTransfer(destination)
        rgb.withUnsafeBufferPointer { developed in
            let camera = UnsafeTransfer(UnsafeMutablePointer(mutating: developed.baseAddress!))
            bits.withUnsafeBufferPointer { b in
                let rowBits = UnsafeTransfer(UnsafeMutablePointer(mutating: b.baseAddress!))
                WorkerPool.share(iterations: min(last - first + 1, 8)) { part in
                    // Per worker: the row's flags by sensor column, then widened by the reach.
                    let columnFlags = UnsafeMutablePointer<UInt8>.allocate(capacity: span)
                    let widened = UnsafeMutablePointer<UInt8>.allocate(capacity: span)
                    defer {
                        columnFlags.deallocate()
                        widened.deallocate()
                    }
                    for r in stride(from: first + part, through: last, by: min(last - first + 1, 8)) where near[r] {
                        // Per sensor column, the colours at the white level in the window's rows…
                        columnFlags.update(repeating: 0, count: span)
                        for yy in windows[r] where rowClips[yy] {
                            let o = rowBits.value + (yy - sensorRows.lowerBound) * span
                            for i in 0..<span { columnFlags[i] |= o[i] }
                        }
                        // Widened: OR of the neighbours up to the reach, one shifted pass per
                        // distance and side (plain loops that vectorize).
                        widened.update(from: columnFlags, count: span)
                        for d in 1..<(reach + 1) where d < span {
                            for i in d..<span { widened[i] |= columnFlags[i &- d] }
                            for i in 0..<(span &- d) { widened[i] |= columnFlags[i &+ d] }
                        }
                        // …then, per pixel, those within the reach of its photosite's column, where
                        // its camera RGB is above the knee.
                        let row = (out.value + r * bytesPerRow).assumingMemoryBound(to: SIMD4<Float>.self)
                        let v = camera.value + 3 * n * (r - first)
                        for i in 0..<n {
                            let found = widened[firstX &+ step &* i &- lo]
                            guard found != 0 else { continue }
                            let c = SIMD3(v[3 * i], v[3 * i + 1], v[3 * i + 2])
                            guard c.max() > HighlightRecovery.knee else { continue }
                            switch output {
                            case .flags: row[i] = SIMD4(found & 1 != 0 ? 1 : 0, found & 2 != 0 ? 1 : 0, found & 4 != 0 ? 1 : 0, 1)
                            case .markedCamera: row[i] = SIMD4(c.x, c.y, c.z, 1)
                            }
                        }
                    }
                }
            }
        }
    }
}
