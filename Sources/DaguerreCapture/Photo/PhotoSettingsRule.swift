// The rules a photo request must keep (SPEC P6, R3, P10, L6, V3, P9): the seeds' and Apple's
// documented exceptions of AVCapturePhotoOutput's capturePhoto, each a typed error that names
// the rule. They are checked in the order declared here, and the first broken one is reported;
// a refused request captures nothing, writes nothing and leaves the session running.
import DaguerreCore
import DaguerreMovie
import Foundation

/// One rule of ``PhotoOutput/capturePhoto(with:delegate:)``; its ``rawValue`` is the name the
/// error carries (`DaguerreError.photoSettings(rule:problem:fix:)`).
///
/// ```swift
/// do { try photoOutput.capturePhoto(with: settings, delegate: self) }
/// catch .photoSettings(let rule, _, _) where rule == PhotoSettingsRule.rawNoStabilization.rawValue { ... }
/// ```
public enum PhotoSettingsRule: String, Sendable, CaseIterable {
    /// The output is in a running session, with an enabled video connection.
    case activeConnection = "active-connection"
    /// A settings value (its ``PhotoSettings/uniqueID``) is used for one capture only (P5).
    case uniqueSettings = "unique-settings"
    /// A processed format names exactly one of a codec and a pixel format.
    case formatOneOf = "format-one-of"
    /// The processed format is one of ``PhotoOutput/availablePhotoCodecTypes`` or
    /// ``PhotoOutput/availablePhotoPixelFormatTypes``.
    case formatAvailable = "format-available"
    /// The RAW format is one of ``PhotoOutput/availableRawPhotoPixelFormatTypes`` (R2: the back
    /// camera with the photo preset).
    case rawFormatAvailable = "raw-format-available"
    /// RAW settings have still-image stabilization off (R3, R4).
    case rawNoStabilization = "raw-no-sis"
    /// RAW-only settings have high resolution off: it would mean nothing (R3).
    case rawNoHighResolution = "raw-no-high-resolution"
    /// The flash mode is one of ``PhotoOutput/supportedFlashModes``.
    case flashModeSupported = "flash-mode-supported"
    /// Still-image stabilization is asked for only where ``PhotoOutput/isStillImageStabilizationSupported``.
    case stabilizationSupported = "sis-supported"
    /// High resolution needs the output's ``PhotoOutput/isHighResolutionCaptureEnabled`` (C5).
    case highResolutionOptIn = "high-resolution-opt-in"
    /// A bracket has 1 ... ``PhotoOutput/maxBracketedCapturePhotoCount`` images (P10).
    case bracketCount = "bracket-count"
    /// A bracket's images are all auto-exposure or all manual.
    case bracketSameKind = "bracket-same-kind"
    /// Biases, durations and ISOs within the device's ranges.
    case bracketExposureRange = "bracket-exposure-range"
    /// Brackets are taken without flash.
    case bracketNoFlash = "bracket-no-flash"
    /// Brackets are taken without still-image stabilization.
    case bracketNoStabilization = "bracket-no-sis"
    /// Lens stabilization during a bracket only where
    /// ``PhotoOutput/isLensStabilizationDuringBracketedCaptureSupported``.
    case bracketLensStabilization = "bracket-lens-stabilization"
    /// A Live Photo needs the output's ``PhotoOutput/isLivePhotoCaptureEnabled`` (L5).
    case livePhotoOptIn = "live-photo-opt-in"
    /// No Live Photo while ``PhotoOutput/isLivePhotoCaptureSuspended``.
    case livePhotoSuspended = "live-photo-suspended"
    /// A Live Photo is a processed photo, not RAW, and not a bracket.
    case livePhotoKind = "live-photo-kind"
    /// The movie URL is a file URL in a writable directory, where no file exists yet (L6).
    case livePhotoURLWritable = "live-photo-url-writable"
    /// The movie metadata has no content identifier item: the output writes its own (L3).
    case livePhotoMetadata = "live-photo-metadata"
    /// The preview's pixel format is one of the settings' ``PhotoSettings/availablePreviewPhotoPixelFormatTypes``,
    /// and its box, if any, has a positive width and height (V2, V3).
    case previewFormat = "preview-format"
    /// The delegate has the callbacks the settings make required (P9): ``PhotoProcessingDelegate``
    /// for a processed photo, ``RawPhotoProcessingDelegate`` for RAW,
    /// ``LivePhotoMovieProcessingDelegate`` for a Live Photo.
    case delegateCallbacks = "delegate-callback"

    /// The error for a broken rule.
    func error(_ problem: String, fix: String) -> DaguerreError {
        .photoSettings(rule: rawValue, problem: problem, fix: fix)
    }
}

/// What the rules look at: the output's state and capabilities at the moment of the request.
struct PhotoRuleContext: Sendable {
    var hasActiveConnection: Bool
    var usedIDs: Set<Int64>
    var photoPixelFormatTypes: [PixelFormatType]
    var photoCodecTypes: [PhotoCodec]
    var rawPixelFormatTypes: [PixelFormatType]
    var supportedFlashModes: [FlashMode]
    var isStillImageStabilizationSupported: Bool
    var isHighResolutionCaptureEnabled: Bool
    var maxBracketedCapturePhotoCount: Int
    var isoRange: ClosedRange<Double>
    var exposureDurationRange: ClosedRange<Double>
    var exposureTargetBiasRange: ClosedRange<Double>
    var isLensStabilizationDuringBracketedCaptureSupported: Bool
    var isLivePhotoCaptureEnabled: Bool
    var isLivePhotoCaptureSuspended: Bool
}

/// The delegate's shape, as far as the rules care.
struct DelegateCallbacks: Sendable, Hashable {
    var processed: Bool
    var raw: Bool
    var livePhotoMovie: Bool

    init(processed: Bool, raw: Bool, livePhotoMovie: Bool) {
        self.processed = processed
        self.raw = raw
        self.livePhotoMovie = livePhotoMovie
    }

    init(_ delegate: any PhotoCaptureDelegate) {
        processed = delegate is any PhotoProcessingDelegate
        raw = delegate is any RawPhotoProcessingDelegate
        livePhotoMovie = delegate is any LivePhotoMovieProcessingDelegate
    }

    /// Without the delegate (preparing resources): every callback counts as present.
    static let all = DelegateCallbacks(processed: true, raw: true, livePhotoMovie: true)
}

enum PhotoSettingsRules {
    /// Checks `settings` (and `bracket`, for a bracket request) in rule order; throws the first
    /// broken rule's error.
    static func check(
        _ settings: PhotoSettings, bracket: PhotoBracketSettings?, delegate: DelegateCallbacks, context c: PhotoRuleContext,
        checkConnection: Bool = true, checkUnique: Bool = true
    ) throws(DaguerreError) {
        if checkConnection, !c.hasActiveConnection {
            throw PhotoSettingsRule.activeConnection.error(
                "the PhotoOutput has no active, enabled video connection (it is not in a running session with a camera)",
                fix: "Add the output and a camera input to a session, and call startRunning() before capturePhoto.")
        }
        if checkUnique, c.usedIDs.contains(settings.uniqueID) {
            throw PhotoSettingsRule.uniqueSettings.error(
                "settings \(settings.uniqueID) were already used for a capture (each settings value is for one capture)",
                fix: "Make new settings for each capture: PhotoSettings(from: old) copies them with a new uniqueID.")
        }
        if let format = settings.format {
            let codec = format[.videoCodec]
            let pixel = format[.pixelFormatType]
            if (codec == nil) == (pixel == nil) || format.count != 1 {
                throw PhotoSettingsRule.formatOneOf.error(
                    "the format dictionary \(describe(format)) must name exactly one of a codec (.videoCodec) and a pixel format (.pixelFormatType)",
                    fix: "Use [.videoCodec: .jpeg] or [.pixelFormatType: .bgra] (or .yuv420FullRange, .yuv420VideoRange).")
            }
            // A value under the other kind's key (a pixel format as the codec) is not available either.
            let available: Bool
            switch (codec, pixel) {
            case (.codec(let k)?, nil): available = c.photoCodecTypes.contains(k)
            case (nil, .pixelFormat(let p)?): available = c.photoPixelFormatTypes.contains(p)
            default: available = false
            }
            if !available {
                throw PhotoSettingsRule.formatAvailable.error(
                    "the format \(describe(format)) is not one the output offers now (codecs \(c.photoCodecTypes.map(\.rawValue)), pixel formats \(c.photoPixelFormatTypes.map(\.fourCC)))",
                    fix: "Choose from availablePhotoCodecTypes or availablePhotoPixelFormatTypes.")
            }
        } else if settings.rawPixelFormatType == nil {
            throw PhotoSettingsRule.formatOneOf.error(
                "the settings ask for neither a processed photo nor a RAW one", fix: "Give a format, a RAW format, or both.")
        }
        if let raw = settings.rawPixelFormatType {
            if !c.rawPixelFormatTypes.contains(raw) {
                throw PhotoSettingsRule.rawFormatAvailable.error(
                    c.rawPixelFormatTypes.isEmpty
                        ? "RAW (\(raw.fourCC)) was asked for, and the output offers no RAW format now (RAW needs the back camera and the photo preset, SPEC R2)"
                        : "the RAW format \(raw.fourCC) is not one of \(c.rawPixelFormatTypes.map(\.fourCC))",
                    fix: "Use availableRawPhotoPixelFormatTypes.first with the back camera and the photo preset.")
            }
            if settings.isAutoStillImageStabilizationEnabled {
                throw PhotoSettingsRule.rawNoStabilization.error(
                    "RAW settings have isAutoStillImageStabilizationEnabled on, and a RAW photo is one exposure (SPEC R3, R4)",
                    fix: "Leave isAutoStillImageStabilizationEnabled false with RAW (PhotoSettings(rawPixelFormatType:) does).")
            }
            if settings.format == nil, settings.isHighResolutionPhotoEnabled {
                throw PhotoSettingsRule.rawNoHighResolution.error(
                    "RAW-only settings have isHighResolutionPhotoEnabled on, which means nothing for RAW (SPEC R3)",
                    fix: "Turn isHighResolutionPhotoEnabled off, or add a processed format: it applies to the processed photo.")
            }
        }
        if !c.supportedFlashModes.contains(settings.flashMode) {
            throw PhotoSettingsRule.flashModeSupported.error(
                "flash mode \(settings.flashMode) is not one of supportedFlashModes \(c.supportedFlashModes.map(\.rawValue))",
                fix: "Choose a flash mode from supportedFlashModes (a camera without flash supports only .off).")
        }
        if settings.isAutoStillImageStabilizationEnabled, !c.isStillImageStabilizationSupported {
            throw PhotoSettingsRule.stabilizationSupported.error(
                "isAutoStillImageStabilizationEnabled is on, and still-image stabilization is not supported now",
                fix: "Check isStillImageStabilizationSupported first.")
        }
        if settings.isHighResolutionPhotoEnabled, !c.isHighResolutionCaptureEnabled {
            throw PhotoSettingsRule.highResolutionOptIn.error(
                "isHighResolutionPhotoEnabled is on, and the output's isHighResolutionCaptureEnabled is off (SPEC C5)",
                fix: "Call setHighResolutionCaptureEnabled(true) before startRunning.")
        }
        if let bracket {
            try checkBracket(bracket, settings: settings, context: c)
        }
        if settings.isLivePhoto {
            try checkLivePhoto(settings: settings, bracket: bracket, context: c)
        }
        if let preview = settings.previewPhotoFormat {
            if !settings.availablePreviewPhotoPixelFormatTypes.contains(preview.pixelFormatType) {
                throw PhotoSettingsRule.previewFormat.error(
                    "the preview format \(preview.pixelFormatType.fourCC) is not one of \(settings.availablePreviewPhotoPixelFormatTypes.map(\.fourCC))",
                    fix: "Use settings.availablePreviewPhotoPixelFormatTypes.first.")
            }
            let w = preview.width
            let h = preview.height
            if (w == nil) != (h == nil) || (w.map { $0 <= 0 || $0 > 16384 } ?? false) || (h.map { $0 <= 0 || $0 > 16384 } ?? false) {
                throw PhotoSettingsRule.previewFormat.error(
                    "the preview box \(w.map(String.init) ?? "nil")×\(h.map(String.init) ?? "nil") must give both a width and a height in 1...16384, or neither",
                    fix: "Give both, such as width: 160, height: 160, or leave both nil for the output's default.")
            }
        }
        let wantsProcessed = settings.format != nil
        if wantsProcessed, !delegate.processed {
            throw PhotoSettingsRule.delegateCallbacks.error(
                "the settings ask for a processed photo, and the delegate does not take processed photos (SPEC P9)",
                fix: "Make the delegate a PhotoProcessingDelegate.")
        }
        if settings.rawPixelFormatType != nil, !delegate.raw {
            throw PhotoSettingsRule.delegateCallbacks.error(
                "the settings ask for a RAW photo, and the delegate does not take RAW photos (SPEC P9)",
                fix: "Make the delegate a RawPhotoProcessingDelegate.")
        }
        if settings.isLivePhoto, !delegate.livePhotoMovie {
            throw PhotoSettingsRule.delegateCallbacks.error(
                "the settings ask for a Live Photo, and the delegate does not take Live Photo movies (SPEC P9)",
                fix: "Make the delegate a LivePhotoMovieProcessingDelegate.")
        }
    }

    private static func checkBracket(_ bracket: PhotoBracketSettings, settings: PhotoSettings, context c: PhotoRuleContext)
        throws(DaguerreError)
    {
        let n = bracket.bracketedSettings.count
        if n < 1 || n > c.maxBracketedCapturePhotoCount {
            throw PhotoSettingsRule.bracketCount.error(
                "the bracket has \(n) images, and the output takes 1...\(c.maxBracketedCapturePhotoCount)",
                fix: "Use at most maxBracketedCapturePhotoCount bracketed settings.")
        }
        let autoCount = bracket.bracketedSettings.filter {
            if case .autoExposure = $0 { true } else { false }
        }.count
        if autoCount != 0, autoCount != n {
            throw PhotoSettingsRule.bracketSameKind.error(
                "the bracket mixes auto-exposure and manual images", fix: "Make every image .autoExposure, or every image .manualExposure.")
        }
        for item in bracket.bracketedSettings {
            switch item {
            case .autoExposure(let bias):
                if !bias.isFinite || !c.exposureTargetBiasRange.contains(bias) {
                    throw PhotoSettingsRule.bracketExposureRange.error(
                        "the bias \(bias) EV is outside \(c.exposureTargetBiasRange)", fix: "Give biases within the device's range.")
                }
            case .manualExposure(let duration, let iso):
                if !duration.isFinite || !c.exposureDurationRange.contains(duration) {
                    throw PhotoSettingsRule.bracketExposureRange.error(
                        "the duration \(duration) s is outside \(c.exposureDurationRange) s",
                        fix: "Give durations within the device's range.")
                }
                if !iso.isFinite || !c.isoRange.contains(iso) {
                    throw PhotoSettingsRule.bracketExposureRange.error(
                        "ISO \(iso) is outside \(c.isoRange)", fix: "Give ISOs within the device's range.")
                }
            }
        }
        if settings.flashMode != .off {
            throw PhotoSettingsRule.bracketNoFlash.error(
                "the bracket has flash mode \(settings.flashMode)", fix: "Set flashMode to .off for brackets.")
        }
        if settings.isAutoStillImageStabilizationEnabled {
            throw PhotoSettingsRule.bracketNoStabilization.error(
                "the bracket has isAutoStillImageStabilizationEnabled on", fix: "Turn still-image stabilization off for brackets.")
        }
        if bracket.isLensStabilizationEnabled, !c.isLensStabilizationDuringBracketedCaptureSupported {
            throw PhotoSettingsRule.bracketLensStabilization.error(
                "isLensStabilizationEnabled is on, and the camera cannot stabilize its lens during a bracket",
                fix: "Check isLensStabilizationDuringBracketedCaptureSupported first.")
        }
    }

    private static func checkLivePhoto(settings: PhotoSettings, bracket: PhotoBracketSettings?, context c: PhotoRuleContext)
        throws(DaguerreError)
    {
        if !c.isLivePhotoCaptureEnabled {
            throw PhotoSettingsRule.livePhotoOptIn.error(
                "the settings name a Live Photo movie, and the output's isLivePhotoCaptureEnabled is off (SPEC L5)",
                fix: "Call setLivePhotoCaptureEnabled(true) before startRunning, with the photo preset.")
        }
        if c.isLivePhotoCaptureSuspended {
            throw PhotoSettingsRule.livePhotoSuspended.error(
                "Live Photo capture is suspended (isLivePhotoCaptureSuspended)",
                fix: "Set isLivePhotoCaptureSuspended to false, or capture a still photo.")
        }
        if settings.motionPhotoFileURL != nil, settings.processedFormat != .codec(.jpeg) {
            throw PhotoSettingsRule.livePhotoKind.error(
                "a Motion Photo was asked for with a photo that is not a JPEG",
                fix: "Keep the default JPEG format (format: [.videoCodec: .jpeg]) for a Motion Photo.")
        }
        if settings.rawPixelFormatType != nil || settings.format == nil || bracket != nil {
            throw PhotoSettingsRule.livePhotoKind.error(
                "a Live Photo was asked for with \(bracket != nil ? "a bracket" : "RAW")",
                fix: "Capture Live Photos with a processed format only (the default JPEG).")
        }
        let url = settings.livePhotoMovieFileURL
        for (what, target) in [("Live Photo movie", url), ("Motion Photo", settings.motionPhotoFileURL)] {
            guard let target else { continue }
            var isDirectory: ObjCBool = false
            let directory = target.deletingLastPathComponent().path
            if !target.isFileURL || target.path.hasSuffix("/") || FileManager.default.fileExists(atPath: target.path)
                || !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue
                || !FileManager.default.isWritableFile(atPath: directory) || (what == "Motion Photo" && target == url)
            {
                throw PhotoSettingsRule.livePhotoURLWritable.error(
                    "the \(what) URL \(target.absoluteString) is not a new file in a writable directory",
                    fix:
                        "Give a file URL of a file that does not exist yet, in an existing, writable directory (the Motion Photo apart from the movie)."
                )
            }
        }
        if settings.livePhotoMovieMetadata.contains(where: { $0.key == MetadataKey.contentIdentifier.rawValue }) {
            throw PhotoSettingsRule.livePhotoMetadata.error(
                "the Live Photo movie metadata holds a content identifier item, which the output writes itself (SPEC L3)",
                fix: "Remove the com.apple.quicktime.content.identifier item.")
        }
    }

    private static func describe(_ format: [PhotoFormatKey: PhotoFormatValue]) -> String {
        format.isEmpty ? "[:]" : "[" + format.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ") + "]"
    }
}
