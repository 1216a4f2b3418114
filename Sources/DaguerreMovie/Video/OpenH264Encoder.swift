// H.264 encoding through Cisco's OpenH264 (WelsCreateSVCEncoder, InitializeExt, EncodeFrame,
// EncodeParameterSets): the permissive alternative to x264; the container is MovieWriter.
import COpenH264
import DaguerreCore
import DaguerreFormats
import Synchronization

/// Encodes planar Y'CbCr 4:2:0 frames to H.264 with OpenH264, which is BSD-2-Clause: the encoder
/// to choose when a program that records movies must not carry GPL code (``H264EncoderChoice``).
///
/// Constrained Baseline (CAVLC, no B-frames, so every frame is shown when it is decoded), rate
/// control at the target bit rate with no frame skipped (OpenH264 would otherwise drop frames to
/// hold the rate), one IDR frame every second (or every
/// ``H264EncoderSettings/keyFrameInterval``), the same SPS and PPS for the whole stream. The VUI carries the settings' colour tags (OpenH264
/// writes primaries, transfer and matrix as given, P3's 12 included) and a 1:1 sample aspect
/// ratio, as x264's stream does. With `threads` above 1 each frame is cut into that many slices,
/// which OpenH264 encodes in parallel (its only kind of threading); 0 gives one slice per core.
/// ``H264EncoderSettings/preset`` is x264's and ignored here.
///
/// OpenH264 emits an Annex-B stream with the parameter sets before each IDR frame; they go only
/// into ``decoderConfiguration`` (`avcC`), checked equal to the ones in the stream, and each
/// sample is the frame's other NAL units, length-prefixed. Frames come out as they go in (no
/// delay), so ``finish()`` has nothing left to return.
///
/// Not thread-safe: one encoder belongs to one recording.
///
/// ```swift
/// let encoder = try OpenH264Encoder(settings: .init(width: 1440, height: 1080, frameRate: 15, bitRate: 7_000_000))
/// var samples = try encoder.encode(frame, presentationTime: 0)
/// samples += try encoder.finish()
/// ```
public final class OpenH264Encoder {
    public let settings: H264EncoderSettings
    /// SPS and PPS for the `avcC` box.
    public let decoderConfiguration: AVCDecoderConfiguration
    private var encoder: UnsafeMutablePointer<ISVCEncoder?>?
    private var output = SFrameBSInfo()
    private let log: ErrorLog

    /// OpenH264's own limits: it encodes frames from 16×16 and rate-controls up to 60 frames per
    /// second.
    static let minimumSize = 16
    static let maximumFrameRate = 60

    public init(settings: H264EncoderSettings) throws(DaguerreError) {
        try settings.validate(maxFrameRate: Self.maximumFrameRate)
        guard settings.width >= Self.minimumSize, settings.height >= Self.minimumSize else {
            throw .invalidArgument(
                what: "H.264 frame size \(settings.width)×\(settings.height)",
                problem: "OpenH264 encodes frames of at least \(Self.minimumSize)×\(Self.minimumSize); use x264 for smaller ones")
        }
        try FFmpegError.requireOpenH264(for: "H.264 encoding with OpenH264")
        self.settings = settings
        let log = ErrorLog()
        self.log = log
        var created: UnsafeMutablePointer<ISVCEncoder?>?
        guard WelsCreateSVCEncoder(&created) == 0, let encoder = created else {
            throw .processorFailed(name: "OpenH264 encoder", reason: "WelsCreateSVCEncoder failed")
        }
        // Errors only, into our log (OpenH264 prints warnings to stderr by default).
        var level = UInt32(WELS_LOG_ERROR)
        var callback: WelsTraceCallback = { context, _, message in
            guard let context, let message else { return }
            Unmanaged<ErrorLog>.fromOpaque(context).takeUnretainedValue().record(String(cString: message))
        }
        var context: UnsafeMutableRawPointer? = Unmanaged.passUnretained(log).toOpaque()
        _ = dag_openh264_set_option(encoder, ENCODER_OPTION_TRACE_LEVEL, &level)
        _ = dag_openh264_set_option(encoder, ENCODER_OPTION_TRACE_CALLBACK_CONTEXT, &context)
        _ = dag_openh264_set_option(encoder, ENCODER_OPTION_TRACE_CALLBACK, &callback)

        var p = SEncParamExt()
        _ = dag_openh264_default_params(encoder, &p)
        p.iUsageType = CAMERA_VIDEO_REAL_TIME
        p.iPicWidth = Int32(settings.width)
        p.iPicHeight = Int32(settings.height)
        p.fMaxFrameRate = Float(settings.frameRate)
        p.iRCMode = RC_BITRATE_MODE
        p.iTargetBitrate = Int32(settings.bitRate)
        p.iMaxBitrate = Int32(settings.bitRate + settings.bitRate / 4)
        p.bEnableFrameSkip = false
        p.uiIntraPeriod = UInt32(settings.keyFrameDistance)
        p.eSpsPpsIdStrategy = CONSTANT_ID
        p.iEntropyCodingModeFlag = 0
        p.iTemporalLayerNum = 1
        p.iSpatialLayerNum = 1
        p.iMultipleThreadIdc = UInt16(settings.threads)
        // Fixed slices: with load balancing on, OpenH264 moves slice boundaries by how fast each
        // thread ran, so the same frames gave a different stream on every run.
        p.bUseLoadBalancing = false
        p.iComplexityMode = LOW_COMPLEXITY
        // An IDR frame gets 8 times the bits of an average frame (OpenH264's default is 4, which
        // left each second's key frame about 5 dB below the frames after it; measured on the
        // Kodak pan of Benchmarks/README.md, 8 gave 1.4 dB more over the movie at a lower rate).
        p.iIdrBitrateRatio = 800
        p.sSpatialLayers.0.iVideoWidth = p.iPicWidth
        p.sSpatialLayers.0.iVideoHeight = p.iPicHeight
        p.sSpatialLayers.0.fFrameRate = p.fMaxFrameRate
        p.sSpatialLayers.0.iSpatialBitrate = p.iTargetBitrate
        p.sSpatialLayers.0.iMaxSpatialBitrate = p.iMaxBitrate
        p.sSpatialLayers.0.uiProfileIdc = PRO_BASELINE
        p.sSpatialLayers.0.uiLevelIdc = LEVEL_UNKNOWN
        if settings.threads == 1 {
            p.sSpatialLayers.0.sSliceArgument.uiSliceMode = SM_SINGLE_SLICE
            p.sSpatialLayers.0.sSliceArgument.uiSliceNum = 1
        } else {
            p.sSpatialLayers.0.sSliceArgument.uiSliceMode = SM_FIXEDSLCNUM_SLICE
            p.sSpatialLayers.0.sSliceArgument.uiSliceNum = UInt32(settings.threads)
        }
        let color = settings.colorProperties
        p.sSpatialLayers.0.bVideoSignalTypePresent = true
        p.sSpatialLayers.0.uiVideoFormat = UInt8(VF_UNDEF.rawValue)
        p.sSpatialLayers.0.bFullRange = color.fullRange
        p.sSpatialLayers.0.bColorDescriptionPresent = true
        p.sSpatialLayers.0.uiColorPrimaries = UInt8(truncatingIfNeeded: color.primaries)
        p.sSpatialLayers.0.uiTransferCharacteristics = UInt8(truncatingIfNeeded: color.transfer)
        p.sSpatialLayers.0.uiColorMatrix = UInt8(truncatingIfNeeded: color.matrix)
        p.sSpatialLayers.0.bAspectRatioPresent = true
        p.sSpatialLayers.0.eAspectRatio = ASP_1x1

        let status = dag_openh264_initialize(encoder, &p)
        guard status == 0 else {
            WelsDestroySVCEncoder(encoder)
            throw .invalidArgument(
                what: "OpenH264 settings (\(settings.width)×\(settings.height), \(settings.frameRate) fps, \(settings.bitRate) bit/s)",
                problem: "InitializeExt refused them (\(log.summary ?? "error \(status)"))")
        }
        self.encoder = encoder
        // Parameter sets for avcC.
        var headers = SFrameBSInfo()
        var units: [[UInt8]] = []
        if dag_openh264_parameter_sets(encoder, &headers) == 0 { units = AnnexB.nalUnits(in: Self.bytes(of: &headers)) }
        do {
            decoderConfiguration = try AVCDecoderConfiguration(headerUnits: units)
        } catch {
            _ = dag_openh264_uninitialize(encoder)
            WelsDestroySVCEncoder(encoder)
            self.encoder = nil
            throw .processorFailed(name: "OpenH264 encoder", reason: "it produced no usable SPS/PPS headers")
        }
    }

    deinit { close() }

    /// Encodes one frame shown at `presentationTime` (ticks of the settings' timescale,
    /// increasing) and returns its sample. OpenH264 reads the planes before returning.
    public func encode(_ frame: PlanarYCbCr420Buffer, presentationTime: Int64) throws(DaguerreError) -> [EncodedVideoSample] {
        guard frame.width == settings.width, frame.height == settings.height else {
            throw .invalidArgument(
                what: "Frame of \(frame.width)×\(frame.height)", problem: "the encoder was set up for \(settings.width)×\(settings.height)")
        }
        guard let encoder else { throw .invalidArgument(what: "H.264 encoder", problem: "it is finished or closed") }
        var picture = SSourcePicture()
        picture.iColorFormat = Int32(videoFormatI420.rawValue)
        picture.iPicWidth = Int32(settings.width)
        picture.iPicHeight = Int32(settings.height)
        picture.iStride = (Int32(settings.width), Int32(settings.width / 2), Int32(settings.width / 2), 0)
        // Milliseconds, what OpenH264's rate control reads.
        picture.uiTimeStamp = presentationTime * 1000 / Int64(settings.timescale)
        let status = frame.luma.withUnsafeBufferPointer { y in
            frame.cb.withUnsafeBufferPointer { cb in
                frame.cr.withUnsafeBufferPointer { cr in
                    picture.pData = (
                        UnsafeMutablePointer(mutating: y.baseAddress), UnsafeMutablePointer(mutating: cb.baseAddress),
                        UnsafeMutablePointer(mutating: cr.baseAddress), nil
                    )
                    return dag_openh264_encode(encoder, &picture, &output)
                }
            }
        }
        guard status == 0 else {
            throw .processorFailed(name: "OpenH264 encoder", reason: "EncodeFrame returned \(status) (\(log.summary ?? "no message"))")
        }
        // A skipped frame (none with frame skipping off, but OpenH264 may say so) leaves the
        // previous frame on screen longer: no sample.
        guard output.eFrameType != videoFrameTypeSkip, output.eFrameType != videoFrameTypeInvalid, output.iFrameSizeInBytes > 0 else {
            return []
        }
        var units: [[UInt8]] = []
        for unit in AnnexB.nalUnits(in: Self.bytes(of: &output)) {
            switch AnnexB.type(of: unit) {
            case 7, 8:
                // SPS and PPS again before an IDR frame: they must be the ones in avcC.
                guard decoderConfiguration.sequenceParameterSets.contains(unit) || decoderConfiguration.pictureParameterSets.contains(unit)
                else {
                    throw .processorFailed(name: "OpenH264 encoder", reason: "it changed its parameter sets within the stream")
                }
            case 9: break
            default: units.append(unit)
            }
        }
        return [
            EncodedVideoSample(
                data: AnnexB.lengthPrefixed(units), presentationTime: presentationTime, decodeTime: presentationTime,
                isKeyFrame: output.eFrameType == videoFrameTypeIDR)
        ]
    }

    /// OpenH264 holds no frames: closes the encoder and returns nothing.
    public func finish() throws(DaguerreError) -> [EncodedVideoSample] {
        close()
        return []
    }

    /// Closes the encoder; it cannot be used afterwards.
    public func close() {
        guard let encoder else { return }
        _ = dag_openh264_uninitialize(encoder)
        WelsDestroySVCEncoder(encoder)
        self.encoder = nil
    }

    /// The Annex-B bytes of every layer of `info`, in order.
    private static func bytes(of info: inout SFrameBSInfo) -> [UInt8] {
        let count = Int(max(0, min(info.iLayerNum, MAX_LAYER_NUM_OF_FRAME)))
        return withUnsafePointer(to: &info.sLayerInfo) { tuple in
            tuple.withMemoryRebound(to: SLayerBSInfo.self, capacity: Int(MAX_LAYER_NUM_OF_FRAME)) { layers in
                var stream: [UInt8] = []
                for layer in UnsafeBufferPointer(start: layers, count: count) {
                    guard let base = layer.pBsBuf, let lengths = layer.pNalLengthInByte, layer.iNalCount > 0 else { continue }
                    let size = UnsafeBufferPointer(start: lengths, count: Int(layer.iNalCount)).reduce(0) { $0 + Int(max(0, $1)) }
                    stream.append(contentsOf: UnsafeBufferPointer(start: base, count: size))
                }
                return stream
            }
        }
    }
}

/// The error messages OpenH264 logged, oldest first (its trace callback may run on its slice
/// threads): the first says what was wrong, the later ones where it surfaced.
private final class ErrorLog: Sendable {
    private let messages = Mutex<[String]>([])
    func record(_ text: String) {
        // "[OpenH264] this = 0x…, Error:" prefixes every message.
        var message = Substring(text)
        if let start = message.firstRange(of: "Error:") { message = message[start.upperBound...] }
        let trimmed = String(message.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        messages.withLock { if $0.count < 8 { $0.append(trimmed) } }
    }
    var summary: String? { messages.withLock { $0.isEmpty ? nil : $0.joined(separator: "; ") } }
}
