// RAWFilter (SPEC X1–X8, W7; CIRAWFilter with the prefix dropped): develops DNGs into a
// wide-gamut, extended-range linear image in the engine, with Core Image's RAW options. It reads
// Bayer DNGs (and other RAWs through LibRaw) and develops them through linearization, raw noise
// reduction (pipeline version 3), white balance (as shot, or by temperature and tint), a
// demosaic, the DNG colour model (matrices interpolated by temperature) and exposure. Options
// whose stages are not built yet keep their defaults; setting them throws `.unsupported` when
// the image is asked for, saying so.
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import Foundation
import Synchronization

/// Develops a RAW file.
///
/// ```swift
/// var raw = try RAWFilter(url: URL(fileURLWithPath: "IMG_0001.dng"))
/// raw.exposure = 0.5
/// raw.neutralTemperature = 5000
/// let developed = try raw.outputImage()                     // linear, extended sRGB primaries
/// try Context().writeJPEGRepresentation(of: developed, to: URL(fileURLWithPath: "IMG_0001.jpg"), colorSpace: .displayP3)
/// ```
public struct RAWFilter: Sendable {
    /// The DNG as read (mosaic, calibration, crop, metadata).
    public let dng: DNGImage
    let colorModel: CameraColorModel
    /// Where the image came from, for the engine's source digest.
    let identity: String

    /// Exposure adjustment in EV, on top of ``baselineExposure``. Default 0.
    public var exposure = 0.0
    /// The file's BaselineExposure (EV); settable, as in Core Image.
    public var baselineExposure: Double
    /// White balance as a temperature (K) and tint; defaults from the file's as-shot white.
    public var neutralTemperature: Double
    public var neutralTint: Double
    /// Raw noise reduction (X3; pipeline version 3), Core Image's range 0...1. The default 0.5
    /// reduces the noise the file describes (its DNG NoiseProfile, or an estimate made from the
    /// image when it has none) by DCT4-2S before white balance and demosaic; 0 turns noise
    /// reduction off and shows the raw noise. The method's amount is a = 2 × this value (so the
    /// default is a = 1 and 1 is a = 2): the noise σ it assumes, in units of the profile's.
    /// A noise-free file (NoiseProfile 0, 0, or a negligible estimate) is left untouched at any
    /// amount. Draft mode skips noise reduction. Pipeline versions 1 and 2 have no noise
    /// reduction: there, only the default and 0 are accepted.
    public var luminanceNoiseReductionAmount = RAWFilter.defaultLuminanceNoiseReductionAmount
    public static let defaultLuminanceNoiseReductionAmount = 0.5
    /// Colour noise reduction and the other not-yet-built stages (X3): defaults only, for now.
    public var colorNoiseReductionAmount = 0.0
    public var boostAmount = 1.0
    public var boostShadowAmount = 0.0
    public var sharpnessAmount = 0.0
    public var contrastAmount = 0.0
    public var localToneMapAmount = 0.0
    public var isLensCorrectionEnabled = false
    /// Draft mode (X7) develops with the bilinear demosaic; the scale factor is not built yet.
    public var isDraftModeEnabled = false
    public var scaleFactor = 1.0
    /// The working space the linear result is in (W7: wide gamut, extended range).
    public var workingSpace: ColorSpace = .extendedLinearSRGB

    /// The pipeline versions this build can reproduce (X5), newest last: 1 develops with the
    /// bilinear demosaic, 2 with LMMSE-GW, 3 with raw noise reduction (DCT4-2S) before LMMSE-GW.
    public static let supportedDecoderVersions = ["1", "2", "3"]
    public var decoderVersion = "3"
    /// The file's noise profile, or the estimate made once on first use (shared by copies).
    private let noise = NoiseProfileCache()

    /// Opens a RAW file: DNGs through our own reader, every other camera format through
    /// LibRaw (which only decodes; X6).
    public init(url: URL, limits: Limits = .default) throws(DaguerreError) {
        let path = url.path
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .io(operation: "read", path: path, reason: "the file does not exist or cannot be read")
        }
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let stamp = "\(path)|\((attrs?[.size] as? Int) ?? 0)|\((attrs?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        let head = (FileHandle(forReadingAtPath: path)?.readData(ofLength: 4096)).map { [UInt8]($0) } ?? []
        let tiff = head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        var dng: DNGImage?
        if tiff {
            // TIFF-based camera formats (CR2, NEF, ARW…) are not DNGs: those go to LibRaw, but a
            // .dng that our reader refuses keeps our reader's error.
            do throws(DaguerreError) { dng = try DNGReader.read(path: path, limits: limits) } catch {
                if url.pathExtension.lowercased() == "dng" { throw error }
            }
        }
        if let dng {
            try self.init(dng: dng, identity: stamp)
        } else {
            try self.init(dng: try LibRawReader.read(path: path, limits: limits), identity: "libraw|" + stamp)
        }
    }

    /// Develops a DNG already in memory (from ``DNGReader`` or a camera).
    public init(dng: DNGImage, identity: String = UUID().uuidString) throws(DaguerreError) {
        guard dng.mosaic != nil else {
            throw .unsupported(feature: "developing LinearRaw DNGs", hint: "RAWFilter develops Bayer (CFA) DNGs so far.")
        }
        self.dng = dng
        self.identity = identity
        colorModel = CameraColorModel(dng.color)
        baselineExposure = dng.color.baselineExposure
        let white = colorModel.asShotWhite
        (neutralTemperature, neutralTint) = CameraColorModel.temperatureAndTint(of: white)
    }

    /// The mosaic's size in photosites (Core Image's nativeSize).
    public var nativeSize: (width: Int, height: Int) { dng.rawSize }

    /// The photosites developed: ActiveArea, then DefaultCrop inside it (whole photosites).
    var crop: IntRect {
        let size = dng.rawSize
        let active = dng.activeArea ?? IntRect(x: 0, y: 0, width: size.width, height: size.height)
        guard let c = dng.defaultCrop, c.width >= 1, c.height >= 1 else { return active }
        let x = active.x + Int(c.x.rounded(.down)), y = active.y + Int(c.y.rounded(.down))
        let r = IntRect(x: x, y: y, width: Int(c.width.rounded(.down)), height: Int(c.height.rounded(.down)))
        return r.intersection(active).isEmpty ? active : r.intersection(active)
    }

    /// The developed image: linear light in ``workingSpace``, extended range.
    public func outputImage() throws(DaguerreError) -> Image {
        try checkUnbuiltOptions()
        guard Self.supportedDecoderVersions.contains(decoderVersion) else {
            throw .invalidArgument(what: "decoderVersion \(decoderVersion)", problem: "this build reproduces \(Self.supportedDecoderVersions.joined(separator: ", "))")
        }
        guard let mosaic = dng.mosaic else { throw .unsupported(feature: "developing LinearRaw DNGs", hint: "RAWFilter develops Bayer (CFA) DNGs so far.") }
        guard neutralTemperature.isFinite, neutralTemperature > 0, neutralTint.isFinite, exposure.isFinite, baselineExposure.isFinite else {
            throw .invalidArgument(what: "RAW white balance \(neutralTemperature) K / tint \(neutralTint), exposure \(exposure)", problem: "must be finite, temperature positive")
        }
        let white = ColorTemperature.xy(temperature: neutralTemperature, tint: neutralTint)
        let neutral = colorModel.xyzToCamera(white: white) * Primaries.xyz(white)
        let demosaic: DemosaicMethod = decoderVersion == "1" || isDraftModeEnabled ? .bilinear : .lmmseGW
        var settings = DevelopSettings(matrix: colorModel.cameraToWorking(white: white, working: workingSpace), neutral: neutral,
                                       crop: crop, workingSpace: workingSpace, demosaic: demosaic)
        var key = "raw v\(decoderVersion) \(identity) wb \(neutralTemperature)/\(neutralTint) \(workingSpace.name) \(settings.demosaic.rawValue)"
        if decoderVersion == "3", demosaic == .lmmseGW, luminanceNoiseReductionAmount > 0 {
            let profile = noiseProfile(mosaic).profile
            if profile.hasNoise {
                settings.noiseReduction = NoiseReductionSettings(profile: profile, amount: Float(2 * luminanceNoiseReductionAmount))
                key += " nr \(luminanceNoiseReductionAmount) \(profile.planes.map { "\($0.scale),\($0.offset)" })"
            }
        }
        let develop = settings
        let developed = try Image(identity: key) { () throws(DaguerreError) -> any ImageDecoder in
            try RAWDevelopDecoder(mosaic: mosaic, settings: develop)
        }
        let ev = exposure + baselineExposure
        return ev == 0 ? developed : try developed.applying(ExposureAdjust(ev: ev))
    }

    /// The noise profile noise reduction uses: the DNG's NoiseProfile when it has a usable one,
    /// else an estimate from the developed photosites (``NoiseEstimator``), made once per filter;
    /// an estimate too small to see counts as noise-free.
    func noiseProfile(_ mosaic: BayerImage) -> (profile: CFANoiseProfile, estimated: Bool) {
        noise.value.withLock { cached in
            if let cached { return cached }
            var result: (CFANoiseProfile, Bool)
            if let given = CFANoiseProfile(dng: dng.color.noiseProfile, cfaPattern: mosaic.pattern.cfaPattern) {
                result = (given, false)
            } else {
                let estimate = NoiseEstimator.estimate(mosaic, region: crop)
                result = (estimate.isNegligible() ? .noiseFree : estimate, true)
            }
            cached = result
            return result
        }
    }

    /// Options whose stages are not built yet must stay at their defaults.
    func checkUnbuiltOptions() throws(DaguerreError) {
        guard luminanceNoiseReductionAmount.isFinite, (0...1).contains(luminanceNoiseReductionAmount) else {
            throw .invalidArgument(what: "RAWFilter.luminanceNoiseReductionAmount \(luminanceNoiseReductionAmount)", problem: "must be between 0 and 1")
        }
        if decoderVersion == "1" || decoderVersion == "2",
           luminanceNoiseReductionAmount != 0, luminanceNoiseReductionAmount != Self.defaultLuminanceNoiseReductionAmount {
            throw .unsupported(feature: "RAWFilter.luminanceNoiseReductionAmount \(luminanceNoiseReductionAmount) in pipeline version \(decoderVersion)",
                               hint: "Versions 1 and 2 have no noise reduction; use decoderVersion \"3\".")
        }
        let unbuilt: [(String, Bool)] = [
            ("boostAmount", boostAmount != 1), ("boostShadowAmount", boostShadowAmount != 0),
            ("colorNoiseReductionAmount", colorNoiseReductionAmount != 0),
            ("sharpnessAmount", sharpnessAmount != 0), ("contrastAmount", contrastAmount != 0),
            ("localToneMapAmount", localToneMapAmount != 0), ("isLensCorrectionEnabled", isLensCorrectionEnabled),
            ("scaleFactor", scaleFactor != 1),
        ]
        if let (name, _) = unbuilt.first(where: { $0.1 }) {
            throw .unsupported(feature: "RAWFilter.\(name) (its stage is not built yet)", hint: "Leave it at its default; it arrives with the RAW issue's later stages (SPEC X3).")
        }
    }
}

/// A noise profile computed at most once and shared by copies of a filter (the DNG they develop
/// is the same and immutable).
final class NoiseProfileCache: Sendable {
    let value = Mutex<(profile: CFANoiseProfile, estimated: Bool)?>(nil)
}
