// What MovieRecorder needs from an H.264 encoder, whichever library encodes.
import DaguerreCore
import DaguerreFormats

/// An H.264 encoder as ``MovieRecorder`` drives it: planar Y'CbCr 4:2:0 frames in, samples ready
/// for the movie out (length-prefixed NAL units, parameter sets only in ``decoderConfiguration``,
/// times in the settings' timescale, decode order). ``X264Encoder`` and ``OpenH264Encoder``
/// conform; ``H264EncoderChoice`` picks one.
///
/// ```swift
/// let encoder = try H264EncoderChoice.openH264.makeEncoder(H264EncoderSettings(width: 640, height: 480))
/// var samples = try encoder.encode(frame, presentationTime: 0)
/// samples += try encoder.finish()
/// ```
protocol H264Encoder: AnyObject {
    var settings: H264EncoderSettings { get }
    /// SPS and PPS for the `avcC` box, known once the encoder is open.
    var decoderConfiguration: AVCDecoderConfiguration { get }
    /// Encodes one frame shown at `presentationTime` (increasing); returns the samples finished
    /// so far, which may be none.
    func encode(_ frame: PlanarYCbCr420Buffer, presentationTime: Int64) throws(DaguerreError) -> [EncodedVideoSample]
    /// Returns the samples still held; the encoder cannot be used afterwards.
    func finish() throws(DaguerreError) -> [EncodedVideoSample]
    /// Closes the encoder without draining it (a cancelled recording).
    func close()
}

extension H264EncoderChoice {
    /// Opens this library's encoder; `.unsupported` when the library is not installed.
    func makeEncoder(_ settings: H264EncoderSettings) throws(DaguerreError) -> any H264Encoder {
        switch self {
        case .x264: try X264Encoder(settings: settings)
        case .openH264: try OpenH264Encoder(settings: settings)
        }
    }

    /// The library's name in messages.
    var libraryName: String {
        switch self {
        case .x264: "x264"
        case .openH264: "OpenH264"
        }
    }
}
