// What every frame of a burst must share before it can be merged (SPEC P13), checked once:
// size, CFA order, bit depth, black and white levels. Bad input is a typed error naming the
// frame and what differs, never a trap. Our own code (part of the burst merge, see BurstMerge).
import DaguerreCore
import DaguerreFormats

/// The shared geometry and levels of a validated burst, in the form the merge's loops use.
///
/// Positions of the 2×2 Bayer block are row-major (`(y & 1) * 2 + (x & 1)`), as
/// `BayerImage.blackLevel` indexes them.
///
/// ```swift
/// let layout = try BurstLayout(frames: frames, referenceIndex: 0, limits: .default)
/// layout.quadWidth      // 2016 for 4032-wide frames
/// ```
struct BurstLayout: Sendable {
    let width: Int
    let height: Int
    /// Whole 2×2 blocks across and down (an odd last column or row is the reference's).
    let quadWidth: Int
    let quadHeight: Int
    let frameCount: Int
    let referenceIndex: Int
    /// Per position: black level, and 1 / (white − black), which normalizes a sample to 0...1.
    let black: SIMD4<Float>
    let normalize: SIMD4<Float>
    init(frames: [BayerImage], referenceIndex: Int, limits: Limits) throws(DaguerreError) {
        guard !frames.isEmpty else {
            throw .invalidArgument(what: "an empty burst", problem: "merging needs at least one frame (the reference)")
        }
        guard (0..<frames.count).contains(referenceIndex) else {
            throw .invalidArgument(
                what: "reference frame index \(referenceIndex)",
                problem: "must name one of the burst's \(frames.count) frames (0..<\(frames.count))")
        }
        let reference = frames[referenceIndex]
        try Self.checkOwn(reference, index: referenceIndex)
        for (i, frame) in frames.enumerated() where i != referenceIndex {
            try Self.checkOwn(frame, index: i)
            try Self.check(frame, index: i, against: reference, referenceIndex: referenceIndex)
        }
        // Per frame, the merge keeps a grey pyramid (4 bytes a block, 1 + ⅓ a photosite) and
        // then local means (8 bytes a block, 2 a photosite); the merged samples take 2.
        let (perPixel, overflow) = frames.count.multipliedReportingOverflow(by: 2)
        try limits.check(
            width: reference.width, height: reference.height, bytesPerPixel: overflow ? Int.max : perPixel + 2, what: "burst merge")
        width = reference.width
        height = reference.height
        quadWidth = width / 2
        quadHeight = height / 2
        frameCount = frames.count
        self.referenceIndex = referenceIndex
        let white = Double(reference.whiteLevel)
        var black = SIMD4<Float>()
        var normalize = SIMD4<Float>()
        for p in 0..<4 {
            black[p] = Float(reference.blackLevel[p])
            normalize[p] = Float(1 / (white - reference.blackLevel[p]))
        }
        self.black = black
        self.normalize = normalize
    }

    /// A frame's own consistency: a Bayer mosaic (not X-Trans), its samples fill its size, which holds at least one 2×2 block,
    /// and its levels make sense.
    private static func checkOwn(_ f: BayerImage, index i: Int) throws(DaguerreError) {
        guard f.xTrans == nil else {
            throw .unsupported(
                feature: "Merging a burst of X-Trans mosaics (frame \(i) is one)",
                hint: "the merge aligns and averages 2×2 Bayer blocks; develop X-Trans frames one at a time")
        }
        guard f.width >= 2, f.height >= 2 else {
            throw .invalidArgument(
                what: "burst frame \(i) of \(f.width)×\(f.height) photosites", problem: "a frame needs at least one whole 2×2 Bayer block")
        }
        let (count, overflow) = f.width.multipliedReportingOverflow(by: f.height)
        guard !overflow, f.samples.count == count else {
            throw .invalidArgument(
                what: "burst frame \(i)'s \(f.samples.count) samples for \(f.width)×\(f.height)",
                problem: "the count must be width × height")
        }
        guard (8...16).contains(f.bitsPerSample) else {
            throw .invalidArgument(what: "burst frame \(i)'s \(f.bitsPerSample) bits per sample", problem: "must be 8...16")
        }
        guard f.whiteLevel > 0, f.whiteLevel <= Int(UInt16.max) else {
            throw .invalidArgument(what: "burst frame \(i)'s white level \(f.whiteLevel)", problem: "must be 1...65535")
        }
        guard f.blackLevel.count == 4, f.blackLevel.allSatisfy({ $0.isFinite && $0 >= 0 && $0 < Double(f.whiteLevel) }) else {
            throw .invalidArgument(
                what: "burst frame \(i)'s black level \(f.blackLevel)",
                problem: "give 4 finite values, one per 2×2 position, each below the white level")
        }
    }

    /// A frame against the reference: everything the merge averages must agree.
    private static func check(_ f: BayerImage, index i: Int, against r: BayerImage, referenceIndex: Int) throws(DaguerreError) {
        let what = "burst frame \(i)"
        let fix = "as the reference (frame \(referenceIndex)); merge only frames of one readout mode"
        if f.width != r.width || f.height != r.height {
            throw .invalidArgument(what: "\(what) of \(f.width)×\(f.height)", problem: "must be \(r.width)×\(r.height) \(fix)")
        }
        if f.pattern != r.pattern {
            throw .invalidArgument(what: "\(what)'s CFA order \(f.pattern.fourCC)", problem: "must be \(r.pattern.fourCC) \(fix)")
        }
        if f.bitsPerSample != r.bitsPerSample {
            throw .invalidArgument(what: "\(what)'s \(f.bitsPerSample) bits per sample", problem: "must be \(r.bitsPerSample) \(fix)")
        }
        if f.blackLevel != r.blackLevel || f.whiteLevel != r.whiteLevel {
            throw .invalidArgument(
                what: "\(what)'s levels (black \(f.blackLevel), white \(f.whiteLevel))",
                problem: "must be black \(r.blackLevel), white \(r.whiteLevel) \(fix)")
        }
    }
}
