// Highlight handling (SPEC X3 "highlight recovery", pipeline version 3): where a photosite
// reached the sensor's white level, its channel is unknown above it. After white balance the
// channels saturate at different levels (the channel with the largest camera neutral at 1, the
// others above), so a clipped highlight left alone turns magenta or cyan. Our own code.
import DaguerreCore
import DaguerreFormats

/// Per pixel, on white-balanced camera RGB (white at 1) after demosaicking. A colour counts as
/// clipped at a pixel when a photosite of that colour within two photosites reached the white
/// level: the mosaic says so, where the demosaicked values cannot (next to a clipped area the
/// demosaic under- or overshoots, which is where magenta fringes come from). Pixels with a
/// clipped colour get a rebuilt value: clipped colours are set to a level L and the others
/// capped at L, where L = 1 + amount · (max(1, mean of the channels, each capped at its
/// saturation) − 1). So amount 0 clips to white at 1, and amount 1 keeps the brightness the
/// unclipped channels still see (up to about two stops over white), neutral, for the boost
/// curve or a negative exposure to bring back. A strongly coloured pixel with one clipped
/// colour keeps its colour (its other channels are below L); pixels with no clipped photosite
/// near them are never touched.
///
/// ```swift
/// let h = HighlightRecovery(saturation: SIMD3(1.6, 1, 1.8), amount: 1)
/// let fixed = h.apply(SIMD3(1.37, 1.0, 1.2), clipped: SIMD3(0, 1, 0))   // ≈ (1.19, 1.19, 1.19)
/// ```
struct HighlightRecovery: Sendable, Hashable {
    /// The white-balanced value of the white level, per channel (1 / normalized neutral).
    var saturation: SIMD3<Float>
    /// 0 clips to white; 1 rebuilds brightness from the unclipped channels.
    var amount: Float
    /// Below this fraction of every channel's saturation no photosite near the pixel can be
    /// clipped (demosaic overshoot stays well under 10 %), so the mosaic is not consulted.
    static let knee: Float = 0.9
    /// How far (in photosites) a clipped photosite marks its colour as clipped.
    static let reach = 2

    /// For a develop whose white balance is the camera neutral `neutral`: each channel saturates
    /// at its white-balance gain.
    init(neutral: SIMD3<Double>, amount: Double) {
        let n = DevelopSettings.normalized(neutral)
        saturation = SIMD3(Float(1 / max(n.x, 1e-6)), Float(1 / max(n.y, 1e-6)), Float(1 / max(n.z, 1e-6)))
        self.amount = Float(min(max(amount, 0), 1))
    }

    init(saturation: SIMD3<Float>, amount: Float) {
        self.saturation = saturation
        self.amount = amount
    }

    /// True when the pixel is bright enough that the mosaic must be consulted.
    @inline(__always) func mayBeClipped(_ v: SIMD3<Float>) -> Bool {
        v.x > Self.knee * saturation.x || v.y > Self.knee * saturation.y || v.z > Self.knee * saturation.z
    }

    /// The rebuilt pixel; `clipped` holds 1 for each colour with a clipped photosite nearby.
    @inline(__always) func apply(_ v: SIMD3<Float>, clipped: SIMD3<Float>) -> SIMD3<Float> {
        guard clipped.x + clipped.y + clipped.z > 0 else { return v }
        let s = saturation
        let capped = SIMD3(min(v.x, s.x), min(v.y, s.y), min(v.z, s.z))
        let level = 1 + amount * (max(1, (capped.x + capped.y + capped.z) / 3) - 1)
        return SIMD3(
            clipped.x > 0 ? level : min(v.x, level), clipped.y > 0 ? level : min(v.y, level),
            clipped.z > 0 ? level : min(v.z, level))
    }

    /// Which colours have a photosite at the white level within ``reach`` of (x, y): the mosaic's
    /// `samples` (width w, height h), with the per-CFA-position code that counts as clipped.
    @inline(__always) static func clippedColours(
        x: Int, y: Int, in rows: MosaicRows, height h: Int,
        threshold: SIMD4<Int32>, colors: BayerPatternColors
    ) -> SIMD3<Float> {
        var found = SIMD3<Float>.zero
        let w = rows.width
        for yy in max(0, y - reach)...min(h - 1, y + reach) {
            let line = rows.row(yy)
            for xx in max(0, x - reach)...min(w - 1, x + reach) {
                let p = (yy & 1) << 1 | (xx & 1)
                if Int32(line[xx]) >= threshold[p] { found[colors.color(x: xx, y: yy)] = 1 }
            }
        }
        return found
    }

    /// Whether a photosite within ``reach`` of row `y`, columns `x0 ..< x0 + count`, is at or
    /// above `lowest` (the lowest of the positions' clip thresholds): when none is,
    /// ``clippedColours(x:y:in:height:threshold:colors:)`` finds nothing for any pixel of the
    /// segment.
    @inline(__always) static func reachesWhite(
        y: Int, x0: Int, count: Int, in rows: MosaicRows, height h: Int, lowest: Int32
    ) -> Bool {
        let lo = max(0, x0 - reach)
        let hi = min(rows.width, x0 + count + reach)
        guard hi > lo, h > 0 else { return false }
        for yy in max(0, y - reach)...min(h - 1, y + reach) {
            if reachesWhite(rows.row(yy) + lo, count: hi - lo, lowest: lowest) { return true }
        }
        return false
    }

    /// Whether one of `count` photosites from `line` is at or above `lowest`.
    @inline(__always) static func reachesWhite(_ line: UnsafePointer<UInt16>, count: Int, lowest: Int32) -> Bool {
        var top: UInt16 = 0
        for x in 0..<count { top = max(top, line[x]) }
        return Int32(top) >= lowest
    }

    /// Per mosaic row, whether a photosite in it is at the lowest of the positions' clip
    /// thresholds (``thresholds``): one pass over the samples, a band of rows per worker. Rows
    /// without one (nearly all of a typical photo) need no highlight work at all.
    static func rowsReachingWhite(_ mosaic: BayerImage) -> [Bool] {
        let lowest = thresholds(black: mosaic.blackLevel, white: mosaic.whiteLevel).min()
        let w = mosaic.width
        let rows = mosaic.height
        let bands = min(64, max(1, rows / 64))
        var flags = [Bool](repeating: false, count: rows)
        flags.withUnsafeMutableBufferPointer { f in
            let out = UnsafeTransfer(f.baseAddress!)
            mosaic.samples.withUnsafeBufferPointer { s in
                let samples = UnsafeTransfer(UnsafeMutablePointer(mutating: s.baseAddress!))
                WorkerPool.share(iterations: bands) { b in
                    for y in (rows * b / bands)..<(rows * (b + 1) / bands) {
                        out.value[y] = reachesWhite(samples.value + y * w, count: w, lowest: lowest)
                    }
                }
            }
        }
        return flags
    }

    /// Per CFA position, the code at 99.9 % of the range above black.
    static func thresholds(black: [Double], white: Int) -> SIMD4<Int32> {
        var t = SIMD4<Int32>(repeating: Int32(white))
        for p in 0..<min(4, black.count) { t[p] = Int32((black[p] + 0.999 * (Double(white) - black[p])).rounded(.up)) }
        return t
    }
}
