// Planar 8-bit Y'CbCr 4:2:0 frames (I420): what H.264 codes and what the decoder returns.

/// An 8-bit planar Y'CbCr 4:2:0 image (I420: a full-size luma plane, then Cb and Cr at half
/// width and half height), the 420v/420f family's planar form (SPEC mapping of CVPixelBuffer).
///
/// Capture pipelines that already hold Y'CbCr give frames in this form to skip the RGB
/// conversion; ``YCbCrConversion`` makes one from RGBA/BGRA pixel buffers. Width and height must
/// be even (H.264 4:2:0 codes whole 2×2 chroma blocks). A value type with copy-on-write arrays,
/// so it is Sendable.
///
/// ```swift
/// var frame = try PlanarYCbCr420Buffer(width: 1440, height: 1080)
/// frame.luma[0] = 235      // white, video range
/// ```
public struct PlanarYCbCr420Buffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height` luma samples, rows packed.
    public var luma: [UInt8]
    /// `width/2 × height/2` Cb samples.
    public var cb: [UInt8]
    /// `width/2 × height/2` Cr samples.
    public var cr: [UInt8]
    /// Tags: primaries, transfer, matrix and range of the samples.
    public var colorProperties: VideoColorProperties
    /// Video range (16–235 luma, 16–240 chroma) unless set; the range of ``colorProperties``.
    public var fullRange: Bool {
        get { colorProperties.fullRange }
        set { colorProperties.fullRange = newValue }
    }

    /// A black frame (video range: luma 16, chroma 128).
    public init(
        width: Int, height: Int, colorProperties: VideoColorProperties = .bt709, fullRange: Bool = false,
        limits: Limits = .default
    ) throws(DaguerreError) {
        try limits.check(width: width, height: height, bytesPerPixel: 2, what: "Y'CbCr frame")
        guard width % 2 == 0, height % 2 == 0 else {
            throw .invalidArgument(what: "Y'CbCr 4:2:0 frame size \(width)×\(height)", problem: "width and height must be even")
        }
        self.width = width
        self.height = height
        self.colorProperties = colorProperties
        self.colorProperties.fullRange = fullRange
        luma = [UInt8](repeating: fullRange ? 0 : 16, count: width * height)
        cb = [UInt8](repeating: 128, count: width * height / 4)
        cr = cb
    }

    /// Planes given by the caller; each must have exactly the size above.
    public init(
        width: Int, height: Int, luma: [UInt8], cb: [UInt8], cr: [UInt8],
        colorProperties: VideoColorProperties = .bt709, fullRange: Bool = false
    ) throws(DaguerreError) {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw .invalidArgument(
                what: "Y'CbCr 4:2:0 frame size \(width)×\(height)", problem: "width and height must be positive and even")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, luma.count == pixels, cb.count == pixels / 4, cr.count == pixels / 4 else {
            throw .invalidArgument(
                what: "Y'CbCr 4:2:0 planes (\(luma.count), \(cb.count), \(cr.count) bytes)",
                problem: "a \(width)×\(height) frame needs \(width * height) luma and \(width * height / 4) bytes per chroma plane")
        }
        self.width = width
        self.height = height
        self.luma = luma
        self.cb = cb
        self.cr = cr
        self.colorProperties = colorProperties
        self.fullRange = fullRange
    }
}
