// A media sample: the CMSampleBuffer of the seeds, for video frames and photos alike (SPEC C4,
// P2, P12, R2, W1–W4). Capture devices deliver frames in it, photo outputs deliver photos in it,
// and the data representations turn it into files.

/// One media sample: pixels or compressed bytes, the colour space they are in, their timing and
/// what the camera knew when it exposed them.
///
/// - Video frames arrive in the layout of the device's active format: a
///   ``PlanarYCbCr420Buffer`` for '420v'/'420f' (its `fullRange` says which), a BGRA8
///   ``PixelBuffer`` for 'BGRA', a ``BayerImage`` for the Bayer formats.
/// - Photos (seed 501's photoSampleBuffer, previewPhotoSampleBuffer and rawSampleBuffer) are
///   compressed JPEG bytes, processed pixels, or a RAW mosaic with its colour calibration.
///
/// Every sample carries its colour space (W4: "propagate color tags"), and the frame
/// initializer makes the buffer's own tags agree with it: a Y'CbCr buffer's `colorProperties`
/// get P3 or BT.709 primaries, a `PixelBuffer` gets its `colorSpace`. A Display P3 frame in
/// video range is refused (W2). A value type: samples are shared between outputs without
/// copying (the buffers are copy-on-write).
///
/// ```swift
/// let yuv = try PlanarYCbCr420Buffer(width: 640, height: 480, fullRange: true)
/// let frame = try SampleBuffer(content: .yCbCr420(yuv), colorSpace: .displayP3,
///                              metadata: CaptureFrameMetadata(timestamp: 0.5))
/// frame.pixelFormatType        // .yuv420FullRange
///
/// let photo = SampleBuffer(jpeg: bytes, photoMetadata: exif, colorSpace: .displayP3)
/// let preview = SampleBuffer(pixels: smallBGRA)
/// ```
public struct SampleBuffer: Sendable {
    /// The sample's pixels or bytes.
    public enum Content: Sendable {
        /// A complete JPEG stream.
        case jpeg([UInt8])
        /// Interleaved pixels (BGRA8 frames; 8-bit RGB, RGBA or BGRA photos).
        case pixels(PixelBuffer)
        /// Planar Y'CbCr 4:2:0 ('420v', '420f').
        case yCbCr420(PlanarYCbCr420Buffer)
        /// A RAW Bayer mosaic.
        case bayer(BayerImage)
    }

    public var content: Content
    /// The colour space of the pixels (sRGB or Display P3 for camera samples, W3); nil for a
    /// RAW mosaic, which is in the camera's own space (``rawCalibration`` maps it).
    public var colorSpace: ColorSpace?
    /// The timing and the camera's per-frame facts (exposure, ISO, white balance, motion).
    public var metadata: CaptureFrameMetadata
    /// What a file made from this sample carries: EXIF fields, GPS, the Live Photo identifier.
    public var photoMetadata: PhotoMetadata
    /// How a RAW mosaic's camera RGB maps to XYZ (``Content/bayer`` photos).
    public var rawCalibration: RawColorCalibration?

    /// Presentation time in seconds on the clock the device streams against.
    public var presentationTime: Double {
        get { metadata.timestamp }
        set { metadata.timestamp = newValue }
    }

    /// A video frame. Throws for a `PixelBuffer` that is not BGRA8, and for Display P3 in video
    /// range (W2); makes the buffer's own colour tags agree with `colorSpace`.
    public init(content: Content, colorSpace: ColorSpace, metadata: CaptureFrameMetadata) throws(DaguerreError) {
        let p3 = colorSpace == .displayP3
        switch content {
        case .yCbCr420(var buffer):
            if p3 && !buffer.fullRange {
                throw .invalidArgument(
                    what: "A Display P3 frame in video range (420v)",
                    problem: "video-range formats carry sRGB only (SPEC W2); deliver P3 frames in full range (420f)")
            }
            let fullRange = buffer.fullRange
            buffer.colorProperties = VideoColorProperties(colorSpace: colorSpace)
            buffer.fullRange = fullRange
            self.content = .yCbCr420(buffer)
        case .pixels(var buffer):
            guard buffer.format == .bgra8 else {
                throw .invalidArgument(
                    what: "A \(buffer.format) pixel buffer as a BGRA frame", problem: "BGRA frames hold BGRA8 pixel buffers")
            }
            buffer.colorSpace = colorSpace
            self.content = .pixels(buffer)
        case .bayer, .jpeg:
            self.content = content
        }
        self.colorSpace = colorSpace
        self.metadata = metadata
        photoMetadata = PhotoMetadata()
    }

    /// A compressed photo.
    public init(
        jpeg: [UInt8], photoMetadata: PhotoMetadata = PhotoMetadata(), colorSpace: ColorSpace? = .sRGB, presentationTime: Double = 0
    ) {
        content = .jpeg(jpeg)
        self.photoMetadata = photoMetadata
        self.colorSpace = colorSpace
        metadata = CaptureFrameMetadata(timestamp: presentationTime)
    }

    /// A processed photo, in the buffer's own colour space.
    public init(pixels: PixelBuffer, photoMetadata: PhotoMetadata = PhotoMetadata(), presentationTime: Double = 0) {
        content = .pixels(pixels)
        self.photoMetadata = photoMetadata
        colorSpace = pixels.colorSpace
        metadata = CaptureFrameMetadata(timestamp: presentationTime)
    }

    /// A RAW photo: the sensor's mosaic and how its colours map to XYZ.
    public init(
        raw: BayerImage, calibration: RawColorCalibration, photoMetadata: PhotoMetadata = PhotoMetadata(),
        presentationTime: Double = 0
    ) {
        content = .bayer(raw)
        rawCalibration = calibration
        self.photoMetadata = photoMetadata
        colorSpace = nil
        metadata = CaptureFrameMetadata(timestamp: presentationTime)
    }

    /// The pixels' width and height; for compressed bytes, what the photo's metadata says (0
    /// when it does not say).
    public var size: (width: Int, height: Int) {
        switch content {
        case .yCbCr420(let b): return (b.width, b.height)
        case .pixels(let b): return (b.width, b.height)
        case .bayer(let b): return (b.width, b.height)
        case .jpeg: return (photoMetadata.pixelWidth ?? 0, photoMetadata.pixelHeight ?? 0)
        }
    }

    public var width: Int { size.width }
    public var height: Int { size.height }

    /// The sample format of the pixels; nil for compressed bytes and for interleaved layouts no
    /// capture format uses.
    public var pixelFormatType: PixelFormatType? {
        switch content {
        case .yCbCr420(let b): return b.fullRange ? .yuv420FullRange : .yuv420VideoRange
        case .pixels(let b): return PixelFormatType(b.format)
        case .bayer(let b): return .bayer(b.pattern)
        case .jpeg: return nil
        }
    }

    /// The Y'CbCr buffer of a 420v/420f sample.
    public var yCbCrBuffer: PlanarYCbCr420Buffer? { if case .yCbCr420(let b) = content { return b } else { return nil } }
    /// The pixel buffer of an interleaved sample.
    public var pixelBuffer: PixelBuffer? { if case .pixels(let b) = content { return b } else { return nil } }
    /// The mosaic of a Bayer sample.
    public var bayerImage: BayerImage? { if case .bayer(let b) = content { return b } else { return nil } }
}
