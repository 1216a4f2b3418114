// A DNG's Bayer mosaic still in its file (SPEC X6, X7): the layout, and the chunks that hold the
// samples, decoded band by band by a develop (a 24 MP mosaic is 48 MB it never holds whole) or
// all at once by whatever needs the whole mosaic.
import DaguerreCore
import Synchronization

/// A Bayer mosaic whose samples are still in its DNG: what ``DNGReader`` leaves in the file when
/// a develop will stream it.
///
/// ```swift
/// if case let .storedMosaic(stored) = dng.rawData {
///     print(stored.layout.width, stored.layout.pattern)    // known without decoding
///     let mosaic = try stored.decoded()                     // every chunk, decoded now
/// }
/// ```
public struct StoredMosaic: Sendable, Equatable {
    /// The mosaic's size, order and levels.
    public var layout: MosaicLayout
    /// The file's strips or tiles that hold the samples.
    package let chunks: DNGRawChunks
    /// Which opening of a file this is: two stored mosaics are equal when they are the same
    /// chunks of the same opening with the same layout.
    private let opening: UInt64

    private static let openings = Atomic<UInt64>(0)

    package init(layout: MosaicLayout, chunks: DNGRawChunks) {
        self.layout = layout
        self.chunks = chunks
        opening = Self.openings.add(1, ordering: .relaxed).newValue
    }

    /// The mosaic with every chunk decoded. A damaged chunk is a typed error.
    public func decoded() throws(DaguerreError) -> BayerImage {
        try BayerImage(layout: layout, samples: try chunks.decodeAll().0)
    }

    public static func == (a: StoredMosaic, b: StoredMosaic) -> Bool { a.opening == b.opening && a.layout == b.layout }
}
