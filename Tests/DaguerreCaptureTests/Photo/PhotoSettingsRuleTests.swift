import DaguerreCore
import DaguerreMovie
import Foundation
import PropertyBased
import Testing

@testable import DaguerreCapture

/// The photo settings rules (SPEC P6 and Apple's documented exceptions of capturePhoto), drawn
/// at random: every draw is a settings value (or a bracket) with a delegate, against a random
/// configuration of the output (what its camera, format, preset and opt-ins make available).
/// The table below, written from the seeds and Apple's documentation independently of the
/// output's code, says which rule the draw breaks first, in the documented order; the output
/// must refuse exactly then, naming that rule, and accept otherwise.
@Suite("PhotoOutput: settings rules", .hangGuard)
struct PhotoSettingsRuleTests {
    /// One random draw: a configuration, settings, maybe a bracket, and a delegate.
    struct Draw: Sendable, CustomStringConvertible {
        var context: PhotoRuleContext
        var settings: PhotoSettings
        var bracket: PhotoBracketSettings?
        var delegate: DelegateCallbacks

        var description: String {
            "settings(format: \(settings.format.map { "\($0)" } ?? "nil"), raw: \(settings.rawPixelFormatType?.fourCC ?? "nil"), flash: \(settings.flashMode), sis: \(settings.isAutoStillImageStabilizationEnabled), highRes: \(settings.isHighResolutionPhotoEnabled), preview: \(settings.previewPhotoFormat.map { "\($0)" } ?? "nil"), live: \(settings.livePhotoMovieFileURL?.path ?? "nil")) bracket: \(bracket.map { "\($0.bracketedSettings) lens \($0.isLensStabilizationEnabled)" } ?? "nil") delegate: \(delegate) context: \(context)"
        }
    }

    /// Places a Live Photo URL may point at: a new file in a writable folder, a file that
    /// exists, a folder that does not, a remote URL. One folder for every run (a static is
    /// never released, so a folder per run would stay behind each time).
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("daguerre-rules")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for gone in ["new.mov", "missing"] { try? FileManager.default.removeItem(at: url.appendingPathComponent(gone)) }
        _ = FileManager.default.createFile(atPath: url.appendingPathComponent("exists.mov").path, contents: Data([0]))
        return url
    }()
    static let movieURLs: [URL] = [
        folder.appendingPathComponent("new.mov"), folder.appendingPathComponent("exists.mov"),
        folder.appendingPathComponent("missing/new.mov"), URL(string: "https://example.com/live.mov")!,
    ]

    /// A draw from 60 random numbers (each in 0...999); shrinking moves them towards 0, which
    /// means fewer features and the first choice of each.
    static func draw(_ n: [Int]) -> Draw {
        var i = 0
        // A long draw (a five-image bracket) reads past the numbers given: it starts over.
        func next(_ count: Int) -> Int {
            defer { i += 1 }
            return n[i % n.count] % count
        }
        func chance(_ percent: Int) -> Bool { next(100) < percent }
        let pixelAll: [PixelFormatType] = [.yuv420VideoRange, .yuv420FullRange, .bgra]
        let rawAll: [PixelFormatType] = [.bayer(.rggb), .bayer(.grbg)]
        let context = PhotoRuleContext(
            hasActiveConnection: chance(92), usedIDs: [],
            photoPixelFormatTypes: pixelAll.filter { _ in chance(85) }, photoCodecTypes: chance(90) ? [.jpeg] : [],
            rawPixelFormatTypes: chance(60) ? [rawAll[next(2)]] : [], supportedFlashModes: chance(70) ? [.off, .on, .auto] : [.off],
            isStillImageStabilizationSupported: chance(80), isHighResolutionCaptureEnabled: chance(50),
            maxBracketedCapturePhotoCount: chance(85) ? 3 : next(5),
            isoRange: 25...800, exposureDurationRange: (1.0 / 8000)...1, exposureTargetBiasRange: -8...8,
            isLensStabilizationDuringBracketedCaptureSupported: chance(50), isLivePhotoCaptureEnabled: chance(50),
            isLivePhotoCaptureSuspended: chance(20))
        // The processed format: usually one valid entry, sometimes both kinds, none, or an empty dictionary.
        let formats: [[PhotoFormatKey: PhotoFormatValue]?] = [
            [.videoCodec: .jpeg], [.pixelFormatType: .bgra], [.pixelFormatType: .yuv420FullRange], [.pixelFormatType: .yuv420VideoRange],
            nil, [.videoCodec: .jpeg, .pixelFormatType: .bgra], [:], [.videoCodec: .pixelFormat(.bgra)],
        ]
        let format = formats[chance(75) ? next(4) : 4 + next(4)]
        let raw: PixelFormatType? = chance(35) ? rawAll[next(2)] : nil
        var settings: PhotoSettings
        if let raw {
            settings = PhotoSettings(rawPixelFormatType: raw, processedFormat: format)
        } else {
            // Without RAW, a missing format is an empty dictionary (the API cannot make neither).
            settings = PhotoSettings(format: format ?? [:])
        }
        settings.flashMode = FlashMode.allCases[next(3)]
        settings.isAutoStillImageStabilizationEnabled = chance(40)
        settings.isHighResolutionPhotoEnabled = chance(25)
        if chance(35) {
            let pixel = pixelAll[next(3)]
            let boxes: [(Int?, Int?)] = [(nil, nil), (160, 160), (320, 240), (nil, 100), (0, 100), (20000, 100)]
            let box = boxes[chance(80) ? next(3) : 3 + next(3)]
            settings.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: pixel, width: box.0, height: box.1)
        }
        if chance(15) {
            settings.livePhotoMovieFileURL = movieURLs[chance(70) ? 0 : next(4)]
            if chance(20) { settings.livePhotoMovieMetadata = [MetadataItem(key: .contentIdentifier, value: "mine")] }
        }
        var bracket: PhotoBracketSettings?
        if chance(25) {
            let count = chance(85) ? 1 + next(3) : next(6)
            let manual = chance(40)
            let items: [BracketedStillImageSettings] = (0..<count).map { k in
                let mixed = chance(8) ? !manual : manual
                if mixed {
                    let duration = chance(90) ? [1.0 / 30, 1.0 / 250, 0.5][next(3)] : [2.0, 0][next(2)]
                    let iso = chance(90) ? [50.0, 400, 800][next(3)] : [10.0, 3200][next(2)]
                    return .manualExposure(duration: duration, iso: iso)
                }
                let bias = chance(92) ? Double(k) - 1 : [9.0, -12, .nan][next(3)]
                return .autoExposure(exposureTargetBias: bias)
            }
            var b = PhotoBracketSettings(
                rawPixelFormatType: raw, processedFormat: raw == nil ? (format ?? [:]) : format, bracketedSettings: items)
            var s = b.settings
            s.flashMode = settings.flashMode
            s.isAutoStillImageStabilizationEnabled = settings.isAutoStillImageStabilizationEnabled
            s.isHighResolutionPhotoEnabled = settings.isHighResolutionPhotoEnabled
            s.previewPhotoFormat = settings.previewPhotoFormat
            s.livePhotoMovieFileURL = settings.livePhotoMovieFileURL
            s.livePhotoMovieMetadata = settings.livePhotoMovieMetadata
            b.settings = s
            b.isLensStabilizationEnabled = chance(30)
            bracket = b
            settings = s
        }
        var ctx = context
        if chance(5) { ctx.usedIDs = [settings.uniqueID] }
        let delegate = DelegateCallbacks(processed: chance(90), raw: chance(80), livePhotoMovie: chance(80))
        return Draw(context: ctx, settings: settings, bracket: bracket, delegate: delegate)
    }

    // MARK: The rule table

    /// The first rule `d` breaks, from the seeds (session 501: "RAW is not supported with
    /// still-image stabilization or high resolution", "the format must be one of the
    /// available ones", "flash mode must be one of supportedFlashModes", "settings may not be
    /// reused", brackets up to maxBracketedCapturePhotoCount, Live Photos need the opt-in) and
    /// Apple's documented exceptions of -capturePhotoWithSettings:delegate:, in that order.
    static func expectedRule(_ d: Draw) -> PhotoSettingsRule? {
        let s = d.settings
        let c = d.context
        if !c.hasActiveConnection { return .activeConnection }
        if c.usedIDs.contains(s.uniqueID) { return .uniqueSettings }
        if let f = s.format {
            let codec = f[.videoCodec]
            let pixel = f[.pixelFormatType]
            guard f.count == 1, (codec == nil) != (pixel == nil) else { return .formatOneOf }
            switch codec ?? pixel! {
            case .codec(let k): if !c.photoCodecTypes.contains(k) || pixel != nil { return .formatAvailable }
            case .pixelFormat(let p): if !c.photoPixelFormatTypes.contains(p) || codec != nil { return .formatAvailable }
            }
        } else if s.rawPixelFormatType == nil {
            return .formatOneOf
        }
        if let raw = s.rawPixelFormatType {
            if !c.rawPixelFormatTypes.contains(raw) { return .rawFormatAvailable }
            if s.isAutoStillImageStabilizationEnabled { return .rawNoStabilization }
            if s.format == nil && s.isHighResolutionPhotoEnabled { return .rawNoHighResolution }
        }
        if !c.supportedFlashModes.contains(s.flashMode) { return .flashModeSupported }
        if s.isAutoStillImageStabilizationEnabled && !c.isStillImageStabilizationSupported { return .stabilizationSupported }
        if s.isHighResolutionPhotoEnabled && !c.isHighResolutionCaptureEnabled { return .highResolutionOptIn }
        if let b = d.bracket {
            let items = b.bracketedSettings
            if items.isEmpty || items.count > c.maxBracketedCapturePhotoCount { return .bracketCount }
            let autos = items.filter { if case .autoExposure = $0 { true } else { false } }.count
            if autos != 0 && autos != items.count { return .bracketSameKind }
            for item in items {
                switch item {
                case .autoExposure(let bias): if !(bias >= -8 && bias <= 8) { return .bracketExposureRange }
                case .manualExposure(let duration, let iso):
                    if !(duration >= 1.0 / 8000 && duration <= 1) || !(iso >= 25 && iso <= 800) { return .bracketExposureRange }
                }
            }
            if s.flashMode != .off { return .bracketNoFlash }
            if s.isAutoStillImageStabilizationEnabled { return .bracketNoStabilization }
            if b.isLensStabilizationEnabled && !c.isLensStabilizationDuringBracketedCaptureSupported { return .bracketLensStabilization }
        }
        if let url = s.livePhotoMovieFileURL {
            if !c.isLivePhotoCaptureEnabled { return .livePhotoOptIn }
            if c.isLivePhotoCaptureSuspended { return .livePhotoSuspended }
            if s.rawPixelFormatType != nil || s.format == nil || d.bracket != nil { return .livePhotoKind }
            if url != movieURLs[0] { return .livePhotoURLWritable }
            if !s.livePhotoMovieMetadata.isEmpty { return .livePhotoMetadata }
        }
        if let p = s.previewPhotoFormat {
            let allowed: [PixelFormatType] = [.bgra, .yuv420FullRange, .yuv420VideoRange]
            if !allowed.contains(p.pixelFormatType) { return .previewFormat }
            let ok = { (v: Int?) in v.map { $0 >= 1 && $0 <= 16384 } ?? true }
            if (p.width == nil) != (p.height == nil) || !ok(p.width) || !ok(p.height) { return .previewFormat }
        }
        if s.format != nil && !d.delegate.processed { return .delegateCallbacks }
        if s.rawPixelFormatType != nil && !d.delegate.raw { return .delegateCallbacks }
        if s.livePhotoMovieFileURL != nil && !d.delegate.livePhotoMovie { return .delegateCallbacks }
        return nil
    }

    @Test("10 000 random settings against random configurations: accepted or refused exactly as the rule table says, by the named rule")
    func randomDraws() async {
        let counts = Locked<[String: Int]>([:])
        await propertyCheck(count: 10_000, input: Gen.int(in: 0...999).array(of: 60)) { numbers in
            let d = Self.draw(numbers)
            let expected = Self.expectedRule(d)
            var got: String?
            do throws(DaguerreError) {
                try PhotoSettingsRules.check(d.settings, bracket: d.bracket, delegate: d.delegate, context: d.context)
            } catch {
                if case .photoSettings(let rule, let problem, let fix) = error {
                    got = rule
                    #expect(!problem.isEmpty && !fix.isEmpty)
                } else {
                    got = "not a rule: \(error)"
                }
            }
            #expect(got == expected?.rawValue, "\(d)")
            let key = got ?? "accepted"
            counts.mutate { $0[key, default: 0] += 1 }
        }
        // The draws reach every rule, and acceptance.
        let seen = counts.value
        print("rules: 10 000 draws: \(seen.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        for rule in PhotoSettingsRule.allCases { #expect(seen[rule.rawValue, default: 0] > 0, "no draw broke \(rule.rawValue): \(seen)") }
        #expect(seen["accepted", default: 0] > 500, "\(seen)")
    }
}
