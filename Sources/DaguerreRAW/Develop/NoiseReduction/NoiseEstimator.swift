// The noise profile of a raw file that states none (SPEC X3: noise reduction
// must work from the image when the DNG has no NoiseProfile, as LibRaw-read camera files never
// do). Our own code: no Debian library estimates Poisson–Gaussian noise on raw CFA planes.
import DaguerreCore
import DaguerreFormats
import Dispatch
import Synchronization

/// Estimates σ² = S·x + O for each Bayer position, or each X-Trans colour, from the mosaic itself.
///
/// Method (per single-colour plane, on the linearized signal x: a Bayer position; for X-Trans,
/// the 2×2 squares of green photosites, see ``estimate(xTrans:pattern:region:)``), with the
/// orthonormal 2-D Haar transform (2×2 cells a b / c d: LL = (a+b+c+d)/2, HL = (a−b+c−d)/2,
/// LH = (a+b−c−d)/2, HH = (a−b−c+d)/2; for white noise every detail coefficient has the noise
/// variance and all are independent):
/// 1. The plane is cut into blocks of 8×8 samples; blocks with a sample at 95 % of white or more
///    are dropped (clipping flattens noise). A mosaic whose planes hold more than
///    ``maxBlocksPerPlane`` blocks is sampled in bands of two rows of blocks spread evenly down
///    it, as many as keep a plane within the bound (a 24 MP mosaic: 33 bands of 34 rows, about
///    25 000 blocks a plane; 6 MP and less: every block). The bins then still hold hundreds of
///    blocks each; the scan and the sorts cost a quarter; and a mosaic still in its file is
///    decoded only in those bands, so its develop streams it as it would with a NoiseProfile.
/// 2. Per block: the mean level; the noise measure, the mean square of the 16 finest diagonal
///    details HH₁ (blind to constant and linear signal); and a texture measure, the mean square
///    of the other details of the two finest scales (16 HL₁, 16 LH₁, and HL₂, LH₂, HH₂ of the
///    LL₁ cells: 44 coefficients), which is independent of the noise measure for white noise.
/// 3. Blocks are sorted by level into bins whose highest level is at most 1.3× their lowest
///    (below 0.005 of white, 1.3 × 0.005), so the noise varies little inside a bin; bins of
///    fewer than 40 blocks are dropped. In each bin, the twentieth of the blocks (at least 10)
///    with the least texture give the bin's noise variance as their mean noise measure.
///    Selecting by a measure independent of the noise measure keeps the estimate unbiased on
///    pure noise; narrow bins keep the selection from preferring darker, less noisy blocks.
/// 4. S and O are fitted to the bins by least squares weighted by count/variance², constrained
///    to be non-negative (the through-origin fit when O < 0, the constant when S < 0). With
///    ``Method/separatingTexture`` (pipeline version 6) a third term T·x² takes the fine texture
///    whose variance grows with the square of the level (``TextureSeparatingFit``), where it
///    explains the bins significantly better and the four planes then agree on the noise.
///
/// Measured (Tests: NoiseEstimatorTests, TextureSeparatingFitTests; Benchmarks/NOISE_RESULTS.md):
/// on smooth synthetic Poisson–Gaussian mosaics σ is within 10 % of the truth from 5 % to 50 %
/// of white. Fine texture that looks like noise at the finest scale biases it upward: by about
/// 13 % / 8 % in σ on the whole Kodak noise-protocol frame at ISO 1600 / 3200 (whose film-scanned
/// scene has grain of its own), 25–45 % on its most textured crop; it then acts like a higher
/// amount. The texture term takes part of that bias off the frame at low noise (σ 1.9× the
/// truth at 4 800 e⁻ at 18 % grey becomes 1.5–1.7×); the scans' grain, even in the sRGB
/// encoding, grows with the level nearly as shot noise does in linear light, and no
/// statistic of a Bayer mosaic tells the rest from noise. A noise-free smooth mosaic gives a
/// negligible profile
/// (``CFANoiseProfile/isNegligible(visibleSigma:)``), which turns noise reduction off.
enum NoiseEstimator {
    static let blockSize = 8
    static let flattestFraction = 0.05
    static let minFlattest = 10
    static let binRatio = 1.3
    static let binFloor = 0.005
    static let minBlocksPerBin = 40
    /// Blocks with any sample at or above this fraction of white are not used.
    static let clipLevel = 0.95
    /// The most blocks a plane contributes (step 1): bands of rows are sampled beyond it.
    static let maxBlocksPerPlane = 25_000

    /// How step 4 fits the bins (``PipelineVersion/noiseEstimate``).
    enum Method: Sendable, Hashable {
        /// σ² = S·x + O (versions 1 to 5).
        case shotAndRead
        /// σ² = S·x + O + T·x², the noise S·x + O (``TextureSeparatingFit``), where the planes
        /// agree on it: their σ within ``agreement`` of each other (``agree(_:)``), as one
        /// sensor's photosites must be. Where they do not, or for a single plane (an X-Trans
        /// mosaic's), σ² = S·x + O (version 6).
        case separatingTexture
    }

    /// The most the planes' σ may differ (max/min, at 5 %, 18 % and 50 % of white) for
    /// texture-separated fits to stand. On the N protocol's frame made at six noise levels they
    /// agree at every level (at 18 % grey within 1.1×); on its textured CI crop the fits put
    /// the noise of some planes into texture and differ tenfold.
    static let agreement = 1.5

    /// The profile of the photosites in `region` (clipped to the mosaic). Planes without 40
    /// blocks at one level (regions of about 130×130 photosites and less) get the zero model:
    /// noise reduction stays off. `maxBlocks` bounds the blocks a plane contributes (step 1).
    static func estimate(
        _ mosaic: BayerImage, region: IntRect, maxBlocks: Int = maxBlocksPerPlane, method: Method = .shotAndRead
    ) -> CFANoiseProfile {
        guard let area = Area(region, width: mosaic.width, height: mosaic.height) else { return .noiseFree }
        let bands = area.bands(maxBlocks: maxBlocks) ?? [area.y0..<area.y1]
        let layout = mosaic.layout
        return mosaic.samples.withUnsafeBufferPointer { samples in
            let whole = MosaicRows(whole: samples.baseAddress!, width: mosaic.width, height: mosaic.height)
            // One item per band and plane: a single band (every block) still uses every core.
            return CFANoiseProfile(
                planes: models(items: 4 * bands.count, planes: 4, method: method) { item, blocks in
                    guard let part = area.clipped(to: bands[item / 4]) else { return }
                    blocks[item % 4] = blockStatistics(whole, layout: layout, position: item % 4, area: part)
                })
        }
    }

    /// The same estimate for a mosaic still in its file, decoding only the strips or tiles that
    /// hold the bands it reads (two fifths of a 24 MP mosaic in 16-row strips), a band at a
    /// time on each core: the develop then streams the file as it does for one with a
    /// NoiseProfile. Nil when every block is read (a plane within the bound): the caller then
    /// estimates from the whole mosaic, decoded once for everything that needs it.
    static func estimate(
        _ stored: StoredMosaic, region: IntRect, limits: Limits, maxBlocks: Int = maxBlocksPerPlane,
        method: Method = .shotAndRead
    ) throws(DaguerreError) -> CFANoiseProfile? {
        let layout = stored.layout
        guard let area = Area(region, width: layout.width, height: layout.height) else { return .noiseFree }
        guard let bands = area.bands(maxBlocks: maxBlocks) else { return nil }
        let failure = Mutex<DaguerreError?>(nil)
        let result = models(items: bands.count, planes: 4, method: method) { band, blocks in
            do throws(DaguerreError) {
                // The rows point into the stream's buffer: it lives until they are scanned.
                let stream = StreamedMosaic(stored: stored, limits: limits)
                let rows = try stream.cover(bands[band])
                guard let part = area.clipped(to: bands[band]) else { return }
                blocks = withExtendedLifetime(stream) { (0..<4).map { blockStatistics(rows, layout: layout, position: $0, area: part) } }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return CFANoiseProfile(planes: result)
    }

    /// Steps 3 and 4 for each of `planes` planes, over the blocks `scan` finds for each item
    /// (per plane), the items scanned on all cores and their blocks kept in item order.
    private static func models(
        items: Int, planes: Int, method: Method, scan: @Sendable (_ item: Int, _ blocks: inout [[Block]]) -> Void
    ) -> [NoiseModel] {
        var parts = [[[Block]]](repeating: Array(repeating: [], count: planes), count: items)
        var planeBins = [[Bin]](repeating: [], count: planes)
        parts.withUnsafeMutableBufferPointer { out in
            let found = UnsafeTransfer(out.baseAddress!)
            // Safety: each item writes its own element of `parts`, each plane its own bins.
            WorkerPool.forEach(items) { item in scan(item, &found.value[item]) }
            let scanned = UnsafeBufferPointer(start: UnsafePointer(out.baseAddress!), count: items)
            let blocks = UnsafeTransfer(scanned)
            planeBins.withUnsafeMutableBufferPointer { binned in
                let binned = UnsafeTransfer(binned.baseAddress!)
                WorkerPool.forEach(planes) { p in binned.value[p] = bins(blocks.value.flatMap { $0[p] }) }
            }
        }
        var models = planeBins.map { fit(bins: $0) }
        if method == .separatingTexture, planes > 1 {
            let separated = planeBins.map { TextureSeparatingFit(bins: $0).noise }
            if agree(separated) { models = separated }
        }
        return models
    }

    /// True when every model has noise and their σ lie within ``agreement`` of each other at
    /// 5 %, 18 % and 50 % of white.
    static func agree(_ models: [NoiseModel]) -> Bool {
        [0.05, 0.18, 0.5].allSatisfy { level in
            let sigmas = models.map { $0.sigma(at: level) }
            guard let low = sigmas.min(), let high = sigmas.max(), low > 0 else { return false }
            return high <= agreement * low
        }
    }

    /// Sampled bands (step 1) start at multiples of this many rows and hold two rows of
    /// blocks in every plane: 34 rows, the planes of odd rows starting a row lower.
    static let sampledBandStride = 32

    /// The photosites an estimate reads: a region clipped to the mosaic.
    struct Area: Sendable {
        let x0: Int, y0: Int, x1: Int, y1: Int

        init?(_ region: IntRect, width: Int, height: Int) {
            self.init(
                x0: max(region.x, 0), y0: max(region.y, 0), x1: min(region.x + region.width, width),
                y1: min(region.y + region.height, height))
        }

        init?(x0: Int, y0: Int, x1: Int, y1: Int) {
            guard x1 > x0, y1 > y0 else { return nil }
            (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
        }

        /// The part of the area in mosaic rows `rows`.
        func clipped(to rows: Range<Int>) -> Area? {
            Area(x0: x0, y0: max(y0, rows.lowerBound), x1: x1, y1: min(y1, rows.upperBound))
        }

        /// The first photosite of Bayer position `position` inside the area, and the plane's
        /// rows and columns of whole blocks there.
        func plane(position: Int) -> (row: Int, column: Int, blockRows: Int, blockColumns: Int) {
            plane(Lattice(bayerPosition: position))
        }

        /// The first photosite of `lattice` inside the area, and the plane's rows and columns of
        /// whole blocks there.
        func plane(_ lattice: Lattice) -> (row: Int, column: Int, blockRows: Int, blockColumns: Int) {
            let p = lattice.period
            let firstRow = y0 + ((lattice.phaseY - y0) % p + p) % p
            let firstColumn = x0 + ((lattice.phaseX - x0) % p + p) % p
            // Plane samples whose photosites lie inside the area.
            func count(_ first: Int, _ end: Int) -> Int {
                guard lattice.pairs else { return max(0, (end - first + p - 1) / p) }
                return end - first >= 2 ? 2 * ((end - first - 2) / p + 1) : 0
            }
            return (firstRow, firstColumn, count(firstRow, y1) / blockSize, count(firstColumn, x1) / blockSize)
        }

        /// The rows read when a plane holds more than `maxBlocks` blocks (step 1): bands of 34
        /// rows starting at multiples of ``sampledBandStride`` inside the area, spread evenly
        /// down it, as many as keep a plane within the bound (at least one). Nil when every
        /// block is within it.
        func bands(maxBlocks: Int) -> [Range<Int>]? {
            let p = plane(position: 0)
            guard p.blockRows * p.blockColumns > maxBlocks else { return nil }
            let stride = sampledBandStride
            let rows = stride + 2
            let first = (y0 + stride - 1) / stride
            let slots = max(0, (y1 - rows) / stride + 1 - first)
            let count = min(slots, max(1, maxBlocks / max(2 * p.blockColumns, 1)))
            guard count >= 1, count < slots else { return nil }
            return (0..<count).map { i in
                let top = (first + i * slots / count) * stride
                return top..<(top + rows)
            }
        }
    }

    /// One block's level, noise measure (HH₁ mean square) and texture measure.
    struct Block { var level: Double, fine: Double, texture: Double }

    /// One level bin (step 3): its median level, the mean noise measure of its flattest
    /// blocks, and how many blocks that mean is over.
    struct Bin: Sendable, Equatable { var level: Double, variance: Double, count: Double }

    /// The photosites of one colour that form a plane: those at (`phaseX`, `phaseY`) plus
    /// multiples of `period` in each direction (image coordinates); with `pairs`, each of those
    /// and the photosite after it in each direction (2×2 squares of adjacent photosites,
    /// `period` apart), so that the finest Haar cells are the squares. A Bayer position is a
    /// lattice of period 2; X-Trans greens come in 2×2 squares every 3 photosites.
    struct Lattice: Sendable, Hashable {
        var period: Int, phaseX: Int, phaseY: Int, pairs: Bool

        init(period: Int, phaseX: Int, phaseY: Int, pairs: Bool = false) {
            (self.period, self.phaseX, self.phaseY, self.pairs) = (period, phaseX, phaseY, pairs)
        }

        /// Position `position` of the 2×2 Bayer block, row-major.
        init(bayerPosition position: Int) { self.init(period: 2, phaseX: position & 1, phaseY: position >> 1) }

        /// The photosite offset of plane sample `k` from the plane's first (either direction).
        @inline(__always) func offset(_ k: Int) -> Int { pairs ? (k >> 1) * period + (k & 1) : k * period }

        /// The 2×2 squares of green photosites of an X-Trans filter: every 3×3 block has one
        /// (its greens repeat every 3 photosites). Nil for a pattern without them.
        init?(xTransGreenSquares pattern: XTransPattern) {
            let green = { (x: Int, y: Int) in
                (0..<2).allSatisfy { m in (0..<2).allSatisfy { pattern.color(x: x + 3 * m, y: y + 3 * $0) == 1 } }
            }
            for py in 0..<3 {
                for px in 0..<3 where green(px, py) && green(px + 1, py) && green(px, py + 1) && green(px + 1, py + 1) {
                    self.init(period: 3, phaseX: px, phaseY: py, pairs: true)
                    return
                }
            }
            return nil
        }
    }

    /// The profile of an X-Trans mosaic's photosites in `region`: one model for the three
    /// colours (`planes` R, G, B, G, as X-Trans noise reduction reads them,
    /// ``CFANoiseProfile/xTransColors``), fitted by steps 1 to 4 on the 2×2 squares of adjacent
    /// green photosites that every 3×3 block of the filter holds: blocks of 4×4 squares, whose
    /// finest Haar cells are the squares themselves, so the noise measure sees detail one
    /// photosite across, finer than a Bayer plane's (the red and blue planes, a photosite in
    /// every 6 each way, see so much texture at that scale that the estimate doubled on the
    /// Kodak photographs). A photosite's noise depends on the light it caught and the sensor's
    /// gain, not on its filter's colour, so the green model serves red and blue (cameras'
    /// NoiseProfiles state nearly equal pairs per colour). Every block is read (a 26 MP mosaic:
    /// about 180 000).
    static func estimate(xTrans mosaic: BayerImage, pattern: XTransPattern, region: IntRect) -> CFANoiseProfile {
        guard let area = Area(region, width: mosaic.width, height: mosaic.height), let squares = Lattice(xTransGreenSquares: pattern)
        else { return .noiseFree }
        let layout = mosaic.layout
        // Bands of 16 block rows (4 squares, 12 photosite rows, a block), one item each.
        let (firstRow, _, blockRows, _) = area.plane(squares)
        let bandBlocks = 16
        let bandRows = bandBlocks * blockSize / 2 * squares.period
        return mosaic.samples.withUnsafeBufferPointer { samples in
            let whole = MosaicRows(whole: samples.baseAddress!, width: mosaic.width, height: mosaic.height)
            let bands = (blockRows + bandBlocks - 1) / bandBlocks
            return CFANoiseProfile(
                uniform: models(items: bands, planes: 1, method: .shotAndRead) { band, blocks in
                    let first = firstRow + band * bandRows
                    guard let part = Area(x0: area.x0, y0: first, x1: area.x1, y1: min(area.y1, first + bandRows)) else { return }
                    blocks[0] = blockStatistics(whole, layout: layout, lattice: squares, area: part)
                }[0])
        }
    }

    /// The usable blocks of one Bayer position's plane inside `area`, read from `rows`, which
    /// must hold the area's rows (none where it does not).
    static func blockStatistics(_ rows: MosaicRows, layout: MosaicLayout, position: Int, area: Area) -> [Block] {
        blockStatistics(rows, layout: layout, lattice: Lattice(bayerPosition: position), area: area)
    }

    /// The usable blocks of one lattice's plane inside `area`, read from `rows`, which must hold
    /// the area's rows (none where it does not). Each photosite is linearized with the black
    /// level of its place in the 2×2 block (for a Bayer lattice, one place).
    static func blockStatistics(_ rows: MosaicRows, layout: MosaicLayout, lattice: Lattice, area: Area) -> [Block] {
        let (firstRow, firstColumn, blockRows, blockColumns) = area.plane(lattice)
        let b = blockSize
        guard blockRows > 0, blockColumns > 0, rows.range.contains(area.y0), area.y1 <= rows.range.upperBound else { return [] }
        let places = layout.blackLevel.count == 4
        let scales = places ? Linearization(layout: layout).scale : []
        var black = SIMD4<Double>.zero
        var scale = SIMD4<Double>(repeating: 1 / max(Double(layout.whiteLevel), 1))
        for q in 0..<4 where places {
            black[q] = layout.blackLevel[q]
            scale[q] = scales[q]
        }
        let clip = black + clipLevel * (SIMD4(repeating: Double(layout.whiteLevel)) - black)
        var blocks: [Block] = []
        blocks.reserveCapacity(blockRows * blockColumns)
        var plane = [Double](repeating: 0, count: b * b)
        var means = [Double](repeating: 0, count: b * b / 4)
        for br in 0..<blockRows {
            blockLoop: for bc in 0..<blockColumns {
                for r in 0..<b {
                    let y = firstRow + lattice.offset(br * b + r)
                    let x0 = firstColumn + lattice.offset(bc * b)
                    let row = rows.row(y) + x0
                    for c in 0..<b {
                        let dx = lattice.offset(c)
                        let q = (y & 1) << 1 | ((x0 + dx) & 1)
                        let code = Double(row[dx])
                        if code >= clip[q] { continue blockLoop }
                        plane[r * b + c] = (code - black[q]) * scale[q]
                    }
                }
                // Level 1 over the 2×2 cells; LL₁ kept for level 2.
                var sum = 0.0
                var fine = 0.0
                var texture = 0.0
                let half = b / 2
                for r in 0..<half {
                    for c in 0..<half {
                        let i = 2 * r * b + 2 * c
                        let a = plane[i]
                        let bb = plane[i + 1]
                        let cc = plane[i + b]
                        let d = plane[i + b + 1]
                        let hh = (a - bb - cc + d) * 0.5
                        let hl = (a - bb + cc - d) * 0.5
                        let lh = (a + bb - cc - d) * 0.5
                        fine += hh * hh
                        texture += hl * hl + lh * lh
                        means[r * half + c] = (a + bb + cc + d) * 0.5
                        sum += a + bb + cc + d
                    }
                }
                for r in 0..<(half / 2) {
                    for c in 0..<(half / 2) {
                        let i = 2 * r * half + 2 * c
                        let a = means[i]
                        let bb = means[i + 1]
                        let cc = means[i + half]
                        let d = means[i + half + 1]
                        let hh = (a - bb - cc + d) * 0.5
                        let hl = (a - bb + cc - d) * 0.5
                        let lh = (a + bb - cc - d) * 0.5
                        texture += hh * hh + hl * hl + lh * lh
                    }
                }
                let cells = half * half
                let coarseCells = cells / 4
                blocks.append(
                    Block(level: sum / Double(b * b), fine: fine / Double(cells), texture: texture / Double(2 * cells + 3 * coarseCells)))
            }
        }
        return blocks
    }

    /// Step 3: the bins' levels, the flattest blocks' mean noise measure in each, and the
    /// number of blocks that mean is over.
    static func bins(_ blocks: [Block]) -> [Bin] {
        let sorted = ordered(blocks, by: \.level)
        var bins: [Bin] = []
        var lo = 0
        while lo < sorted.count {
            let limit = max(sorted[lo].level, binFloor) * binRatio
            var hi = lo
            while hi < sorted.count, sorted[hi].level <= limit { hi += 1 }
            let bin = sorted[lo..<hi]
            lo = hi
            guard bin.count >= minBlocksPerBin else { continue }
            let take = max(Int(Double(bin.count) * flattestFraction), min(bin.count, minFlattest))
            let flattest = ordered(bin, by: \.texture).prefix(take)
            bins.append(
                Bin(
                    level: bin[bin.startIndex + bin.count / 2].level,
                    variance: flattest.reduce(0) { $0 + $1.fine } / Double(flattest.count), count: Double(flattest.count)))
        }
        return bins
    }

    /// `blocks` sorted by `key`, equal keys in their order: a stable sort (``StableOrder``, by
    /// radix; by comparison where a key is NaN, which finite codes never give).
    private static func ordered<Blocks: Collection<Block>>(_ blocks: Blocks, by key: (Block) -> Double) -> [Block] {
        let all = Array(blocks)
        guard let order = StableOrder.ascending(all.map(key)) else { return all.sorted { key($0) < key($1) } }
        return order.map { all[$0] }
    }

    /// Steps 3 and 4: level bins, the flattest blocks' variance per bin, the constrained fit.
    static func fit(_ blocks: [Block]) -> NoiseModel { fit(bins: bins(blocks)) }

    /// Step 4: σ² = S·x + O fitted to the bins.
    static func fit(bins: [Bin]) -> NoiseModel {
        guard bins.count >= 2 else { return bins.first.map { NoiseModel(scale: 0, offset: max($0.variance, 0)) } ?? .zero }
        // Weighted least squares of variance = S·level + O; weight count/variance² (relative error).
        let floor = weightFloor(bins.map(\.variance))
        var sww = 0.0
        var swx = 0.0
        var swxx = 0.0
        var swv = 0.0
        var swxv = 0.0
        for bin in bins {
            let w = weight(count: bin.count, variance: bin.variance, floor: floor)
            let x = bin.level
            let v = bin.variance
            sww += w
            swx += w * x
            swxx += w * x * x
            swv += w * v
            swxv += w * x * v
        }
        let det = swxx * sww - swx * swx
        var s = det > 0 ? (swxv * sww - swx * swv) / det : 0
        var o = det > 0 ? (swxx * swv - swx * swxv) / det : swv / sww
        if o < 0 {
            o = 0
            s = swxx > 0 ? swxv / swxx : 0
        }
        if s < 0 {
            s = 0
            o = swv / sww
        }
        guard s.isFinite, o.isFinite else { return .zero }
        return NoiseModel(scale: max(s, 0), offset: max(o, 0))
    }

    /// A bin's weight in the fits: its count over its variance squared (the variance's relative
    /// error), the variance held at `floor` or more.
    @inline(__always) static func weight(count: Double, variance: Double, floor: Double) -> Double {
        let v = max(variance, floor)
        return count / (v * v)
    }

    /// The least variance a bin's weight is taken at: a millionth of the largest bin's.
    static func weightFloor(_ variances: [Double]) -> Double { max(variances.max() ?? 0, 1e-30) * 1e-6 }
}
