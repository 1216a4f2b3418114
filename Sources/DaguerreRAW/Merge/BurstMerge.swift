// Still-image stabilization as multi-frame fusion (SPEC P13): a burst of short exposures, each
// sharp under hand shake, aligned to one reference frame and merged with ghost rejection into
// one raw mosaic that has the noise of the burst's whole exposure, as HDR+ does (Hasinoff et
// al., "Burst photography for high dynamic range and low-light imaging on mobile cameras", 2016):
// a coarse-to-fine tile search on a grey image of 2×2 Bayer blocks, then a robust merge of each
// tile. Our own code: no maintained library aligns and merges raw Bayer bursts on Linux. Debian
// has hdrmerge, an application (not a library) that builds an HDR DNG from exposure brackets by
// taking each pixel from the best-exposed frame, aligned by one translation a frame, with
// ghosts masked by hand in its GUI; it does not average a burst. The SwiftPM mirror has nothing
// of the kind.
import DaguerreCore

/// Aligns a burst of raw frames to one of them and merges it into one frame with less noise.
///
/// The frames are Bayer mosaics of the same size, CFA order and levels, exposed alike (a burst
/// of short frames). Each is aligned to `frames[reference]` tile by tile, in whole 2×2 blocks so
/// colours are never mixed, and merged photosite by photosite, each frame weighted down where
/// it disagrees with the reference by more than the noise explains (so a moving object is not
/// doubled). The result has the frames' CFA order and signal scale (the mean of the frames where
/// they agree), so a develop or a DNG writer treats it as one better frame; by default it has up
/// to log₂ N more bits per sample (at most 16), with black and white levels scaled alike.
///
/// ```swift
/// let burst = try (0..<8).map { i in
///     try camera.captureStill(mode: mode, at: Double(i) / 30, exposure: short, whiteBalanceGains: gains).mosaic
/// }
/// let photo = try BurstMerge().merge(burst, reference: 0, noise: calibration.noiseProfile)
/// ```
public struct BurstMerge: Sendable {
    /// The most frames one merge takes.
    public static let maxFrames = 64

    public var options: Options
    public var limits: Limits

    public init(options: Options = .init(), limits: Limits = .default) {
        self.options = options
        self.limits = limits
    }

    /// Aligns every frame to `frames[reference]` and merges them.
    ///
    /// - Parameters:
    ///   - frames: 1...``maxFrames`` mosaics of one size, CFA order, bit depth and levels.
    ///   - reference: the frame the others are aligned to; the photo shows the scene as it was
    ///     then (what moved is shown where it was in this frame).
    ///   - noise: the frames' DNG NoiseProfile (variance S·x + O of the signal normalized to
    ///     0...1 above black: one pair for all colours or one per colour R, G, B); nil estimates
    ///     it from the reference frame.
    /// - Returns: the merged mosaic (one frame is returned as it is).
    /// - Throws: `DaguerreError.invalidArgument` for an empty or oversized burst, frames that
    ///   differ in size, order, depth or levels, a reference out of range, an unusable noise
    ///   profile or options; `.tooLarge` past `limits`.
    public func merge(
        _ frames: [BayerImage], reference: Int = 0, noise: [(scale: Double, offset: Double)]? = nil
    ) throws(DaguerreError) -> BayerImage {
        try options.validate()
        guard frames.count <= Self.maxFrames else {
            throw .invalidArgument(what: "a burst of \(frames.count) frames", problem: "merge at most \(Self.maxFrames) frames at once")
        }
        let layout = try BurstLayout(frames: frames, referenceIndex: reference, limits: limits)
        let first = frames[reference]
        guard frames.count > 1 else {
            // Nothing to merge; a given profile is still checked, none is estimated.
            if let noise { _ = try BurstNoise(dng: noise, reference: first) }
            return first
        }
        let model = try BurstNoise(dng: noise, reference: first)
        let shift = outputShift(frameCount: frames.count, reference: first)
        let samples = BurstMergeSchedule.run(frames, layout: layout, noise: model, options: options, shift: shift)
        let factor = Double(1 << shift)
        return try BayerImage(
            width: first.width, height: first.height, pattern: first.pattern, bitsPerSample: first.bitsPerSample + shift,
            samples: samples, blackLevel: first.blackLevel.map { $0 * factor }, whiteLevel: first.whiteLevel << shift)
    }

    /// The bits the merged samples gain: log₂ N rounded up, as far as 16 bits and the white
    /// level allow (none when ``Options/keepsExtraPrecision`` is off).
    func outputShift(frameCount: Int, reference: BayerImage) -> Int {
        guard options.keepsExtraPrecision else { return 0 }
        var shift = 0
        while 1 << shift < frameCount, reference.bitsPerSample + shift < 16, reference.whiteLevel << (shift + 1) <= Int(UInt16.max) {
            shift += 1
        }
        return shift
    }
}
