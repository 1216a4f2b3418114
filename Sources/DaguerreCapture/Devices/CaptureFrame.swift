// Capture's view of a media sample (SPEC C4, W1–W4): the frame's capture colour space and
// dimensions. The sample itself is DaguerreCore's ``SampleBuffer``, one type for frames and photos.
import DaguerreCore

extension SampleBuffer {
    /// The capture colour space the frame is in (W1), or nil when it is in neither sRGB nor
    /// Display P3 (a RAW mosaic, a photo converted elsewhere).
    ///
    /// ```swift
    /// if frame.captureColorSpace == .p3D65 { print("wide colour") }
    /// ```
    public var captureColorSpace: CaptureColorSpace? { CaptureColorSpace.allCases.first { $0.colorSpace == colorSpace } }

    /// Width and height as a capture format states them.
    public var dimensions: CaptureDimensions { CaptureDimensions(width: width, height: height) }
}

/// The name capture used for a video frame before frames and photos shared one type.
@available(*, deprecated, renamed: "SampleBuffer")
public typealias CaptureFrame = SampleBuffer

/// The name capture used for a sample's pixel format before it moved to DaguerreCore.
@available(*, deprecated, renamed: "PixelFormatType")
public typealias CapturePixelFormat = PixelFormatType
