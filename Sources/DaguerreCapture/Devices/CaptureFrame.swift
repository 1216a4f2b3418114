// A video frame as a camera delivers it: pixels in the format's layout, the colour space they
// are in, and the frame's metadata (SPEC C4, W1–W4; the CMSampleBuffer analog for streams).
import DaguerreCore
import DaguerreFormats

/// One video frame from a capture device.
///
/// The pixels are in the layout of the device's active format: a `PlanarYCbCr420Buffer` for
/// '420v'/'420f' (its `fullRange` says which), a BGRA8 `PixelBuffer` for 'BGRA', a `BayerImage`
/// for the Bayer formats. Every frame carries its colour space (W4: "propagate color tags"), and
/// the initializer makes the buffer's own tags agree with it: a Y'CbCr buffer's
/// `colorProperties` get P3 or BT.709 primaries, a `PixelBuffer` gets its `colorSpace`. A Display
/// P3 frame in video range is refused (W2).
///
/// A value type: frames are shared between outputs without copying (the buffers are
/// copy-on-write).
///
/// ```swift
/// var yuv = try PlanarYCbCr420Buffer(width: 640, height: 480, fullRange: true)
/// let frame = try CaptureFrame(content: .yCbCr420(yuv), colorSpace: .p3D65,
///                              metadata: CaptureFrameMetadata(timestamp: 0.5))
/// frame.pixelFormat        // .yuv420FullRange
/// ```
public struct CaptureFrame: Sendable {
    /// The pixels.
    public enum Content: Sendable {
        case yCbCr420(PlanarYCbCr420Buffer)
        case bgra(PixelBuffer)
        case bayer(BayerImage)
    }

    public let content: Content
    public let colorSpace: CaptureColorSpace
    public var metadata: CaptureFrameMetadata

    /// Throws for a `PixelBuffer` that is not BGRA8, and for P3 in video range (W2).
    public init(content: Content, colorSpace: CaptureColorSpace, metadata: CaptureFrameMetadata) throws(DaguerreError) {
        switch content {
        case var .yCbCr420(buffer):
            if colorSpace == .p3D65 && !buffer.fullRange {
                throw .invalidArgument(what: "A Display P3 frame in video range (420v)",
                                       problem: "video-range formats carry sRGB only (SPEC W2); deliver P3 frames in full range (420f)")
            }
            let fullRange = buffer.fullRange
            buffer.colorProperties = VideoColorProperties(colorSpace: colorSpace.colorSpace)
            buffer.fullRange = fullRange
            self.content = .yCbCr420(buffer)
        case var .bgra(buffer):
            guard buffer.format == .bgra8 else {
                throw .invalidArgument(what: "A \(buffer.format) pixel buffer as a BGRA frame", problem: "BGRA frames hold BGRA8 pixel buffers")
            }
            buffer.colorSpace = colorSpace.colorSpace
            self.content = .bgra(buffer)
        case .bayer:
            self.content = content
        }
        self.colorSpace = colorSpace
        self.metadata = metadata
    }

    public var width: Int {
        switch content {
        case let .yCbCr420(b): return b.width
        case let .bgra(b): return b.width
        case let .bayer(b): return b.width
        }
    }

    public var height: Int {
        switch content {
        case let .yCbCr420(b): return b.height
        case let .bgra(b): return b.height
        case let .bayer(b): return b.height
        }
    }

    public var dimensions: CaptureDimensions { CaptureDimensions(width: width, height: height) }

    /// The pixel format the content is in.
    public var pixelFormat: CapturePixelFormat {
        switch content {
        case let .yCbCr420(b): return b.fullRange ? .yuv420FullRange : .yuv420VideoRange
        case .bgra: return .bgra
        case let .bayer(b): return .bayer(b.pattern)
        }
    }

    /// The Y'CbCr buffer of a 420v/420f frame.
    public var yCbCrBuffer: PlanarYCbCr420Buffer? { if case let .yCbCr420(b) = content { return b } else { return nil } }
    /// The pixel buffer of a BGRA frame.
    public var pixelBuffer: PixelBuffer? { if case let .bgra(b) = content { return b } else { return nil } }
    /// The mosaic of a Bayer frame.
    public var bayerImage: BayerImage? { if case let .bayer(b) = content { return b } else { return nil } }
}
