// What MovieRecorder needs from a video encoder, whichever codec and library encodes.
import DaguerreCore
import DaguerreFormats

/// A video encoder as ``MovieRecorder`` drives it: planar Y'CbCr 4:2:0 frames in, samples ready
/// for the movie out (length-prefixed NAL units, parameter sets only in ``trackConfiguration``,
/// times in the settings' timescale, decode order). ``X264Encoder`` and ``OpenH264Encoder``
/// (H.264, picked by ``H264EncoderChoice``) and ``HEVCEncoder`` conform;
/// ``MovieSettings/videoCodec`` picks the codec.
///
/// ```swift
/// let encoder = try H264EncoderChoice.openH264.makeEncoder(H264EncoderSettings(width: 640, height: 480))
/// var samples = try encoder.encode(frame, presentationTime: 0)
/// samples += try encoder.finish()
/// ```
protocol VideoEncoder: AnyObject {
    var settings: H264EncoderSettings { get }
    /// The parameter sets for the sample entry (`avcC` or `hvcC`), known once the encoder is open.
    var trackConfiguration: VideoDecoderConfiguration { get }
    /// The library's name in messages.
    var libraryName: String { get }
    /// Encodes one frame shown at `presentationTime` (increasing); returns the samples finished
    /// so far, which may be none.
    func encode(_ frame: PlanarYCbCr420Buffer, presentationTime: Int64) throws(DaguerreError) -> [EncodedVideoSample]
    /// Returns the samples still held; the encoder cannot be used afterwards.
    func finish() throws(DaguerreError) -> [EncodedVideoSample]
    /// Closes the encoder without draining it (a cancelled recording).
    func close()
}

extension X264Encoder: VideoEncoder {
    var trackConfiguration: VideoDecoderConfiguration { .avc(decoderConfiguration) }
    var libraryName: String { H264EncoderChoice.x264.libraryName }
}

extension OpenH264Encoder: VideoEncoder {
    var trackConfiguration: VideoDecoderConfiguration { .avc(decoderConfiguration) }
    var libraryName: String { H264EncoderChoice.openH264.libraryName }
}

extension HEVCEncoder: VideoEncoder {
    var trackConfiguration: VideoDecoderConfiguration { .hevc(decoderConfiguration) }
    var libraryName: String { "x265" }
}

extension H264EncoderChoice {
    /// Opens this library's encoder; `.unsupported` when the library is not installed.
    func makeEncoder(_ settings: H264EncoderSettings) throws(DaguerreError) -> any VideoEncoder {
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

extension MovieSettings {
    /// Opens the encoder of ``videoCodec`` (for H.264, the library ``encoder`` names).
    func makeVideoEncoder(_ settings: H264EncoderSettings) throws(DaguerreError) -> any VideoEncoder {
        switch videoCodec {
        case .h264: try encoder.makeEncoder(settings)
        case .hevc: try HEVCEncoder(settings: settings)
        }
    }
}
