// What a RAWFilter learns from its mosaic once (SPEC X7: re-renders after a parameter change
// must not redo it): the noise profile estimate, and which rows have a photosite at the white
// level. Copies of a filter share it, since the DNG they develop is the same and immutable.
import DaguerreCore
import DaguerreFormats
import Synchronization

/// Facts about a filter's mosaic, each computed at most once and shared by copies of the filter.
///
/// ```swift
/// let anyClipped = facts.clippedRows(mosaic).contains(true)   // scanned once, then shared
/// ```
final class MosaicFacts: Sendable {
    /// The noise model noise reduction uses, once estimated by each method
    /// (``RAWFilter/noiseProfile(_:)``, ``RAWFilter/xTransNoiseProfile(_:)``).
    let noiseProfiles = Mutex<[NoiseEstimator.Method: CFANoiseProfile]>([:])
    /// Per row, whether a photosite in it reached the white level
    /// (``HighlightRecovery/rowsReachingWhite(_:)``): a draft leaves its highlight inputs out
    /// when no row has one (``DraftBalance``), and its clip-mask decoders skip rows far from one.
    let clippedRows = Mutex<[Bool]?>(nil)

    /// `clippedRows`, scanning `mosaic` on the first call.
    func clippedRows(_ mosaic: BayerImage) -> [Bool] {
        clippedRows.withLock { known in
            if let known { return known }
            let found = HighlightRecovery.rowsReachingWhite(mosaic)
            known = found
            return found
        }
    }
}
