// A DNG's LinearRaw main image: already demosaiced, still linear and in camera colour, with one
// to four samples per pixel (DNG 1.4 §3, PhotometricInterpretation 34892; SPEC R6, X6). Adobe's
// DNG Converter writes these for cameras it cannot keep as a mosaic, for lossy DNGs and for
// merged HDR and panoramas, so a DNG reader for third-party files must return them.
import DaguerreCore

/// The samples of a LinearRaw DNG: `samplesPerPixel` interleaved `UInt16` values per pixel, in
/// the camera's colour space (the DNG's ColorMatrix maps them to XYZ), linear after the
/// LinearizationTable, with a black and white level per sample plane.
///
/// ```swift
/// let dng = try DNGReader.read(path: "lossy.dng")
/// if let linear = dng.linearRaw {
///     let red = linear.samples[(y * linear.width + x) * linear.samplesPerPixel]
///     let normalized = (Double(red) - linear.blackLevel[0]) / (Double(linear.whiteLevel[0]) - linear.blackLevel[0])
/// }
/// ```
public struct LinearRawImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Colour planes per pixel: 3 for RGB cameras, 1 for monochrome, 4 for some four-colour ones.
    public let samplesPerPixel: Int
    /// Significant bits per sample after linearization.
    public var bitsPerSample: Int
    /// Row-major, interleaved samples: `width * height * samplesPerPixel` of them.
    public var samples: [UInt16]
    /// The black level of each sample plane (DNG BlackLevel averaged over its repeat pattern,
    /// plus the means of BlackLevelDeltaH/V).
    public var blackLevel: [Double]
    /// The saturated value of each sample plane (DNG WhiteLevel).
    public var whiteLevel: [Int]

    /// Wraps existing samples; their count must be `width * height * samplesPerPixel`, and the
    /// levels must have one value per plane.
    public init(
        width: Int, height: Int, samplesPerPixel: Int, bitsPerSample: Int, samples: [UInt16],
        blackLevel: [Double], whiteLevel: [Int]
    ) throws(DaguerreError) {
        guard (1...4).contains(samplesPerPixel) else {
            throw .invalidArgument(what: "LinearRaw samples per pixel \(samplesPerPixel)", problem: "must be 1...4")
        }
        guard width > 0, height > 0, samples.count == width * height * samplesPerPixel else {
            throw .invalidArgument(
                what: "LinearRaw samples (\(samples.count) for \(width)×\(height)×\(samplesPerPixel))",
                problem: "the count must be width × height × samples per pixel")
        }
        guard blackLevel.count == samplesPerPixel, whiteLevel.count == samplesPerPixel else {
            throw .invalidArgument(
                what: "LinearRaw black and white levels", problem: "give one value per sample plane (\(samplesPerPixel))")
        }
        self.width = width
        self.height = height
        self.samplesPerPixel = samplesPerPixel
        self.bitsPerSample = bitsPerSample
        self.samples = samples
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
    }
}
