// Raw noise reduction of a window of the linearized Bayer mosaic (SPEC X3;
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

/// DCT4-2S over a mosaic window in column strips of ``stripColumns`` plane samples with
/// ``stripHalo`` more on each side (so a worker's workspace is about 2.8 MB at any image width,
/// and stays in cache better than whole rows), every strip of every plane a work item of its own.
/// Version 7's joint pilot (``Pilot/jointCFA``) keeps a workspace per plane strip instead (four
/// per strip, so their number grows with the width), and its first loop's items are bands of
/// block rows of a strip.
///
/// Strips are independent: the stabilized samples a strip reads beyond its own columns are
/// computed for every strip boundary before any strip writes its result into the window. With
/// four whole planes as the only items, the last plane of a 24 MP chunk ran alone on one core
/// while the other waited; twelve items keep both cores busy to the end.
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
    /// The halo of a run with `pilot`: the joint pilot (version 7) adds its block's other
    /// parity: a photosite's result depends on the four planes' samples of the 2×2 cells of the
    /// blocks its plane's pilot reaches, 13 photosites away at most, so 14 (even).
    static func halo(_ pilot: Pilot) -> Int { pilot == .jointCFA ? halo + 2 : halo }
    /// The largest of the halos (for what reads the mosaic around a window).
    static let largestHalo = halo(.jointCFA)

    /// Plane samples per column strip and the neighbours read on each side (≥ DCT4-2S's reach
    /// of 6). Both are multiples of 16, so strips keep the SIMD lane groups where a full-frame
    /// run has them: 8 block columns are 8 samples at block step 1 and 16 at step 2.
    static let stripColumns = 1024, stripHalo = 16

    /// What the Wiener stage's pilot is made from.
    enum Pilot: Sendable, Hashable {
        /// Each plane's own first stage (DCT4-2S as specified; pipeline versions 3–6).
        case perPlane
        /// One first stage over the four planes together in non-overlapping blocks
        /// (``JointCFAPilot``; pipeline version 7). X-Trans mosaics keep their own.
        case jointCFA
    }

    private let workspaces: [DCT4PlaneDenoiser]
    /// The joint pilot's workspaces: plane k's strip s at `4s + k` (each plane strip's samples
    /// stay in its workspace from the stabilizing to the Wiener stage, which the joint pilot
    /// between them reads and writes for all four planes).
    private let stripWorkspaces: [DCT4PlaneDenoiser]
    /// Per plane and strip boundary: the stabilized samples of the `stripHalo` columns on each
    /// side of it (`2 · stripHalo` floats a plane row), taken from the window before any strip
    /// overwrites them.
    private let boundaries: UnsafeMutablePointer<Float>
    private let boundaryCount: Int, planeRows: Int
    let maxWidth: Int, maxHeight: Int

    /// Workspaces for windows up to `maxWidth` × `maxHeight` photosites, one per worker (at most
    /// 8: a 24 MP chunk has 12 items, and each workspace is 2.8 MB) and one per plane strip for
    /// the joint pilot (zero pages until a version-7 run touches them), and one more for a thread
    /// that assists (``WorkerPool/Assistance``).
    /// Sizes are checked against `limits` before anything is allocated.
    init(maxWidth: Int, maxHeight: Int, workers: Int, limits: Limits = .default) throws(DaguerreError) {
        try limits.check(width: maxWidth, height: maxHeight, bytesPerPixel: 4, what: "noise reduction window")
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        let n = min(max(workers, 1), 8) + 1
        let rows = (maxHeight + 1) / 2
        let columns = (maxWidth + 1) / 2
        // Every workspace holds one plane strip: its own columns and the neighbours on each side.
        func strip(_ count: Int) throws(DaguerreError) -> [DCT4PlaneDenoiser] {
            var spaces: [DCT4PlaneDenoiser] = []
            for _ in 0..<count {
                spaces.append(
                    try DCT4PlaneDenoiser(maxRows: rows, maxColumns: min(columns, Self.stripColumns + 2 * Self.stripHalo), limits: limits))
            }
            return spaces
        }
        workspaces = try strip(n)
        planeRows = rows
        stripWorkspaces = try strip(4 * max(1, (columns + Self.stripColumns - 1) / Self.stripColumns))
        boundaryCount = max(0, (columns + Self.stripColumns - 1) / Self.stripColumns - 1)
        let floats = 4 * max(1, boundaryCount) * rows * 2 * Self.stripHalo
        boundaries = .allocate(capacity: floats)
        boundaries.initialize(repeating: 0, count: floats)
    }

    deinit { boundaries.deallocate() }

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
    func denoise(
        _ window: MosaicWindow, profile: CFANoiseProfile, amount: Float, noiseScales: SIMD16<Float> = SIMD16(repeating: 1),
        blockStep: DCT4PlaneDenoiser.BlockStep = .every, pilot: Pilot = .perPlane, assistance: WorkerPool.Assistance? = nil
    ) {
        _ = run(
            window, input: .window, profile: profile, amount: amount, noiseScales: noiseScales, blockStep: blockStep, pilot: pilot,
            assistance: assistance)
    }

    /// ``denoise(_:profile:amount:noiseScales:blockStep:pilot:assistance:)`` stabilizing the photosites
    /// straight from the mosaic's codes (`codes:`, which must hold the window's rows) through the
    /// tables (`stabilized:`, made for `profile`) instead of from the window's linearized samples,
    /// which it then need not hold: the window receives every photosite's denoised value, bit
    /// for bit what linearizing it first gives. Only when every photosite of the window is
    /// denoised; otherwise (or for tables of another profile) it returns false and leaves the
    /// window as it was, and the caller linearizes it and denoises that.
    func denoise(
        _ window: MosaicWindow, codes rows: MosaicRows, stabilized codes: StabilizedCodes, profile: CFANoiseProfile, amount: Float,
        noiseScales: SIMD16<Float> = SIMD16(repeating: 1), blockStep: DCT4PlaneDenoiser.BlockStep = .every, pilot: Pilot = .perPlane,
        assistance: WorkerPool.Assistance? = nil
    ) -> Bool {
        guard codes.profile == profile, rows.range.contains(window.y), rows.range.contains(window.y + window.height - 1),
            window.x + window.width <= rows.width
        else { return false }
        return run(
            window, input: .codes(rows, codes), profile: profile, amount: amount, noiseScales: noiseScales, blockStep: blockStep,
            pilot: pilot, assistance: assistance)
    }

    /// Where a run's stabilized samples come from.
    private enum Input: Sendable {
        /// The window's linearized samples.
        case window
        /// The mosaic's codes, through the tables.
        case codes(MosaicRows, StabilizedCodes)
    }

    /// Denoises what it can of `window`; with codes as the input, all of it or nothing (false).
    private func run(
        _ window: MosaicWindow, input: Input, profile: CFANoiseProfile, amount: Float, noiseScales: SIMD16<Float>,
        blockStep: DCT4PlaneDenoiser.BlockStep, pilot: Pilot, assistance: WorkerPool.Assistance?
    ) -> Bool {
        guard amount > 0, amount.isFinite, profile.hasNoise, window.x >= 0, window.y >= 0,
            window.width >= 1, window.height >= 1, window.width <= maxWidth, window.height <= maxHeight,
            window.stride >= window.width
        else { return false }
        let planes = (0..<4).map { Plane(position: $0, of: window, model: profile.planes[$0]) }
        let strips = planes.map(\.strips).max() ?? 0
        guard strips > 0 else { return false }
        if case .codes = input, planes.contains(where: { $0.strips == 0 }) { return false }
        // Version 7's joint pilot needs every plane (each at least 5 × 5 samples, so that a
        // block past a plane one row or column shorter mirrors inside it) and the planes' row r
        // and column c in one 2×2 cell (a window on even coordinates). A plane one column
        // shorter than another may have one strip fewer: it then runs that strip on its
        // neighbours alone (no columns of its own), as the full frame does.
        let joint =
            pilot == .jointCFA && blockStep == .alternate && window.x % 2 == 0 && window.y % 2 == 0
            && planes.allSatisfy { $0.strips > 0 && $0.rows >= 5 && $0.columns >= 5 }
        // Every boundary's neighbours, before any strip writes: the stabilizing transform is
        // elementwise, so these are the values a strip-by-strip run carried over.
        for plane in planes where plane.strips > 0 {
            for b in 0..<((joint ? strips : plane.strips) - 1) {
                plane.saveBoundary(b, of: window, input: input, into: boundary(plane.position, b))
            }
        }
        if joint {
            runJoint(
                planes, strips: strips, window: window, input: input, amount: amount, noiseScales: noiseScales, blockStep: blockStep,
                assistance: assistance)
            return true
        }
        let spaces = UnsafeTransfer(workspaces)
        let w = UnsafeTransfer(window)
        let me = UnsafeTransfer(self)
        // The last workspace is the assisting thread's (worker `workers` of the run).
        let workers = workspaces.count - 1
        // Safety: each worker owns one workspace; an item writes only its own plane's samples of
        // its own strip's columns, which no other item reads (they read the boundaries instead).
        WorkerPool.share(workers: workers, items: 4 * strips, assistance: assistance) { worker, item in
            let plane = planes[item % 4]
            let strip = item / 4
            guard strip < plane.strips else { return }
            plane.denoise(
                strip: strip, of: w.value, input: input, amount: amount, noiseScales: noiseScales, blockStep: blockStep,
                workspace: spaces.value[worker],
                left: strip > 0 ? me.value.boundary(plane.position, strip - 1) : nil,
                right: strip + 1 < plane.strips ? me.value.boundary(plane.position, strip) + Self.stripHalo : nil)
        }
        return true
    }

    /// Version 7's run (``Pilot/jointCFA``): every plane strip stabilized into its own
    /// workspace and the four planes' joint pilot made from them (``JointCFAPilot``), a band
    /// of block rows of a strip per item, then each plane strip's Wiener stage.
    ///
    /// The blocks lie on plane rows and columns that are multiples of 4 in the image (a window
    /// starts on a photosite row that is a multiple of 4 and a column that is a multiple of 32,
    /// and strips on plane columns that are multiples of 16), so a window's pilot equals the
    /// full frame's away from its edges; at an edge that is not an image border only the first
    /// ``halo`` photosites differ, as for the first stage it replaces. The four planes' row r
    /// and column c are one 2×2 Bayer cell when the window starts on even coordinates, as
    /// ``DenoisedMosaic``'s windows do.
    private func runJoint(
        _ planes: [Plane], strips: Int, window: MosaicWindow, input: Input, amount: Float, noiseScales: SIMD16<Float>,
        blockStep: DCT4PlaneDenoiser.BlockStep, assistance: WorkerPool.Assistance?
    ) {
        let spaces = UnsafeTransfer(stripWorkspaces)
        let w = UnsafeTransfer(window)
        let me = UnsafeTransfer(self)
        let workers = workspaces.count - 1
        let halo = Self.stripHalo
        // Bands of 8 block rows (32 plane rows of four planes: their stabilized rows stay in
        // the core's cache for the pilot that reads them). A band reads only rows it
        // stabilizes itself: mirrored rows past a plane's last row lie within 5 rows of it, so
        // the last band is at least 3 block rows tall; the first band's rows before 0 mirror rows
        // 1…3 of the same band.
        let gridOrigin = -((window.y / 2) & 3)
        let planeRows = SIMD4(planes[0].rows, planes[1].rows, planes[2].rows, planes[3].rows)
        let blockRowCount = (planeRows.max() - gridOrigin + 3) / 4
        let bandHeight = 8
        let fullBands = max(1, (blockRowCount + bandHeight - 1) / bandHeight)
        let bands = fullBands > 1 && blockRowCount - (fullBands - 1) * bandHeight < 3 ? fullBands - 1 : fullBands
        // Safety (both loops): an item writes only its own plane strip's workspace (or, for the
        // first loop, its own band's rows of its strip's four, and it reads no others), and its
        // own plane's samples of its own strip's columns of the window, which no other item
        // reads (they read the boundaries).
        WorkerPool.share(workers: workers, items: strips * bands, assistance: assistance) { _, item in
            let strip = item / bands
            let band = item % bands
            let blocks = (band * bandHeight)..<(band + 1 == bands ? blockRowCount : (band + 1) * bandHeight)
            let stripSpaces = spaces.value
            for k in 0..<4 {
                let plane = planes[k]
                let span = max(0, gridOrigin + 4 * blocks.lowerBound)..<min(plane.rows, gridOrigin + 4 * blocks.upperBound)
                let workspace = stripSpaces[4 * strip + k]
                plane.stabilize(
                    strip: strip, rows: span, of: w.value, input: input, into: workspace,
                    left: strip > 0 ? me.value.boundary(plane.position, strip - 1) : nil,
                    right: strip + 1 < strips ? me.value.boundary(plane.position, strip) + halo : nil)
                workspace.extendInputColumns(rows: span, columns: plane.stripSpan(strip).count)
            }
            let columns = SIMD4(
                planes[0].stripSpan(strip).count, planes[1].stripSpan(strip).count, planes[2].stripSpan(strip).count,
                planes[3].stripSpan(strip).count)
            JointCFAPilot.make(
                blockRows: blocks, gridOrigin: gridOrigin, rows: planeRows, columns: columns, amount: amount,
                noiseScales: noiseScales, input: { k, r in UnsafePointer(stripSpaces[4 * strip + k].inputRow(r)) },
                output: { k, r in stripSpaces[4 * strip + k].pilotRow(r) })
        }
        WorkerPool.share(workers: workers, items: 4 * strips, assistance: assistance) { _, item in
            let plane = planes[item % 4]
            let strip = item / 4
            let workspace = spaces.value[item]
            workspace.denoise(
                rows: plane.rows, columns: plane.stripSpan(strip).count, amount: amount, noiseScales: noiseScales,
                blockStep: blockStep, givenPilot: true)
            plane.writeBack(strip: strip, from: workspace, into: w.value)
        }
    }

    /// The saved neighbours of boundary `b` (after strip `b`) of Bayer position `position`.
    private func boundary(_ position: Int, _ b: Int) -> UnsafeMutablePointer<Float> {
        boundaries + ((position * max(1, boundaryCount) + b) * planeRows) * 2 * Self.stripHalo
    }

    /// One Bayer position's samples in a window: where they lie, and their column strips.
    private struct Plane {
        let position: Int
        let vst: GeneralizedAnscombe
        /// First window row and column holding this position, and the plane's size.
        let r0: Int, c0: Int, rows: Int, columns: Int
        /// Column strips (0 for a plane left as it is).
        let strips: Int

        init(position: Int, of window: MosaicWindow, model: NoiseModel) {
            self.position = position
            vst = GeneralizedAnscombe(model)
            let py = position >> 1
            let px = position & 1
            r0 = (py - window.y) & 1
            c0 = (px - window.x) & 1
            rows = (window.height - r0 + 1) / 2
            columns = (window.width - c0 + 1) / 2
            strips = model.hasNoise && rows >= 4 && columns >= 4 ? (columns + stripColumns - 1) / stripColumns : 0
        }

        /// Plane row `r` of the window, from column 0.
        func row(_ r: Int, of window: MosaicWindow) -> UnsafeMutablePointer<Float> { window.samples + (r0 + 2 * r) * window.stride + c0 }

        /// Stabilizes plane row `r`'s `count` samples from plane column `c` into `dst`.
        func stabilize(_ r: Int, from c: Int, count: Int, of window: MosaicWindow, input: Input, into dst: UnsafeMutablePointer<Float>) {
            switch input {
            case .window: vst.forward(everyOther: row(r, of: window) + 2 * c, count: count, into: dst)
            case .codes(let mosaic, let codes):
                let line = mosaic.row(window.y + r0 + 2 * r) + window.x + c0 + 2 * c
                codes.forward(everyOther: line, position: position, count: count, into: dst)
            }
        }

        /// Stabilizes the `stripHalo` columns on each side of the end of strip `b`.
        func saveBoundary(_ b: Int, of window: MosaicWindow, input: Input, into saved: UnsafeMutablePointer<Float>) {
            let end = (b + 1) * stripColumns
            let halo = stripHalo
            let count = min(columns, end + halo) - (end - halo)
            for r in 0..<rows { stabilize(r, from: end - halo, count: count, of: window, input: input, into: saved + r * 2 * halo) }
        }

        /// The plane columns strip `strip` writes: its own (none for the strip a plane one column
        /// narrower runs on its neighbours alone under the joint pilot).
        func ownColumns(_ strip: Int) -> Range<Int> {
            let start = strip * stripColumns
            return start..<min(columns, start + stripColumns)
        }

        /// The plane columns strip `strip` reads: its own and up to ``stripHalo`` more on each side.
        func stripSpan(_ strip: Int) -> Range<Int> {
            let own = ownColumns(strip)
            return max(0, own.lowerBound - stripHalo)..<min(columns, own.upperBound + stripHalo)
        }

        /// Stabilizes strip `strip` into `workspace`'s input rows: its own columns from the
        /// window, the neighbours on each side from the saved boundaries.
        func stabilize(
            strip: Int, rows range: Range<Int>? = nil, of window: MosaicWindow, input: Input, into workspace: DCT4PlaneDenoiser,
            left: UnsafeMutablePointer<Float>?, right: UnsafeMutablePointer<Float>?
        ) {
            let halo = stripHalo
            let own = ownColumns(strip)
            let (start, end) = (own.lowerBound, own.upperBound)
            let span = stripSpan(strip)
            for r in range ?? 0..<rows {
                let dst = workspace.inputRow(r)
                if let left { dst.update(from: left + r * 2 * halo, count: start - span.lowerBound) }
                stabilize(r, from: start, count: end - start, of: window, input: input, into: dst + (start - span.lowerBound))
                if let right { (dst + (end - span.lowerBound)).update(from: right + r * 2 * halo, count: span.upperBound - end) }
            }
        }

        /// Writes strip `strip`'s own columns of `workspace`'s result back into the window.
        func writeBack(strip: Int, from workspace: DCT4PlaneDenoiser, into window: MosaicWindow) {
            let own = ownColumns(strip)
            let offset = own.lowerBound - stripSpan(strip).lowerBound
            for r in 0..<rows {
                vst.inverse(workspace.outputRow(r) + offset, count: own.count, everyOther: row(r, of: window) + 2 * own.lowerBound)
            }
        }

        /// Stabilizes, denoises and writes back strip `strip` (each plane's own pilot).
        func denoise(
            strip: Int, of window: MosaicWindow, input: Input, amount: Float, noiseScales: SIMD16<Float>,
            blockStep: DCT4PlaneDenoiser.BlockStep, workspace: DCT4PlaneDenoiser, left: UnsafeMutablePointer<Float>?,
            right: UnsafeMutablePointer<Float>?
        ) {
            stabilize(strip: strip, of: window, input: input, into: workspace, left: left, right: right)
            workspace.denoise(
                rows: rows, columns: stripSpan(strip).count, amount: amount, noiseScales: noiseScales, blockStep: blockStep)
            writeBack(strip: strip, from: workspace, into: window)
        }
    }
}
