// Raw noise reduction of a window of a linearized X-Trans mosaic (SPEC X3, X6): the Bayer
// path's method (each single-colour plane stabilized with its colour's noise model, denoised by
// DCT4-2S, brought back, before white balance and demosaic) on the planes an X-Trans filter
// has. Its greens repeat every 3 photosites in both directions, so each of the 5 green places of
// a 3×3 block is one plane at a third of the size; its reds and blues alternate from one 3×3
// block to the next, so each of their 16 places in the 6×6 block is a plane at a sixth. Every
// plane is a regular grid of one colour whose noise is white, as DCT4-2S assumes. Our own code:
// no Debian library denoises X-Trans data.
import DaguerreCore

/// Denoises windows of a linearized X-Trans mosaic in place, one plane after another.
///
/// One object per worker: it holds a ``DCT4PlaneDenoiser`` workspace for the largest plane of a
/// window up to its size. The samples at least ``halo`` photosites inside the window's edges
/// come out as a run over the whole mosaic gives them (up to the order of float additions); the
/// caller reads past the rest. At the image's borders the caller folds the mosaic by whole 6×6
/// repeats, which keeps every plane's colour.
///
/// ```swift
/// let nr = try XTransNoiseReduction(pattern: .standard, maxWidth: 1200, maxHeight: 400)
/// nr.denoise(window, profile: profile, amount: 2)   // window: linear floats, its origin in the image
/// ```
final class XTransNoiseReduction {
    /// A plane: the photosites at `phase` + multiples of `period` (image coordinates), one colour.
    struct Plane: Sendable, Hashable {
        var period: Int
        var phaseX: Int, phaseY: Int
        var color: Int
    }

    /// Photosites of input needed on each side of an exact output: DCT4-2S reaches 6 plane
    /// samples, and a plane may start one sample in (see ``denoise``); in the sparsest planes
    /// (period 6) that is 42 photosites.
    static let halo = 6 * (DCT4PlaneDenoiser.reach + 1)

    let planes: [Plane]
    let maxWidth: Int, maxHeight: Int
    private let workspace: DCT4PlaneDenoiser

    /// A workspace for windows up to `maxWidth` × `maxHeight` photosites of `pattern`'s mosaic;
    /// sizes are checked against `limits` before anything is allocated.
    init(pattern: XTransPattern, maxWidth: Int, maxHeight: Int, limits: Limits = .default) throws(DaguerreError) {
        planes = Self.planes(of: pattern)
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        // The densest planes (period 3) are the largest.
        workspace = try DCT4PlaneDenoiser(maxRows: (maxHeight + 2) / 3, maxColumns: (maxWidth + 2) / 3, limits: limits)
    }

    /// The planes of `pattern`: a 3×3 place whose four repeats in the 6×6 block share one colour
    /// (the greens) is one plane of period 3; any other place gives four planes of period 6.
    static func planes(of pattern: XTransPattern) -> [Plane] {
        var out: [Plane] = []
        for py in 0..<3 {
            for px in 0..<3 {
                let repeats = [(0, 0), (3, 0), (0, 3), (3, 3)].map { pattern.color(x: px + $0.0, y: py + $0.1) }
                if Set(repeats).count == 1 {
                    out.append(Plane(period: 3, phaseX: px, phaseY: py, color: repeats[0]))
                } else {
                    for (dx, dy) in [(0, 0), (3, 0), (0, 3), (3, 3)] {
                        out.append(Plane(period: 6, phaseX: px + dx, phaseY: py + dy, color: pattern.color(x: px + dx, y: py + dy)))
                    }
                }
            }
        }
        return out
    }

    /// Denoises `window` (linear values, its `x`, `y` the image coordinates of its first sample,
    /// which may be negative where the caller folded the mosaic by whole 6×6 repeats) with each
    /// colour's model from `models` (R, G, B), the amount and the detail and contrast controls'
    /// per-coefficient scales. Planes under 4×4 samples and colours without noise are left as
    /// they are; so are windows larger than the workspace.
    func denoise(
        _ window: MosaicWindow, models: [NoiseModel], amount: Float, noiseScales: SIMD16<Float> = SIMD16(repeating: 1),
        blockStep: DCT4PlaneDenoiser.BlockStep = .every
    ) {
        guard amount > 0, amount.isFinite, models.count == 3, window.width <= maxWidth, window.height <= maxHeight,
            window.stride >= window.width
        else { return }
        for plane in planes where models[plane.color].hasNoise {
            let p = plane.period
            // The window's first row and column on this plane, moved on by one plane sample
            // where that sample's index in the whole plane is odd: the block grid (every other
            // block at step 2) then lies where a run over the whole mosaic has it.
            var r0 = ((plane.phaseY - window.y) % p + p) % p
            var c0 = ((plane.phaseX - window.x) % p + p) % p
            if (window.y + r0 - plane.phaseY) / p & 1 != 0 { r0 += p }
            if (window.x + c0 - plane.phaseX) / p & 1 != 0 { c0 += p }
            let rows = (window.height - r0 + p - 1) / p
            let columns = (window.width - c0 + p - 1) / p
            guard rows >= 4, columns >= 4 else { continue }
            let vst = GeneralizedAnscombe(models[plane.color])
            for r in 0..<rows {
                let src = window.samples + (r0 + p * r) * window.stride + c0
                let dst = workspace.inputRow(r)
                for c in 0..<columns { dst[c] = vst.forward(src[p &* c]) }
            }
            workspace.denoise(rows: rows, columns: columns, amount: amount, noiseScales: noiseScales, blockStep: blockStep)
            for r in 0..<rows {
                let src = workspace.outputRow(r)
                let dst = window.samples + (r0 + p * r) * window.stride + c0
                for c in 0..<columns { dst[p &* c] = vst.inverse(src[c]) }
            }
        }
    }
}
