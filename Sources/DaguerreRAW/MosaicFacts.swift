// What a RAWFilter learns from its mosaic once (SPEC X7: re-renders after a parameter change
// must not redo it): the noise profile estimate, and whether any photosite reached the white
// level. Copies of a filter share it, since the DNG they develop is the same and immutable.
import DaguerreFormats
import Synchronization

/// Facts about a filter's mosaic, each computed at most once and shared by copies of the filter.
///
/// ```swift
/// let clips = facts.reachesWhite.withLock { $0 }     // nil until the first draft asks
/// ```
final class MosaicFacts: Sendable {
    /// The noise model noise reduction uses (``RAWFilter/noiseProfile(_:)``).
    let noiseProfile = Mutex<CFANoiseProfile?>(nil)
    /// Whether a photosite reached the white level anywhere in the mosaic: without one, the
    /// highlight stage changes nothing, and a draft leaves its inputs out (``DraftBalance``).
    let reachesWhite = Mutex<Bool?>(nil)

    /// `reachesWhite`, scanning `mosaic` on the first call.
    func reachesWhite(_ mosaic: BayerImage) -> Bool {
        reachesWhite.withLock { known in
            if let known { return known }
            let found = HighlightRecovery.reachesWhite(mosaic)
            known = found
            return found
        }
    }
}
