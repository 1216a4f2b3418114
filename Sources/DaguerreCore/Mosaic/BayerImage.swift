// A raw Bayer mosaic as a sensor delivers it: 16-bit containers holding N-bit data (SPEC R1).

/// A single-plane CFA image: the RAW sample buffer's pixels.
///
/// Samples are row-major, one `UInt16` per photosite, holding `bitsPerSample` significant bits
/// (14 for the seeds' 'rgg4' formats) including the black level.
///
/// ```swift
/// var raw = try BayerImage(width: 4032, height: 3024, pattern: .rggb, bitsPerSample: 14)
/// raw.samples[0] = 528                 // black
/// raw.blackLevel = [528, 528, 528, 528]; raw.whiteLevel = 16383
/// ```
public struct BayerImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pattern: BayerPattern
    /// Significant bits per sample (the DNG's JPEG precision and WhiteLevel bound).
    public var bitsPerSample: Int
    /// Row-major samples, `width * height` of them.
    public var samples: [UInt16]
    /// The black level of each position of the 2×2 block, row-major (DNG BlackLevel, 2×2 repeat).
    public var blackLevel: [Double]
    /// The sample value of a saturated photosite.
    public var whiteLevel: Int
    /// The 6×6 colour filter when the mosaic is X-Trans (then `pattern` does not describe it);
    /// nil for a Bayer mosaic. The type keeps its name for the Bayer mosaics it began with.
    ///
    /// ```swift
    /// var raw = try BayerImage(width: 6240, height: 4160, pattern: .rggb, bitsPerSample: 14)
    /// raw.xTrans = .standard            // a Fujifilm X-Trans sensor's mosaic
    /// ```
    public var xTrans: XTransPattern?

    /// A zero-filled mosaic. Throws before allocating if the size is over `limits`.
    public init(width: Int, height: Int, pattern: BayerPattern, bitsPerSample: Int = 14, limits: Limits = .default) throws(DaguerreError) {
        try limits.check(width: width, height: height, bytesPerPixel: 2, what: "Bayer image")
        guard (8...16).contains(bitsPerSample) else {
            throw .invalidArgument(what: "Bayer bits per sample \(bitsPerSample)", problem: "must be 8...16")
        }
        self.width = width
        self.height = height
        self.pattern = pattern
        self.bitsPerSample = bitsPerSample
        samples = [UInt16](repeating: 0, count: width * height)
        blackLevel = [0, 0, 0, 0]
        whiteLevel = (1 << bitsPerSample) - 1
    }

    /// The mosaic's size, order and levels, without its samples.
    public var layout: MosaicLayout {
        MosaicLayout(
            width: width, height: height, pattern: pattern, bitsPerSample: bitsPerSample, blackLevel: blackLevel, whiteLevel: whiteLevel,
            xTrans: xTrans)
    }

    /// A mosaic of `layout` with `samples` (their count must be `width * height`).
    public init(layout: MosaicLayout, samples: [UInt16]) throws(DaguerreError) {
        try self.init(
            width: layout.width, height: layout.height, pattern: layout.pattern, bitsPerSample: layout.bitsPerSample,
            samples: samples, blackLevel: layout.blackLevel, whiteLevel: layout.whiteLevel)
        xTrans = layout.xTrans
    }

    /// Wraps existing samples (their count must be `width * height`).
    public init(
        width: Int, height: Int, pattern: BayerPattern, bitsPerSample: Int, samples: [UInt16],
        blackLevel: [Double], whiteLevel: Int
    ) throws(DaguerreError) {
        guard width > 0, height > 0, samples.count == width * height else {
            throw .invalidArgument(
                what: "Bayer samples (\(samples.count) for \(width)×\(height))", problem: "the count must be width × height")
        }
        guard blackLevel.count == 4 else {
            throw .invalidArgument(what: "Bayer black level", problem: "give 4 values, one per 2×2 position")
        }
        self.width = width
        self.height = height
        self.pattern = pattern
        self.bitsPerSample = bitsPerSample
        self.samples = samples
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
    }
}
