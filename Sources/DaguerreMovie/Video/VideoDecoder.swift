// H.264 and HEVC decoding through FFmpeg's libavcodec ("h264", "hevc" decoders), fed avcC or
// hvcC extradata and length-prefixed samples; frames converted to RGBA in Swift.
import CFFmpeg
import DaguerreCore
import DaguerreFormats

/// Decodes H.264 and HEVC samples (as stored in QuickTime/MP4 tracks) to RGB pixel buffers with
/// libavcodec's native decoders (`h264`, `hevc`).
///
/// The track's `avcC` or `hvcC` record is the decoder's extradata, so samples go in exactly as
/// the file stores them. Frames come out in presentation order, each with the presentation time
/// its packet carried, converted with the matrix and range the stream declares and tagged with
/// the colour space of the track's `colr` primaries (``VideoColorProperties``):
/// - 8-bit 4:2:0 (H.264 Live Photos, 8-bit HEVC) becomes RGBA8;
/// - 10- and 12-bit 4:2:0 (the iPhone's HDR HEVC, Main 10) becomes RGBA16, so the extra
///   precision survives into the engine (BT.2020 primaries tag the frame `.itur2020`; an HLG or
///   PQ transfer is left as coded, not tone-mapped).
///
/// Damaged data is a typed error, and libavcodec's own logging is silenced. Not thread-safe (one
/// decoding session); single-threaded decoding, so results are the same on every run.
///
/// ```swift
/// let decoder = try VideoDecoder(configuration: track.decoderConfiguration!)
/// let frames = try decoder.decode(sample, presentationTime: 0) + decoder.flush()
/// ```
public final class VideoDecoder {
    private let session: FFmpegCodecSession
    private let colorProperties: VideoColorProperties?
    private let limits: Limits
    /// The codec's name in messages.
    private let name: String

    /// An H.264 decoder for an `avcC` record.
    public convenience init(configuration: AVCDecoderConfiguration, colorProperties: VideoColorProperties? = nil, limits: Limits = .default)
        throws(DaguerreError)
    {
        try self.init(configuration: .avc(configuration), colorProperties: colorProperties, limits: limits)
    }

    public init(configuration: VideoDecoderConfiguration, colorProperties: VideoColorProperties? = nil, limits: Limits = .default)
        throws(DaguerreError)
    {
        self.colorProperties = colorProperties
        self.limits = limits
        let name = configuration.codec.displayName
        self.name = name
        let codec = configuration.codec
        session = try FFmpegCodecSession.decoder(
            codec == .hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264, extradata: configuration.serialized(), what: name,
            decoderName: codec == .hevc ? "hevc" : "h264"
        ) {
            .corruptData(format: name, detail: "the decoder refused the \(codec.configurationBoxType) parameter sets (\($0))", path: nil)
        }
    }

    /// Decodes one sample; returns the frames that became ready (zero or more), with their
    /// presentation times.
    public func decode(_ sample: [UInt8], presentationTime: Int64) throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        guard session.isOpen else { throw .invalidArgument(what: "\(name) decoder", problem: "it was already flushed") }
        guard !sample.isEmpty else { return [] }
        try session.send(
            sample, presentationTime: presentationTime,
            tooLarge: .tooLarge(what: "\(name) sample", value: sample.count, limit: Int(Int32.max) - 64)
        ) { [name] in .corruptData(format: name, detail: "the decoder rejected a sample (\($0))", path: nil) }
        return try receive()
    }

    /// Signals the end of the stream and returns the frames still held.
    public func flush() throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        var out: [(time: Int64, frame: PixelBuffer)] = []
        try session.drain(failure: decodingFailed) { (f) throws(DaguerreError) in out.append(try timed(f)) }
        return out
    }

    private func receive() throws(DaguerreError) -> [(time: Int64, frame: PixelBuffer)] {
        var out: [(time: Int64, frame: PixelBuffer)] = []
        try session.receiveFrames(failure: decodingFailed) { (f) throws(DaguerreError) in out.append(try timed(f)) }
        return out
    }

    /// A decoded frame with the presentation time its packet carried.
    private func timed(_ f: UnsafeMutablePointer<AVFrame>) throws(DaguerreError) -> (time: Int64, frame: PixelBuffer) {
        (f.pointee.best_effort_timestamp, try convert(f))
    }

    private func decodingFailed(_ reason: String) -> DaguerreError {
        .corruptData(format: name, detail: "decoding failed (\(reason))", path: nil)
    }

    private func convert(_ f: UnsafeMutablePointer<AVFrame>) throws(DaguerreError) -> PixelBuffer {
        let format = f.pointee.format
        let w = Int(f.pointee.width)
        let h = Int(f.pointee.height)
        let depth: Int
        switch format {
        case AV_PIX_FMT_YUV420P.rawValue, AV_PIX_FMT_YUVJ420P.rawValue: depth = 8
        case AV_PIX_FMT_YUV420P10LE.rawValue: depth = 10
        case AV_PIX_FMT_YUV420P12LE.rawValue: depth = 12
        default:
            throw .unsupported(
                feature: "\(name) frames in pixel format \(format) (not 4:2:0 at 8, 10 or 12 bits)",
                hint: "Only 4:2:0 video (what Live Photo movies use) is converted to RGB.")
        }
        try limits.check(width: w, height: h, bytesPerPixel: depth == 8 ? 4 : 8, what: "Decoded \(name) frame")
        guard let y = f.pointee.data.0, let cb = f.pointee.data.1, let cr = f.pointee.data.2 else {
            throw .corruptData(format: name, detail: "a decoded frame has no planes", path: nil)
        }
        let full = format == AV_PIX_FMT_YUVJ420P.rawValue || f.pointee.color_range == AVCOL_RANGE_JPEG
        let streamMatrix = UInt16(truncatingIfNeeded: f.pointee.colorspace.rawValue)
        let matrix = [1, 5, 6, 9, 10].contains(streamMatrix) ? streamMatrix : (colorProperties?.matrix ?? 1)
        let primaries = colorProperties?.primaries ?? UInt16(truncatingIfNeeded: f.pointee.color_primaries.rawValue)
        let space = VideoColorProperties(primaries: primaries, transfer: 1, matrix: matrix).rgbColorSpace
        let planes = YCbCrConversion.Planes420(
            y: UnsafeRawPointer(y), yStride: Int(f.pointee.linesize.0), cb: UnsafeRawPointer(cb), cbStride: Int(f.pointee.linesize.1),
            cr: UnsafeRawPointer(cr), crStride: Int(f.pointee.linesize.2), width: w, height: h, bitDepth: depth)
        return try YCbCrConversion.makeRGBA(planes, matrix: matrix, fullRange: full, colorSpace: space)
    }
}

/// The H.264 decoder's former name: ``VideoDecoder`` decodes H.264 and HEVC.
public typealias H264Decoder = VideoDecoder
