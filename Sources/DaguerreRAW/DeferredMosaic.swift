// A RAWFilter's mosaic while it is still in its DNG (SPEC X6, X7): the full develop streams it
// band by band from the file's chunks (``StreamedMosaic``); anything that reads it whole (draft
// renders, a neutral picked in the image, the noise estimate, ``RAWFilter/dng``) decodes it once,
// and copies of the filter share that.
import DaguerreCore
import DaguerreFormats
import Synchronization

/// The chunks that hold a filter's mosaic, and the whole mosaic once something decoded it.
///
/// ```swift
/// let (header, chunks) = try DNGReader.open(path: "IMG_0001.dng")
/// let deferred = DeferredMosaic(header: header.mosaic!, chunks: chunks!)
/// let whole = try deferred.whole()          // decoded here, the first time only
/// ```
final class DeferredMosaic: Sendable {
    /// The mosaic without its samples (``BayerImage/isDeferred``).
    let header: BayerImage
    let chunks: DNGRawChunks
    private let decoded = Mutex<BayerImage?>(nil)

    init(header: BayerImage, chunks: DNGRawChunks) { self.header = header; self.chunks = chunks }

    /// The mosaic with its samples, decoded on the first call; a damaged chunk throws every time.
    func whole() throws(DaguerreError) -> BayerImage {
        try decoded.withLock { (known) throws(DaguerreError) -> BayerImage in
            if let known { return known }
            let mosaic = try chunks.mosaic(header)
            known = mosaic
            return mosaic
        }
    }

    /// The whole mosaic if something decoded it already (a full develop then reads it instead
    /// of decoding the file's chunks again).
    var wholeIfDecoded: BayerImage? { decoded.withLock { $0 } }
}
