// The first stages of RAW development as a row source (SPEC X2, X3, X6): linearize (black and
// white levels per CFA position), reduce noise (pipeline versions 3 and later), demosaic, and the
// camera → working-space matrix (which carries the white balance), row band by row band as the
// engine asks, so a whole developed image never exists in memory. It picks the develop path
// (``WholeMosaicDevelop``'s bilinear and half-size rows, ``LMMSEGWDevelop`` on ``DevelopChunks``'
// schedule; for an X-Trans mosaic ``XTransDevelop`` on the same schedule) and answers the engine; the paths hold the algorithms. Our own code: the stages are
// the point of the project.
import DaguerreCore
import DaguerreFormats
import DaguerreImage

/// Develops rows of a Bayer or X-Trans mosaic into linear RGB float rows (`.rgbf`) in the working
/// space.
///
/// ```swift
/// let source = try RAWDevelopDecoder(mosaic: mosaic, settings: settings)
/// let image = try Image(identity: "IMG_0001 v4") { source }
/// ```
final class RAWDevelopDecoder: DevelopSource {
    let info: RowSourceInfo
    var columns: Range<Int>
    private let path: Path

    /// How each develop method's rows are made.
    private enum Path {
        case bilinear(WholeMosaicDevelop)
        case halfSize(WholeMosaicDevelop)
        /// LMMSE-GW (Bayer) or the X-Trans demosaic, chunk by chunk.
        case chunked(DevelopChunks)
    }

    /// Develops a mosaic in memory.
    convenience init(mosaic: BayerImage, settings: DevelopSettings) throws(DaguerreError) {
        try self.init(.whole(mosaic), settings: settings)
    }

    /// Develops a mosaic still in its file, decoding it band by band as the chunks develop
    /// (LMMSE-GW and X-Trans; the Bayer draft paths read a whole mosaic).
    convenience init(stored: StoredMosaic, settings: DevelopSettings) throws(DaguerreError) {
        if stored.layout.xTrans != nil {
            let bandRows =
                DevelopChunks.chunkRows + 2
                * XTransDevelop.mosaicReach(
                    passes: Self.xTransPasses(settings), noiseReduction: settings.noiseReduction != nil)
            try self.init(.streamed(StreamedMosaic(stored: stored, limits: settings.limits, bandRows: bandRows)), settings: settings)
            return
        }
        guard settings.demosaic == .lmmseGW else {
            throw .invalidArgument(
                what: "a \(settings.demosaic.rawValue) develop of a mosaic still in its file",
                problem: "only LMMSE-GW streams the file's chunks; decode the whole mosaic first")
        }
        // A chunk's band: its rows and the reach around them.
        let bandRows = DevelopChunks.chunkRows + 2 * LMMSEGWDevelop.mosaicReach
        try self.init(.streamed(StreamedMosaic(stored: stored, limits: settings.limits, bandRows: bandRows)), settings: settings)
    }

    /// The X-Trans demosaic's passes for a develop: three, or one for the draft methods.
    static func xTransPasses(_ settings: DevelopSettings) -> Int {
        settings.demosaic == .lmmseGW ? XTransDevelop.fullPasses : XTransDevelop.draftPasses
    }

    private init(_ mosaic: DevelopMosaic, settings: DevelopSettings) throws(DaguerreError) {
        info = try Self.developedInfo(layout: mosaic.layout, settings: settings)
        columns = 0..<info.width
        // An X-Trans mosaic: the X-Trans develop on the chunk schedule, whichever method was
        // asked (the full develop's three passes, or one for the draft methods).
        if let xTrans = mosaic.layout.xTrans {
            let develop = XTransDevelop(mosaic: mosaic, settings: settings, pattern: xTrans, passes: Self.xTransPasses(settings))
            path = .chunked(DevelopChunks(develop: develop, height: info.height))
            return
        }
        switch (settings.demosaic, mosaic) {
        case (.bilinear, .whole(let m)): path = .bilinear(WholeMosaicDevelop(mosaic: m, settings: settings))
        case (.halfSize, .whole(let m)): path = .halfSize(WholeMosaicDevelop(mosaic: m, settings: settings))
        case (.lmmseGW, _): path = .chunked(DevelopChunks(develop: LMMSEGWDevelop(mosaic: mosaic, settings: settings), height: info.height))
        case (.bilinear, .streamed), (.halfSize, .streamed):
            throw .invalidArgument(what: "a \(settings.demosaic.rawValue) develop of a streamed mosaic", problem: "needs the whole mosaic")
        }
    }

    /// What a develop of a mosaic of `layout` with `settings` gives (linear RGB floats in the
    /// working space, half the crop's size for the half-size path), once the crop, the black
    /// levels and the caller's size limits are checked: before anything is allocated.
    static func developedInfo(layout m: MosaicLayout, settings: DevelopSettings) throws(DaguerreError) -> RowSourceInfo {
        let c = settings.crop
        guard c.width > 0, c.height > 0, c.x >= 0, c.y >= 0, c.maxX <= m.width, c.maxY <= m.height,
            m.width >= 2, m.height >= 2
        else {
            throw .invalidArgument(
                what: "RAW crop \(c) of a \(m.width)×\(m.height) mosaic", problem: "must lie inside the mosaic, which must be at least 2×2")
        }
        guard m.blackLevel.count == 4, m.blackLevel.allSatisfy(\.isFinite) else {
            throw .invalidArgument(what: "RAW black levels \(m.blackLevel)", problem: "give 4 finite values, one per 2×2 position")
        }
        guard m.xTrans == nil || (m.width >= 12 && m.height >= 12) else {
            throw .invalidArgument(what: "a \(m.width)×\(m.height) X-Trans mosaic", problem: "must be at least 12×12 (two 6×6 repeats)")
        }
        try settings.limits.check(width: c.width, height: c.height, bytesPerPixel: 12, what: "developed RAW image")
        let half = settings.demosaic == .halfSize && m.xTrans == nil
        let (w, h) = half ? (c.width / 2, c.height / 2) : (c.width, c.height)
        guard w > 0, h > 0 else {
            throw .invalidArgument(what: "half-size develop of a \(c.width)×\(c.height) crop", problem: "needs at least 2×2 photosites")
        }
        return RowSourceInfo(
            kind: "RAW develop", width: w, height: h, pixelFormat: .rgbf, alpha: .premultiplied,
            colorSpace: settings.workingSpace)
    }

    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        try checkRows(y: y, count: count)
        switch path {
        case .bilinear(let d): d.bilinearRows(y: y, count: count, columns: columns, into: destination, bytesPerRow: bytesPerRow)
        case .halfSize(let d): d.halfSizeRows(y: y, count: count, columns: columns, into: destination, bytesPerRow: bytesPerRow)
        case .chunked(let chunks): try chunks.read(y: y, count: count, columns: columns, into: destination, bytesPerRow: bytesPerRow)
        }
    }

    // MARK: The engine reads the chunked develop's chunks in place

    func willRead(rows: Range<Int>) {
        if case .chunked(let chunks) = path { chunks.willRead(rows: rows) }
    }

    var lendsRows: Bool {
        if case .chunked = path { return !columns.isEmpty }
        return false
    }

    func lendRows(y: Int, count: Int) throws(DaguerreError) -> [LentRows] {
        try checkRows(y: y, count: count)
        guard case .chunked(let chunks) = path, lendsRows else {
            throw .unsupported(feature: "lending rows of a draft develop", hint: "Read them with readRows(y:count:into:bytesPerRow:).")
        }
        return try chunks.lend(y: y, count: count, columns: columns)
    }

    func releaseRows(below y: Int) {
        if case .chunked(let chunks) = path { chunks.releaseRows(below: y) }
    }

    /// Whether a chunk is developing ahead on its own thread (for the tests).
    var isDevelopingAhead: Bool {
        if case .chunked(let chunks) = path { return chunks.isDevelopingAhead }
        return false
    }
}
