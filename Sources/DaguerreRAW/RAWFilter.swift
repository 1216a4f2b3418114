// RAWFilter (SPEC X1–X8, W7; CIRAWFilter with the prefix dropped): develops DNGs into a
// wide-gamut, extended-range linear image in the engine, with Core Image's RAW options. It reads
// Bayer DNGs (and other RAWs through LibRaw) and develops them through linearization, raw noise
// reduction (pipeline versions 3 and later), white balance (as shot, or by temperature and tint), a
// demosaic, the DNG colour model (matrices interpolated by temperature) and exposure. Options a
// pipeline version does not have (noise reduction in versions 1 and 2) keep their defaults there;
// setting them throws `.unsupported` when the image is asked for, saying so.
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
    /// The DNG as read (mosaic, calibration, crop, metadata). A DNG opened by URL or data keeps
    /// its mosaic in the file until something needs it whole: the full develop streams it band
    /// by band, and this property decodes it (once; damaged data throws here).
    public var dng: DNGImage {
        get throws(DaguerreError) {
            guard let deferred else { return header }
            var whole = header
            whole.rawData = .mosaic(try deferred.whole())
            return whole
        }
    }
    /// The DNG as read, its mosaic possibly still in the file (``DNGRawData/storedMosaic(_:)``):
    /// everything the develop's settings come from.
    let header: DNGImage
    /// The mosaic still in its file, for a DNG opened by URL or data (nil once in memory).
    let deferred: DeferredMosaic?
    let colorModel: CameraColorModel
    /// Where the image came from, for the engine's source digest.
    let identity: String
    /// Size limits for everything the develop allocates (the caller's, from `init(url:limits:)`).
    let limits: Limits
    /// Which reader decoded the file (and why LibRaw, for a DNG), and where the colour matrix
    /// and the default white came from: what a develop reports when it fell back.
    public internal(set) var provenance: RAWProvenance

    /// Exposure adjustment in EV, on top of ``baselineExposure``. Default 0.
    public var exposure = 0.0
    /// The file's BaselineExposure (EV); settable, as in Core Image.
    public var baselineExposure: Double
    /// White balance as a temperature (K) and tint; defaults from the file's as-shot white.
    public var neutralTemperature: Double
    public var neutralTint: Double
    /// The boost curve's amount (0 linear … 1 the full filmic curve, ``BoostCurve``). Core Image
    /// defaults to 1; ours defaults to 0 so the default develop is colorimetric (the chart
    /// develops within ΔE2000 2 of its truth), and a look is something one asks for.
    public var boostAmount = 0.0
    /// Shadow lift, −1…1 (0 off), judged on perceptual luminance.
    public var boostShadowAmount = 0.0
    /// Clipped highlights (pipeline versions 3 and later, ``HighlightRecovery``): 0 clips them to white,
    /// 1 (default) keeps the brightness the unclipped channels still see, neutral, above 1.
    public var highlightRecoveryAmount = 1.0
    /// Raw noise reduction (X3; pipeline versions 3 and later), Core Image's range 0...1. The default 0.5
    /// reduces the noise the file describes (its DNG NoiseProfile, or an estimate made from the
    /// image when it has none) by DCT4-2S before white balance and demosaic; 0 turns noise
    /// reduction off and shows the raw noise. The method's amount is a = 2 × this value (so the
    /// default is a = 1 and 1 is a = 2): the noise σ it assumes, in units of the profile's.
    /// A noise-free file (NoiseProfile 0, 0, or a negligible estimate) is left untouched at any
    /// amount. Draft mode skips noise reduction. Pipeline versions 1 and 2 have no noise
    /// reduction: there, only the default and 0 are accepted.
    public var luminanceNoiseReductionAmount = RAWFilter.defaultLuminanceNoiseReductionAmount
    public static let defaultLuminanceNoiseReductionAmount = 0.5
    /// Colour noise reduction, 0…1 (``ChromaNoiseReduction``: chroma blurred with σ = 1 + 5·amount
    /// px, luminance kept). 0 by default: the demosaic already cleans colour differences.
    public var colorNoiseReductionAmount = 0.0
    /// Core Image's fine controls of raw noise reduction (X1, X3), each 0…1, default 0: DCT4-2S
    /// exactly as the noise research specified it (the develop is bit for bit the same). They
    /// act only where noise reduction runs (pipeline versions 3 and later, ``luminanceNoiseReductionAmount``
    /// above 0, a noisy file, not draft mode); versions 1 and 2 accept only 0. Out of range or
    /// not finite: ``outputImage()`` throws `.invalidArgument`.
    ///
    /// Detail keeps fine texture: DCT4-2S assumes less noise (down to half the σ at 1) in the
    /// finest DCT coefficients of each CFA plane, so it removes less there, noise included.
    ///
    /// ```swift
    /// raw.noiseReductionDetailAmount = 0.5      // foliage, fabric: keep more texture, and more grain
    /// ```
    public var noiseReductionDetailAmount = 0.0
    /// Contrast keeps local contrast: the same for the coarse DCT coefficients (not the local
    /// mean), so faint shading and soft gradients are not flattened; low-frequency noise stays too.
    public var noiseReductionContrastAmount = 0.0
    /// Sharpness gives back edge sharpness that noise reduction softened: an unsharp mask of the
    /// develop's luminance whose detail is measured in units of the file's noise and softly cored
    /// at one σ, so edges are steepened and the remaining noise is not. About 0.5 restores a
    /// faint edge's noise-free sharpness at ISO 1600 (Benchmarks/NOISE_RESULTS.md); like any
    /// sharpening it moves the image away from the scene.
    public var noiseReductionSharpnessAmount = 0.0
    /// Luminance sharpening after the look stages (SharpenLuminance's sharpness), 0 off.
    public var sharpnessAmount = 0.0
    /// Global contrast, −1…1 (``ContrastCurve``), 0 off.
    public var contrastAmount = 0.0
    /// Local tone mapping, 0…1 (``LocalToneMap``): large-scale brightness differences halved in
    /// stops at 1, detail kept. 0 off.
    public var localToneMapAmount = 0.0
    /// Vibrance (saturation weighted toward muted colours) and saturation, −1…1, 0 off.
    public var vibranceAmount = 0.0
    public var saturationAmount = 0.0
    /// Lens correction from the file's opcodes (pipeline versions 3 and later): OpcodeList2's gain maps
    /// (shading, on the linearized photosites, in every demosaic path) and OpcodeList3's
    /// WarpRectilinear (distortion). Defaults to on when the file carries either.
    public var isLensCorrectionEnabled: Bool
    /// Draft mode (X7): the bilinear demosaic, or the half-size one when the scale is ½ or less,
    /// and no noise reduction; the developed base is kept in the context's cache, so a re-render
    /// after changing a later stage does not develop again. For a Bayer mosaic the cached base is
    /// camera RGB at display size, before the white balance (``DraftBalance``), so a change of
    /// temperature or tint re-renders from the cache too. Draft renders are previews: near the
    /// edges of clipped areas they differ from the full develop, and the pipeline versions (X5)
    /// pin the full develop, not the draft.
    public var isDraftModeEnabled = false
    /// The output's size relative to the crop (0 < s ≤ 1), by Lanczos; at ½ or less the mosaic
    /// is developed at half size first (X2).
    public var scaleFactor = 1.0
    /// EXIF orientation 1…8 applied to the output; defaults to the file's.
    public var orientation: Int
    /// A stage run on the linear develop, before exposure and every non-linear step (X4).
    public var linearSpaceFilter: LinearSpaceFilter?
    /// The working space the linear result is in (W7: wide gamut, extended range).
    public var workingSpace: ColorSpace = .extendedLinearSRGB

    /// The pipeline versions this build can reproduce (X5), newest last: 1 develops with the
    /// bilinear demosaic, 2 with LMMSE-GW, 3 adds raw noise reduction (DCT4-2S) before LMMSE-GW,
    /// highlight recovery and lens correction, 4 is version 3 made about 1.4× as fast: LMMSE-GW
    /// in a power-2.5 domain whose encode and decode vectorize (Kodak24 40.06 dB against 40.00),
    /// and DCT4-2S visiting every other block (``DCT4PlaneDenoiser/BlockStep``; 0.6 dB less than
    /// version 3 under the noise protocol, still 2.8 dB above LibRaw's best), 5 is version 4 with
    /// the noise of X-Trans files that state none estimated (Bayer files develop as in version 4,
    /// bit for bit), 6 is version 5 with the noise estimate of Bayer files that state none
    /// separating fine texture (``TextureSeparatingFit``), and 7 (the default) is version 6 with
    /// the Bayer noise reduction's Wiener stage piloted by one pass over the four planes
    /// together (``JointCFAPilot``: 0.04–0.41 dB more at every level of the noise protocol, at
    /// about the same speed; X-Trans files develop as in version 6). Versions 1 and 2 predate the
    /// later stages and leave them out; no version's pixels change
    /// once it is released (each is pinned by a golden checksum in the tests).
    public static var supportedDecoderVersions: [String] { PipelineVersion.names }
    public var decoderVersion = PipelineVersion.default.name
    /// The file's noise profile, or the estimate made once on first use (shared by copies).
    let facts = MosaicFacts()

    /// Opens a RAW file: DNGs through our own reader, every other camera format through
    /// LibRaw (which only decodes; X6).
    ///
    /// A DNG's mosaic is decoded when a render needs it, as in Core Image: a damaged tile is the
    /// render's error (only the tiles a render reads are decoded), and a DNG of 8 MiB or more
    /// stays open while the filter, its copies or its images live, its tiles read from it as
    /// they are decoded (so replacing the file is safe, rewriting it in place is not).
    public init(url: URL, limits: Limits = .default) throws(DaguerreError) {
        let path = url.path
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .io(operation: "read", path: path, reason: "the file does not exist or cannot be read")
        }
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let stamp = "\(path)|\((attrs?[.size] as? Int) ?? 0)|\((attrs?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        let head = (FileHandle(forReadingAtPath: path)?.readData(ofLength: 4096)).map { [UInt8]($0) } ?? []
        let (dng, refusal, byLibRaw) = try Self.decode(
            head: head, namedDNG: ["dng", "gpr"].contains(url.pathExtension.lowercased()), name: path,
            ours: { () throws(DaguerreError) in try DNGReader.open(path: path, limits: limits) },
            libRaw: { () throws(DaguerreError) in try LibRawReader.read(path: path, limits: limits) })
        self.init(
            header: dng, deferred: try Self.deferredMosaic(dng), identity: (byLibRaw ? "libraw|" : "") + stamp, limits: limits,
            reader: byLibRaw ? .libRaw : .daguerre, refusal: refusal)
    }

    /// Opens a RAW file's bytes (Core Image's `init(imageData:identifierHint:)`): a DNG through
    /// our reader, any other camera format through LibRaw. `identifierHint` is a file name, an
    /// extension or a type identifier; one that says DNG keeps our reader's error for bytes it
    /// refuses.
    ///
    /// ```swift
    /// let raw = try RAWFilter(data: try Data(contentsOf: url), identifierHint: "com.adobe.raw-image")
    /// ```
    public init(data: Data, identifierHint: String? = nil, limits: Limits = .default) throws(DaguerreError) {
        let bytes = [UInt8](data)
        let name = identifierHint ?? "RAW data"
        let (dng, refusal, byLibRaw) = try Self.decode(
            head: Array(bytes.prefix(4096)), namedDNG: name.lowercased().contains("dng") || name.lowercased().contains("adobe.raw"),
            name: name,
            ours: { () throws(DaguerreError) in try DNGReader.open(bytes: bytes, limits: limits) },
            libRaw: { () throws(DaguerreError) in try LibRawReader.read(bytes: bytes, name: name, limits: limits) })
        self.init(
            header: dng, deferred: try Self.deferredMosaic(dng), limits: limits, reader: byLibRaw ? .libRaw : .daguerre,
            refusal: refusal)
    }

    /// Develops a Bayer mosaic with its calibration and capture facts (Core Image's
    /// `init(cvPixelBuffer:properties:)`): a camera's frame that was never written to a file.
    ///
    /// ```swift
    /// let raw = try RAWFilter(mosaic: frame.mosaic, color: frame.calibration, metadata: frame.metadata)
    /// ```
    public init(mosaic: BayerImage, color: RawColorCalibration, metadata: PhotoMetadata = PhotoMetadata(), limits: Limits = .default)
        throws(DaguerreError)
    {
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: [metadata.make, metadata.model].compactMap { $0 }.joined(separator: " "))
        dng.color = color
        dng.metadata = metadata
        try self.init(dng: dng, limits: limits)
    }

    /// Which reader gets a RAW, from IFD0 in its first bytes: DNGs ours, the rest (TIFF-based
    /// camera RAWs such as CR2, NEF and ARW included) LibRaw's, read once. A TIFF whose IFD0 lies
    /// further in is tried as a DNG first. A DNG our reader refuses as unsupported (a
    /// compression it does not decode, such as a CinemaDNG's lossy JPEG) goes to LibRaw, and the
    /// refusal is returned to be reported; one neither reads gets our refusal, saying LibRaw
    /// cannot read it either. Damaged DNGs, and DNGs refused for their sensor's layout (which
    /// LibRaw would read as a red, green and blue mosaic whatever its colours), keep our
    /// reader's error.
    private static func decode(
        head: [UInt8], namedDNG: Bool, name: String, ours: () throws(DaguerreError) -> DNGImage,
        libRaw: () throws(DaguerreError) -> DNGImage
    ) throws(DaguerreError) -> (DNGImage, refusal: String?, byLibRaw: Bool) {
        // LibRaw after our refusal: its result, with the refusal to report when our reader
        // knew the file as a DNG, or, when LibRaw fails too, our refusal saying so.
        func handOver(_ refusal: DaguerreError, report: Bool) throws(DaguerreError) -> (DNGImage, refusal: String?, byLibRaw: Bool) {
            // A layout LibRaw would misread (a CMY mosaic taken for RGB) stays refused.
            guard case .unsupported(let feature, let hint) = refusal, !DNGReader.isLayoutRefusal(refusal) else { throw refusal }
            do throws(DaguerreError) {
                return (try libRaw(), report ? refusal.message : nil, true)
            } catch {
                var why = "LibRaw could not read it either: \(error.message)"
                if case .unsupported = error { why = "LibRaw does not read it either." }
                throw .unsupported(feature: "\(feature) (\(name))", hint: "\(why) \(hint)")
            }
        }
        switch DNGReader.isDNG(head: head) {
        case true?:
            do throws(DaguerreError) { return (try ours(), nil, false) } catch { return try handOver(error, report: true) }
        case nil:
            // IFD0 reaches past the first bytes: ours first; LibRaw next, unless the input is
            // named as a DNG and ours found it damaged.
            do throws(DaguerreError) { return (try ours(), nil, false) } catch {
                if namedDNG { return try handOver(error, report: true) }
                if case .unsupported = error { return try handOver(error, report: false) }
            }
        case false?:
            if namedDNG { return (try ours(), nil, false) }
        }
        return (try libRaw(), nil, true)
    }

    /// Develops a DNG already in memory (from ``DNGReader`` or a camera).
    public init(dng: DNGImage, identity: String = UUID().uuidString, limits: Limits = .default) throws(DaguerreError) {
        self.init(header: dng, deferred: try Self.deferredMosaic(dng), identity: identity, limits: limits)
    }

    /// What a reader gave, checked: the mosaic it left in its file, if it did. Every refusal
    /// comes before a filter is initialized.
    private static func deferredMosaic(_ dng: DNGImage) throws(DaguerreError) -> DeferredMosaic? {
        if let linear = dng.linearRaw, linear.samplesPerPixel != 1, linear.samplesPerPixel != 3 {
            throw .unsupported(
                feature: "developing \(linear.samplesPerPixel)-colour LinearRaw DNGs",
                hint: "RAWFilter develops Bayer (CFA) DNGs and 3-colour or monochrome LinearRaw DNGs.")
        }
        guard case .storedMosaic(let stored) = dng.rawData else { return nil }
        return DeferredMosaic(stored)
    }

    /// Develops `header`, whose mosaic, when deferred, is `deferred`'s.
    private init(
        header dng: DNGImage, deferred: DeferredMosaic?, identity: String = UUID().uuidString, limits: Limits,
        reader: RAWProvenance.Reader = .daguerre, refusal: String? = nil
    ) {
        header = dng
        self.deferred = deferred
        self.identity = identity
        self.limits = limits
        colorModel = CameraColorModel(dng.color)
        baselineExposure = dng.color.baselineExposure
        let white = colorModel.asShotWhite
        provenance = RAWProvenance(reader: reader, refusal: refusal, matrix: dng.color.matrixSource, white: colorModel.asShotWhiteSource)
        (neutralTemperature, neutralTint) = ColorTemperature.temperatureAndTint(of: white)
        orientation = (1...8).contains(dng.metadata.orientation) ? dng.metadata.orientation : 1
        isLensCorrectionEnabled = dng.lensWarp != nil || !dng.gainMaps.isEmpty
    }

    /// The Bayer mosaic with its samples (decoded from the file the first time, for one still in
    /// its file), or nil for a LinearRaw DNG: for the stages that read it whole.
    func wholeMosaic() throws(DaguerreError) -> BayerImage? {
        if let deferred { return try deferred.whole() }
        return header.mosaic
    }

    /// The capture facts the file carries (EXIF, orientation; Core Image's `properties`),
    /// without decoding anything: what an exported develop carries over (X1).
    public var metadata: PhotoMetadata { header.metadata }

    /// The mosaic's size in photosites (Core Image's nativeSize).
    public var nativeSize: (width: Int, height: Int) { header.rawSize }

    /// The photosites developed: ActiveArea, then DefaultCrop inside it (whole photosites).
    var crop: IntRect {
        let size = header.rawSize
        let active = header.activeArea ?? IntRect(x: 0, y: 0, width: size.width, height: size.height)
        guard let c = header.defaultCrop, c.width >= 1, c.height >= 1 else { return active }
        let x = active.x + Int(c.x.rounded(.down))
        let y = active.y + Int(c.y.rounded(.down))
        let r = IntRect(x: x, y: y, width: Int(c.width.rounded(.down)), height: Int(c.height.rounded(.down)))
        return r.intersection(active).isEmpty ? active : r.intersection(active)
    }
}
