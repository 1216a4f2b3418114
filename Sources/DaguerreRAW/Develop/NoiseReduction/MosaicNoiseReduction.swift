// Raw noise reduction of a window of the linearized Bayer mosaic (SPEC X3; issue #5 "Noise";
// REPORT §3 of the project's noise research): each of the four CFA planes is stabilized with its
// own noise model, denoised by DCT4-2S, and brought back, before white balance and demosaic.
// Windows let a streaming develop work band by band: each plane is mirrored at the window's
// edges, which is the full-frame rule where the edge is an image border; where it is not, only a
// margin of `halo` photosites depends on the mirrored samples, and the caller reads past it
// (its window carries real neighbours that far). So a window's valid part equals a full-frame
// run. Our own code: no Debian library denoises raw CFA data.
import DaguerreCore
import Dispatch

/// A rectangle of the linearized mosaic (x = (code − black)/(white − black), negatives kept, not
/// clipped) in memory, and where it lies in the image.
struct MosaicWindow {
    /// Image coordinates of sample (0, 0).
    var x: Int, y: Int
    var width: Int, height: Int
    /// Floats from one row to the next.
    var stride: Int
    var samples: UnsafeMutablePointer<Float>
}

/// DCT4-2S over a mosaic window, the four planes in parallel, each plane in column strips of
/// ``stripColumns`` samples with ``stripHalo`` more on each side (so a worker's workspace is
/// about 2.8 MB at any image width, and stays in cache better than whole rows).
///
/// The samples of the window at least ``halo`` photosites away from each edge that is not an
/// image border come out as a full-frame run gives them (bit for bit when the window's
/// `x` is a multiple of 16 at block step 1 and 32 at step 2, which keeps the SIMD lane groups
/// where the full frame has them; else up to the order of float additions); the rest are
/// approximations of them.
///
/// ```swift
/// let nr = try MosaicNoiseReduction(maxWidth: 6064, maxHeight: 320, workers: 2)
/// nr.denoise(window, profile: profile, amount: 1)   // rows 12..<308 exact, unless at an image border
/// ```
final class MosaicNoiseReduction {
    /// Photosites of input needed on each side of an exact output: DCT4-2S reaches 6 plane
    /// samples, 12 photosites (even, so Bayer positions are kept).
    static let halo = 2 * DCT4PlaneDenoiser.reach

    /// Plane samples per column strip and the neighbours read on each side (≥ DCT4-2S's reach
    /// of 6). Both are multiples of 16, so strips keep the SIMD lane groups where a full-frame
    /// run has them: 8 block columns are 8 samples at block step 1 and 16 at step 2.
    static let stripColumns = 1024, stripHalo = 16

    private let workspaces: [DCT4PlaneDenoiser]
    /// Per worker: the stabilized samples of a strip's last `stripHalo` columns, kept for the
    /// next strip after the strip's output has replaced them in the window.
    private let carries: [UnsafeMutablePointer<Float>]
    let maxWidth: Int, maxHeight: Int

    /// Workspaces for windows up to `maxWidth` × `maxHeight` photosites, one per worker (at most
    /// 4: one per plane), and one more for a thread that assists (``SharedWork/Assistance``).
    /// Sizes are checked against `limits` before anything is allocated.
    init(maxWidth: Int, maxHeight: Int, workers: Int, limits: Limits = .default) throws(DaguerreError) {
        try limits.check(width: maxWidth, height: maxHeight, bytesPerPixel: 4, what: "noise reduction window")
        self.maxWidth = maxWidth; self.maxHeight = maxHeight
        let n = min(max(workers, 1), 4) + 1
        let rows = (maxHeight + 1) / 2
        var spaces: [DCT4PlaneDenoiser] = []
        for _ in 0..<n {
            spaces.append(try DCT4PlaneDenoiser(maxRows: rows, maxColumns: min((maxWidth + 1) / 2, Self.stripColumns + 2 * Self.stripHalo), limits: limits))
        }
        workspaces = spaces
        carries = (0..<n).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: rows * Self.stripHalo)
            p.initialize(repeating: 0, count: rows * Self.stripHalo)
            return p
        }
    }

    deinit { for p in carries { p.deallocate() } }


    /// Denoises `window` in place with each Bayer position's noise model from `profile` and the
    /// amount `amount` (the noise σ the method assumes, in units of the profile's; 0 leaves the
    /// window untouched), scaled per DCT coefficient by `noiseScales` (the detail and contrast
    /// controls, ``NoiseReductionControls``; all 1 by default). Planes without noise, and planes
    /// under 4×4 samples, are left as they are; so are windows larger than the workspaces.
    ///
    /// With `blockStep` `.alternate` (pipeline version 4) the block grid is anchored at the
    /// image's corner, so a window must start on a row that is a multiple of 4 (a plane's even
    /// row) and, for the SIMD lane groups, on a column that is a multiple of 32 (16 plane
    /// samples) for its valid part to equal a full-frame run bit for bit.
    func denoise(_ window: MosaicWindow, profile: CFANoiseProfile, amount: Float, noiseScales: SIMD16<Float> = SIMD16(repeating: 1),
                 blockStep: DCT4PlaneDenoiser.BlockStep = .every, assistance: SharedWork.Assistance? = nil) {
        guard amount > 0, amount.isFinite, profile.hasNoise, window.x >= 0, window.y >= 0,
              window.width >= 1, window.height >= 1, window.width <= maxWidth, window.height <= maxHeight,
              window.stride >= window.width else { return }
        let spaces = UnsafeTransfer(workspaces), carry = UnsafeTransfer(carries)
        let w = UnsafeTransfer(window)
        let models = profile.planes
        // The last workspace is the assisting thread's (worker `workers` of the run).
        let workers = workspaces.count - 1
        // Safety: each worker owns one workspace and one carry buffer and writes only the samples
        // of its own planes (disjoint Bayer positions) of the window; nothing else is shared mutably.
        SharedWork.run(workers: workers, items: 4, assistance: assistance) { worker, position in
            Self.denoisePlane(position, of: w.value, model: models[position], amount: amount, noiseScales: noiseScales, blockStep: blockStep,
                              workspace: spaces.value[worker], carry: carry.value[worker])
        }
    }

    /// Stabilizes, denoises and writes back the samples of one Bayer position, strip by strip.
    private static func denoisePlane(_ position: Int, of window: MosaicWindow, model: NoiseModel, amount: Float, noiseScales: SIMD16<Float>,
                                     blockStep: DCT4PlaneDenoiser.BlockStep,
                                     workspace: DCT4PlaneDenoiser, carry: UnsafeMutablePointer<Float>) {
        guard model.hasNoise else { return }
        let py = position >> 1, px = position & 1
        // First window row and column holding this position.
        let r0 = (py - window.y) & 1, c0 = (px - window.x) & 1
        let rows = (window.height - r0 + 1) / 2, columns = (window.width - c0 + 1) / 2
        guard rows >= 4, columns >= 4 else { return }
        let vst = GeneralizedAnscombe(model)
        let halo = stripHalo
        var start = 0
        while start < columns {
            let end = min(columns, start + stripColumns)
            // Input columns in0..<in1; the first `carried` of them come from the previous strip.
            let in0 = max(0, start - halo), in1 = min(columns, end + halo)
            let carried = start - in0
            for r in 0..<rows {
                let src = window.samples + (r0 + 2 * r) * window.stride + c0
                let dst = workspace.inputRow(r)
                dst.update(from: carry + r * halo, count: carried)
                vst.forward(everyOther: src + 2 * (in0 + carried), count: in1 - in0 - carried, into: dst + carried)
            }
            workspace.denoise(rows: rows, columns: in1 - in0, amount: amount, noiseScales: noiseScales, blockStep: blockStep)
            if end < columns {
                for r in 0..<rows {
                    let y = workspace.inputRow(r) + (end - halo - in0)
                    for c in 0..<halo { carry[r * halo + c] = y[c] }
                }
            }
            for r in 0..<rows {
                let z = workspace.outputRow(r)
                let dst = window.samples + (r0 + 2 * r) * window.stride + c0
                vst.inverse(z + (start - in0), count: end - start, everyOther: dst + 2 * start)
            }
            start = end
        }
    }
}
