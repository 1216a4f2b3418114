// Bracketed capture (SPEC P10, P11): one request for several differently exposed images, each
// delivered by its own photo callback that names its bracket.
import DaguerreCore

/// One image of a bracket (the seeds' AVCaptureBracketedStillImageSettings): an auto-exposure
/// bias, or a manual duration and ISO.
///
/// ```swift
/// let biases = [-2.0, 0, 2].map { BracketedStillImageSettings.autoExposure(exposureTargetBias: $0) }
/// let manual = BracketedStillImageSettings.manualExposure(duration: 1.0 / 60, iso: 400)
/// ```
public enum BracketedStillImageSettings: Sendable, Hashable, CustomStringConvertible {
    /// The automatic exposure moved by `exposureTargetBias` stops.
    case autoExposure(exposureTargetBias: Double)
    /// This duration (seconds) and ISO.
    case manualExposure(duration: Double, iso: Double)

    public var description: String {
        switch self {
        case .autoExposure(let bias): String(format: "AE %+.1f EV", bias)
        case .manualExposure(let d, let iso): "1/\(Int((1 / d).rounded())) s ISO \(Int(iso.rounded()))"
        }
    }
}

/// A bracket request (the seeds' AVCapturePhotoBracketSettings): photo settings and the bracket's
/// images; ``PhotoSettings/uniqueID`` and the single-use rule are those of ``settings``.
///
/// ```swift
/// let bracket = PhotoBracketSettings(rawPixelFormatType: nil, processedFormat: [.videoCodec: .jpeg],
///     bracketedSettings: [-2, 0, 2].map { .autoExposure(exposureTargetBias: $0) })
/// photoOutput.capturePhoto(with: bracket, delegate: self)
/// ```
public struct PhotoBracketSettings: Sendable {
    public var settings: PhotoSettings
    public let bracketedSettings: [BracketedStillImageSettings]
    /// Optical stabilization while the bracket is exposed, where the device supports it.
    public var isLensStabilizationEnabled = false

    /// `processedFormat` and/or `rawPixelFormatType` for every image of the bracket (P11).
    public init(
        rawPixelFormatType: PixelFormatType?, processedFormat: [PhotoFormatKey: PhotoFormatValue]?,
        bracketedSettings: [BracketedStillImageSettings]
    ) {
        if let rawPixelFormatType {
            settings = PhotoSettings(rawPixelFormatType: rawPixelFormatType, processedFormat: processedFormat)
        } else {
            settings = PhotoSettings(format: processedFormat ?? [.videoCodec: .jpeg])
        }
        settings.isAutoStillImageStabilizationEnabled = false
        self.bracketedSettings = bracketedSettings
    }

    public var uniqueID: Int64 { settings.uniqueID }
}
