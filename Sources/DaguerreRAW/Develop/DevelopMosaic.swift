// The mosaic a develop reads (SPEC X2, X6): whole in memory, or decoded from its DNG a band of
// tile rows at a time as the develop reaches them (``StreamedMosaic``).
import DaguerreCore
import DaguerreFormats

/// A develop's mosaic: its layout, and its rows on demand.
///
/// ```swift
/// let mosaic = DevelopMosaic.streamed(StreamedMosaic(stored: stored, limits: .default, bandRows: 328))
/// try mosaic.withRows(0..<300) { rows in print(rows.row(17)[40]) }
/// ```
enum DevelopMosaic {
    case whole(BayerImage)
    case streamed(StreamedMosaic)

    var layout: MosaicLayout {
        switch self {
        case .whole(let m): m.layout
        case .streamed(let s): s.layout
        }
    }

    /// Runs `body` with mosaic rows holding `rows` (clipped to the mosaic): all of them for a
    /// whole mosaic; for a streamed one, the band decoded now (its loops offered to `assistance`).
    func withRows<R>(
        _ rows: Range<Int>, assistance: WorkerPool.Assistance? = nil,
        _ body: (MosaicRows) throws(DaguerreError) -> R
    ) throws(DaguerreError) -> R {
        switch self {
        case .whole(let m):
            return try m.samples.withUnsafeBufferPointer { (s) throws(DaguerreError) in
                try body(MosaicRows(whole: s.baseAddress!, width: m.width, height: m.height))
            }
        case .streamed(let stream):
            return try body(try stream.cover(rows, assistance: assistance))
        }
    }
}
