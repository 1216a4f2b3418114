// The full develop of a Bayer mosaic (SPEC X2, X3; pipeline versions 2 and later): each band of
// rows is split into column blocks that the workers take in turn; each block is demosaicked by
// LMMSE-GW with its halo read from the mosaic (mirrored at the mosaic's edges), after the mosaic
// is linearized, white balanced and encoded in the version's domain (from per-code tables, or
// from the denoised window when noise reduction or lens shading runs), and each developed pixel
// is decoded to linear light and sent through the highlight stage and the matrix. The algorithm
// for one band; which bands, when and on which thread is the chunk schedule's (``DevelopChunks``).
import DaguerreCore
import DaguerreFormats

/// Develops bands of a mosaic with LMMSE-GW, keeping the state that carries from one band to
/// the next (the column blocks' rolling workspaces, the denoised window, the code tables).
///
/// Not thread-safe: one band at a time (the schedule guarantees it).
///
/// ```swift
/// let develop = LMMSEGWDevelop(mosaic: .whole(mosaic), settings: settings)
/// try develop.develop(rows: 0..<256, columns: 0..<width, into: chunk, bytesPerRow: width * 12)
/// ```
final class LMMSEGWDevelop: ChunkDevelop {
    let mosaic: DevelopMosaic
    let settings: DevelopSettings
    let layout: MosaicLayout
    let pixel: PixelDevelop

    /// How far beyond a band's rows its develop reads the mosaic: the demosaic's halo, the
    /// noise reduction's (``DenoisedMosaic``) and the noise-reduction window's row alignment
    /// (the highlight stage's reach, 2, lies inside). A streamed band covers it.
    static let mosaicReach = LMMSEGWDemosaic.halo + MosaicNoiseReduction.largestHalo + 4
    /// Columns demosaicked at a time by one worker (plus the 20-photosite halo each side).
    static let blockColumns = 1024

    init(mosaic: DevelopMosaic, settings: DevelopSettings) {
        self.mosaic = mosaic
        self.settings = settings
        layout = mosaic.layout
        pixel = PixelDevelop(settings: settings, layout: layout)
    }

    private var workspaces: [LMMSEGWDemosaic.Workspace] = []
    /// The linearized (and shaded, and denoised) photosites the stripes read, when noise
    /// reduction or lens shading runs.
    private var denoised: DenoisedMosaic?

    /// Per CFA position, raw code → white-balanced, normalized value in the demosaic's domain
    /// (built once; only for stripes that read codes, without a denoised window).
    private lazy var encodeTables: [Float] = {
        let cfa = layout.pattern.cfaPattern.map(Int.init)
        let lin = Linearization(layout: layout)
        let n = settings.balance
        let domain = settings.domain
        var table = [Float](repeating: 0, count: 4 * 65536)
        for p in 0..<4 {
            let gain = 1 / max(n[cfa[p]], 1e-6)
            for code in 0..<65536 {
                table[p * 65536 + code] = Float(domain.encode(max(0, lin.value(Double(code), at: p) * gain)))
            }
        }
        return table
    }()

    /// Allocates what a band of `rows` × `columns` needs, before its pixels (which keeps glibc's
    /// heap from fragmenting around them: about 16 MB less peak RSS at 24 MP).
    func reserve(rows: Int, columns: Int) throws(DaguerreError) {
        guard settings.noiseReduction != nil || !settings.gainMaps.isEmpty else { return }
        if denoised == nil {
            denoised = DenoisedMosaic(
                layout: layout, settings: settings.noiseReduction, gainMaps: settings.gainMaps,
                activeArea: settings.activeArea, limits: settings.limits)
        }
        try denoised?.reserve(rows: rows, columns: columns)
    }

    /// Develops crop rows `rows` × crop columns `columns` into `destination` (interleaved RGB
    /// floats, `bytesPerRow` apart), the develop's parallel loops offered to `assistance`.
    func develop(
        rows: Range<Int>, columns: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
        assistance: WorkerPool.Assistance? = nil
    ) throws(DaguerreError) {
        guard !rows.isEmpty else { return }
        let first = settings.crop.y + rows.lowerBound
        let reach = (first - Self.mosaicReach)..<(first + rows.count + Self.mosaicReach)
        try mosaic.withRows(reach, assistance: assistance) { (source) throws(DaguerreError) in
            try develop(rows: rows, columns: columns, into: destination, bytesPerRow: bytesPerRow, from: source, assistance: assistance)
        }
    }

    /// ``develop(rows:columns:into:bytesPerRow:assistance:)`` reading the photosites from
    /// `source`, which holds the band's rows and ``mosaicReach`` around them.
    private func develop(
        rows band: Range<Int>, columns cols: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
        from source: MosaicRows, assistance: WorkerPool.Assistance?
    ) throws(DaguerreError) {
        let s = settings
        let m = layout
        let h = m.height
        let first = s.crop.y + band.lowerBound
        try source.check(holds: max(0, first - Self.mosaicReach)..<min(h, first + band.count + Self.mosaicReach), for: "RAW develop")
        // Workers claim whole column blocks of the band as they become free (each block's rows
        // roll through a workspace of about 1 MB, whatever the band's height), so the 20-row halo
        // is paid once per band, not once per worker. Blocks read their halo from real
        // neighbours: the pixels are the same as one wide stripe's, whichever worker runs them.
        let workers = max(1, WorkerPool.processorCount)
        var blocks = (cols.count + Self.blockColumns - 1) / Self.blockColumns
        blocks = min(cols.count, (blocks + workers - 1) / workers * workers)
        let block = (cols.count + blocks - 1) / blocks
        // One workspace per column block, not per worker: a block's next band then resumes its
        // roll (``LMMSEGWDemosaic/stripe``) on whichever worker claims it.
        if workspaces.count < blocks || workspaces.contains(where: { $0.columns < block }) {
            workspaces = []
            workspaces = (0..<blocks).map { _ in LMMSEGWDemosaic.Workspace(columns: block) }
        }
        let sensorRows = (s.crop.y + band.lowerBound)..<(s.crop.y + band.upperBound)
        let sensorColumns = (s.crop.x + cols.lowerBound)..<(s.crop.x + cols.upperBound)
        // With noise reduction or lens shading, the stripes read the band's denoised window
        // instead of codes.
        let window = try denoised.map { (d) throws(DaguerreError) in
            try d.update(rows: sensorRows, columns: sensorColumns, halo: LMMSEGWDemosaic.halo, from: source, assistance: assistance)
        }
        let input: DemosaicInput
        if let window, let d = denoised, let samples = d.samples.baseAddress {
            input = .window(
                DemosaicInput.Window(samples: UnsafePointer(samples), x: window.x, y: window.y, width: window.width, height: window.height),
                gains: DemosaicInput.gains(balance: s.balance, pattern: m.pattern), domain: s.domain)
        } else {
            input = .codes(source, tables: encodeTables)
        }
        let output = DemosaicOutput(
            destination: destination, bytesPerRow: bytesPerRow, origin: (x: sensorColumns.lowerBound, y: sensorRows.lowerBound),
            pixel: pixel, mosaic: source, domain: s.domain)
        let spaces = UnsafeTransfer(workspaces)
        let colors = pixel.colors
        let width = m.width
        try input.withReady { (ready) throws(DaguerreError) in
            try output.withReady { (writer) throws(DaguerreError) in
                // Safety: each column block (claimed by one worker) writes only its own columns
                // of `destination` and uses its own workspace; the mosaic, the denoised window
                // and the tables are read-only here and outlive the call.
                WorkerPool.share(workers: workers, items: blocks, assistance: assistance) { _, item in
                    let start = sensorColumns.lowerBound + item * block
                    guard start < sensorColumns.upperBound else { return }
                    LMMSEGWDemosaic.stripe(
                        rows: sensorRows, columns: start..<min(start + block, sensorColumns.upperBound), pattern: colors,
                        workspace: spaces.value[item],
                        fill: { y, x0, count, into in
                            ready.fill(y: y, x0: x0, count: count, into: into, mosaicWidth: width, mosaicHeight: h)
                        },
                        write: { y, x0, count, r, g, b in writer.write(y: y, x0: x0, count: count, r, g, b) })
                }
            }
        }
    }
}
