// A RAWFilter's mosaic while it is still in its DNG (SPEC X6, X7): the full develop streams it
// band by band from the file's chunks (``StreamedMosaic``); anything that reads it whole (draft
// renders, a neutral picked in the image, the noise estimate of a mosaic too small to sample,
// ``RAWFilter/dng``) decodes it once, and copies of the filter share that.
import DaguerreCore
import DaguerreFormats
import Synchronization

/// A mosaic still in its file, and the whole mosaic once something decoded it.
///
/// ```swift
/// guard case let .storedMosaic(stored) = try DNGReader.open(path: "IMG_0001.dng").rawData else { return }
/// let deferred = DeferredMosaic(stored)
/// let whole = try deferred.whole()          // decoded here, the first time only
/// ```
final class DeferredMosaic: Sendable {
    let stored: StoredMosaic
    private let decoded = Mutex<BayerImage?>(nil)

    init(_ stored: StoredMosaic) { self.stored = stored }

    /// The mosaic's size, order and levels.
    var layout: MosaicLayout { stored.layout }

    /// The mosaic with its samples, decoded on the first call; a damaged chunk throws every time.
    func whole() throws(DaguerreError) -> BayerImage {
        try decoded.withLock { (known) throws(DaguerreError) -> BayerImage in
            if let known { return known }
            let mosaic = try stored.decoded()
            known = mosaic
            return mosaic
        }
    }

    /// The whole mosaic if something decoded it already (a full develop then reads it instead
    /// of decoding the file's chunks again).
    var wholeIfDecoded: BayerImage? { decoded.withLock { $0 } }
}
