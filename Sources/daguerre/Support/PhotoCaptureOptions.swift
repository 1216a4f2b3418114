// The photo options of `daguerre capture` (SPEC P3–P5, P10, V1–V3), checked before the command
// runs so that a bad value is a usage error saying what to give instead, and turned into the
// PhotoOutput's settings, one fresh value per request.
import ArgumentParser
import Daguerre
import Foundation

/// What each photo asks for: format, RAW, flash, stabilization, preview, brackets.
///
/// ```swift
/// @OptionGroup var photo: PhotoCaptureOptions
/// let request = try photo.request(for: photoOutput)
/// ```
struct PhotoCaptureOptions: ParsableArguments {
    @Option(help: "The processed photo's format: jpeg, bgra, 420f or 420v (uncompressed photos are written as PNG).")
    var format: String?
    @Option(help: "The flash: auto, on or off.") var flash = "off"
    @Flag(help: "Automatic still-image stabilization: in low light a burst is fused into one photo.") var sis = false
    @Flag(help: "A RAW photo only, written as DNG (back camera).") var raw = false
    @Flag(name: .customLong("raw-plus"), help: "A RAW photo (DNG) and a processed one (--format) from the same exposure.")
    var rawPlus = false
    @Option(
        parsing: .unconditional,
        help: "An auto-exposure bracket: the exposure biases in EV, comma-separated, e.g. -2,0,+2.")
    var bracket: String?
    @Option(
        name: .customLong("manual-bracket"), parsing: .unconditional,
        help: "A manual bracket: DURATION@ISO, comma-separated, e.g. 1/30@400,1/125@100 (durations in seconds or as 1/N).")
    var manualBracket: String?
    @Option(help: "A preview (thumbnail) fitted into WxH with its aspect kept, e.g. 160x160.") var preview: String?
    @Flag(name: .customLong("high-resolution"), help: "A still larger than the stream where the camera has one (front: 5 MP).")
    var highResolution = false
    @Flag(help: "A Live Photo: the JPEG and a movie from 1.5 s before it to 1.5 s after (photo-N.jpg and photo-N.mov, paired).")
    var live = false
    @Flag(
        name: .customLong("motion-photo"),
        help: "A Live Photo as one Google Motion Photo, photo-N.MP.jpg: with --live beside the pair, alone instead of it.")
    var motionPhoto = false
    @Flag(name: .customLong("no-auto-trim"), help: "With a Live Photo: keep the whole movie, even a pocket drop at its end.")
    var noAutoTrim = false
    @Option(help: "With a Live Photo: the movie's H.264 encoder, x264 (GPL-2) or openH264 (BSD-2).") var encoder = "x264"

    /// A Live Photo is asked for: the pair (`--live`), a Motion Photo, or both.
    var livePhoto: Bool { live || motionPhoto }

    /// The `--encoder` choice.
    var encoderChoice: H264EncoderChoice? { H264EncoderChoice.allCases.first { $0.rawValue.lowercased() == encoder.lowercased() } }

    /// The formats `--format` takes, with their format dictionaries.
    static let formats: [(name: String, value: PhotoFormatValue)] = [
        ("jpeg", .jpeg), ("bgra", .bgra), ("420f", .yuv420FullRange), ("420v", .yuv420VideoRange),
    ]

    func validate() throws {
        if let format, Self.format(named: format) == nil {
            throw ValidationError("--format \(format): use \(Self.formats.map(\.name).joined(separator: ", ")).")
        }
        guard FlashMode(rawValue: flash.lowercased()) != nil else {
            throw ValidationError("--flash \(flash): use \(FlashMode.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if raw && rawPlus { throw ValidationError("--raw and --raw-plus: give one (--raw-plus is RAW and a processed photo).") }
        if raw, let format {
            throw ValidationError("--raw with --format \(format): --raw is RAW only; use --raw-plus for RAW and a \(format) photo.")
        }
        if bracket != nil && manualBracket != nil { throw ValidationError("--bracket and --manual-bracket: give one bracket.") }
        if noAutoTrim && !livePhoto { throw ValidationError("--no-auto-trim goes with --live or --motion-photo.") }
        guard encoderChoice != nil else {
            throw ValidationError("--encoder \(encoder): use \(H264EncoderChoice.allCases.map(\.rawValue).joined(separator: " or ")).")
        }
        if livePhoto && (raw || rawPlus || bracket != nil || manualBracket != nil || (format.map { $0.lowercased() != "jpeg" } ?? false)) {
            throw ValidationError("A Live Photo takes a JPEG photo: drop --raw, --raw-plus, the bracket and --format.")
        }
        _ = try bracketedSettings()
        _ = try previewBox()
    }

    static func format(named name: String) -> PhotoFormatValue? {
        formats.first { $0.name == name.lowercased() }?.value
    }

    var flashMode: FlashMode { FlashMode(rawValue: flash.lowercased()) ?? .off }

    /// The bracket's images, or nil for no bracket.
    func bracketedSettings() throws -> [BracketedStillImageSettings]? {
        if let bracket {
            return try Self.items(bracket, option: "--bracket").map { word in
                guard let bias = Double(word), bias.isFinite else {
                    throw ValidationError("--bracket \(bracket): '\(word)' is not a bias in EV; give numbers such as -2,0,+2.")
                }
                return .autoExposure(exposureTargetBias: bias)
            }
        }
        if let manualBracket {
            return try Self.items(manualBracket, option: "--manual-bracket").map { word in
                let parts = word.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count == 2, let duration = Self.seconds(String(parts[0])), let iso = Double(parts[1]), iso.isFinite, iso > 0
                else {
                    throw ValidationError(
                        "--manual-bracket \(manualBracket): '\(word)' is not DURATION@ISO; give e.g. 1/30@400 or 0.01@100.")
                }
                return .manualExposure(duration: duration, iso: iso)
            }
        }
        return nil
    }

    private static func items(_ list: String, option: String) throws -> [String] {
        let words = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !words.isEmpty, !words.contains(where: \.isEmpty) else {
            throw ValidationError("\(option) \(list): give a comma-separated list without empty items.")
        }
        return words
    }

    /// "1/30" or "0.033" seconds; nil unless positive and finite.
    private static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = Double(text)
        case 2: value = Double(parts[0]).flatMap { n in Double(parts[1]).map { n / $0 } }
        default: value = nil
        }
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// The preview box, or nil for no preview.
    func previewBox() throws -> (width: Int, height: Int)? {
        guard let preview else { return nil }
        let parts = preview.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
            throw ValidationError("--preview \(preview): give WIDTHxHEIGHT with each side 1 to 16384, e.g. 160x160.")
        }
        return (w, h)
    }

    /// One request's settings, fresh (each settings value is for one capture).
    enum Request {
        case single(PhotoSettings)
        case bracket(PhotoBracketSettings)

        var settings: PhotoSettings {
            switch self {
            case .single(let s): s
            case .bracket(let b): b.settings
            }
        }
    }

    /// The settings for one request to `output` (request `number`'s Live Photo files in `folder`);
    /// throws when the camera cannot give what was asked.
    func request(for output: PhotoOutput, number: Int = 0, folder: String = ".") throws(DaguerreError) -> Request {
        let processed: [PhotoFormatKey: PhotoFormatValue]?
        if raw {
            processed = nil
        } else {
            let value = format.flatMap(Self.format(named:)) ?? .jpeg
            switch value {
            case .codec: processed = [.videoCodec: value]
            case .pixelFormat: processed = [.pixelFormatType: value]
            }
        }
        var rawFormat: PixelFormatType?
        if raw || rawPlus {
            guard let first = output.availableRawPhotoPixelFormatTypes.first else {
                throw .captureConfiguration(
                    problem: "the camera offers no RAW format (RAW comes from the back camera with the photo preset)",
                    fix: "Use --device back, or drop --raw/--raw-plus.")
            }
            rawFormat = first
        }
        var settings: PhotoSettings
        if let rawFormat {
            settings = PhotoSettings(rawPixelFormatType: rawFormat, processedFormat: processed)
        } else {
            settings = PhotoSettings(format: processed ?? [.videoCodec: .jpeg])
        }
        settings.flashMode = flashMode
        settings.isAutoStillImageStabilizationEnabled = sis
        settings.isHighResolutionPhotoEnabled = highResolution
        let base = URL(fileURLWithPath: folder).appendingPathComponent("photo-\(number)")
        if live { settings.livePhotoMovieFileURL = base.appendingPathExtension("mov") }
        if motionPhoto { settings.motionPhotoFileURL = base.appendingPathExtension("MP.jpg") }
        if let box = try? previewBox(), let type = settings.availablePreviewPhotoPixelFormatTypes.first {
            settings.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: type, width: box.width, height: box.height)
        }
        guard let items = try? bracketedSettings() else { return .single(settings) }
        var bracket = PhotoBracketSettings(rawPixelFormatType: rawFormat, processedFormat: processed, bracketedSettings: items)
        bracket.settings = settings  // flash, stabilization, resolution and preview as asked (the rules judge them)
        bracket.isLensStabilizationEnabled = output.isLensStabilizationDuringBracketedCaptureSupported
        return .bracket(bracket)
    }
}
