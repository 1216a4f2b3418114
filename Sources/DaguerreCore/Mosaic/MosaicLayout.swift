// What a Bayer mosaic is apart from its samples (SPEC R1, X6): enough to plan a develop, check
// sizes and linearize codes before a single sample is decoded.

/// A mosaic's size, CFA order (2×2 Bayer, or 6×6 X-Trans in ``xTrans``), bit depth and black and white levels.
///
/// ``BayerImage`` is a layout with its samples; a mosaic still in its file (a DNG opened for a
/// develop) is a layout with the chunks that hold it.
///
/// ```swift
/// let layout = MosaicLayout(width: 4032, height: 3024, pattern: .rggb, bitsPerSample: 14,
///                           blackLevel: [528, 528, 528, 528], whiteLevel: 16383)
/// layout.pattern.color(x: 1, y: 0)    // 1 (green)
/// ```
public struct MosaicLayout: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pattern: BayerPattern
    /// Significant bits per sample (the DNG's JPEG precision and WhiteLevel bound).
    public var bitsPerSample: Int
    /// The black level of each position of the 2×2 block, row-major (DNG BlackLevel, 2×2 repeat).
    public var blackLevel: [Double]
    /// The sample value of a saturated photosite.
    public var whiteLevel: Int
    /// The 6×6 colour filter when the mosaic is X-Trans (then `pattern` does not describe it);
    /// nil for a Bayer mosaic.
    public var xTrans: XTransPattern?

    public init(
        width: Int, height: Int, pattern: BayerPattern, bitsPerSample: Int, blackLevel: [Double], whiteLevel: Int,
        xTrans: XTransPattern? = nil
    ) {
        self.width = width
        self.height = height
        self.pattern = pattern
        self.xTrans = xTrans
        self.bitsPerSample = bitsPerSample
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
    }
}

extension MosaicLayout {
    /// The colour (0 red, 1 green, 2 blue) at photosite (x, y), for either kind of mosaic.
    @inline(__always) public func color(x: Int, y: Int) -> Int {
        if let xTrans { return xTrans.color(x: x, y: y) }
        return pattern.color(x: x, y: y)
    }

    /// The colour filter's name and CFAPattern, for messages (`"RGGB"`, `"X-Trans 6×6"`).
    public var cfaName: String { xTrans == nil ? pattern.rawValue.uppercased() : "X-Trans 6×6" }
}
