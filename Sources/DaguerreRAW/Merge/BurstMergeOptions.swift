// The burst merge's settings (SPEC P13), each declared once with the reason for its default.
import DaguerreCore

extension BurstMerge {
    /// How a burst is aligned and merged.
    ///
    /// Tiles are 16×16 pixels of the grey image (one pixel per 2×2 Bayer block, so 32×32
    /// photosites), every 8 pixels, as HDR+ aligns raw bursts; the alignment pyramid reduces
    /// by 2, 2 and 4 above that grey image (``GreyPyramid``).
    ///
    /// ```swift
    /// var options = BurstMerge.Options()
    /// options.searchRadii = [1, 2, 2, 8]   // allow more shake at the coarsest level
    /// options.motionThreshold = 3          // accept more before calling it motion
    /// let merged = try BurstMerge(options: options).merge(frames)
    /// ```
    public struct Options: Sendable, Equatable {
        /// The tile search's radius at each pyramid level, finest first, in that level's pixels.
        /// The coarsest level present (it depends on the frame size) uses the last radius and
        /// searches around no motion; each finer level searches around the best of three coarse
        /// tiles' displacements. The default reaches ±4 pixels of the coarsest level (±128
        /// photosites at 12 MP, more than a hand-held burst of a second moves), and the finer
        /// radii cover the rounding of the level above.
        public var searchRadii: [Int] = [1, 2, 2, 4]

        /// Where a frame stops counting, in standard deviations of the noise: a block of a
        /// frame gets full weight while its local means (3×3 blocks, per CFA colour) differ
        /// from the reference's by at most `motionThreshold` noise deviations (root mean square
        /// over the four colours), less weight beyond, and none from √2 times that. 2 weighs
        /// down about 0.3 % of the blocks of a static scene (a χ² with four degrees of freedom
        /// above 16), so noise is averaged nearly as by a plain mean, and wholly rejects a
        /// change of 1.3 times the noise of one photosite in every colour, or 2.7 times in one.
        public var motionThreshold: Double = 2

        /// Whether the merged mosaic may have more bits per sample than the frames (up to
        /// log₂ N more, at most 16), its black and white levels scaled with it, so the average
        /// keeps the precision it gained. Off, the merge is rounded to the frames' own codes.
        public var keepsExtraPrecision = true

        public init() {}

        /// Refuses settings the merge cannot use.
        func validate() throws(DaguerreError) {
            guard !searchRadii.isEmpty, searchRadii.allSatisfy({ (1...16).contains($0) }) else {
                throw .invalidArgument(
                    what: "burst merge search radii \(searchRadii)", problem: "give one radius per pyramid level, finest first, each 1...16"
                )
            }
            guard motionThreshold.isFinite, motionThreshold > 0, motionThreshold <= 100 else {
                throw .invalidArgument(
                    what: "burst merge motion threshold \(motionThreshold)", problem: "must be in (0, 100] noise standard deviations")
            }
        }
    }
}
