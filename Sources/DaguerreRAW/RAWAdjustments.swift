// Per-photo development settings, as a sidecar file beside the RAW (issue #5: "batch ... with
// sidecar adjustment files"; RAWExpose's saved edits). JSON, so any tool can read and write it.
import DaguerreCore
import DaguerreFormats
import Foundation

/// The adjustments a photographer saved for one RAW; nil fields keep the file's defaults.
/// `decoderVersion` is the pipeline version the edit was made with (X5): a sidecar that names
/// one keeps rendering with it, pixel for pixel, after the default moves on.
///
/// ```swift
/// // IMG_0001.dng.daguerre.json: {"decoderVersion": "4", "exposure": 0.7, "temperature": 5200,
/// //                               "tint": 4, "contrast": 0.2, "noiseReductionDetail": 0.4}
/// var raw = try RAWFilter(url: url)
/// try RAWAdjustments.sidecar(for: url.path)?.apply(to: &raw)
/// ```
public struct RAWAdjustments: Codable, Sendable, Equatable {
    /// RAWFilter's `decoderVersion` ("1" … "4"); nil keeps the default (the newest).
    public var decoderVersion: String?
    public var exposure: Double?
    public var temperature: Double?
    public var tint: Double?
    /// The look and detail stages (RAWFilter's amounts of the same names).
    public var noiseReduction: Double?
    public var colorNoiseReduction: Double?
    /// Core Image's fine noise-reduction controls (RAWFilter's `noiseReductionSharpnessAmount`,
    /// `noiseReductionContrastAmount`, `noiseReductionDetailAmount`; X1, X3).
    public var noiseReductionSharpness: Double?
    public var noiseReductionContrast: Double?
    public var noiseReductionDetail: Double?
    public var boost: Double?
    public var boostShadows: Double?
    public var highlightRecovery: Double?
    public var contrast: Double?
    public var localToneMap: Double?
    public var vibrance: Double?
    public var saturation: Double?
    public var sharpness: Double?

    public init(decoderVersion: String? = nil, exposure: Double? = nil, temperature: Double? = nil, tint: Double? = nil, noiseReduction: Double? = nil,
                colorNoiseReduction: Double? = nil, noiseReductionSharpness: Double? = nil, noiseReductionContrast: Double? = nil,
                noiseReductionDetail: Double? = nil, boost: Double? = nil, boostShadows: Double? = nil, highlightRecovery: Double? = nil, contrast: Double? = nil,
                localToneMap: Double? = nil, vibrance: Double? = nil, saturation: Double? = nil, sharpness: Double? = nil) {
        self.decoderVersion = decoderVersion
        self.exposure = exposure; self.temperature = temperature; self.tint = tint; self.noiseReduction = noiseReduction
        self.colorNoiseReduction = colorNoiseReduction
        self.noiseReductionSharpness = noiseReductionSharpness; self.noiseReductionContrast = noiseReductionContrast
        self.noiseReductionDetail = noiseReductionDetail
        self.boost = boost; self.boostShadows = boostShadows; self.highlightRecovery = highlightRecovery; self.contrast = contrast
        self.localToneMap = localToneMap; self.vibrance = vibrance; self.saturation = saturation; self.sharpness = sharpness
    }

    /// The sidecar's path for a RAW file: the file's name with `.daguerre.json` appended.
    public static func sidecarPath(for rawPath: String) -> String { rawPath + ".daguerre.json" }

    /// Reads the sidecar of `rawPath`, or nil when there is none.
    public static func sidecar(for rawPath: String) throws(DaguerreError) -> RAWAdjustments? {
        let path = sidecarPath(for: rawPath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .io(operation: "read", path: path, reason: error.localizedDescription)
        }
        guard data.count <= 1 << 20 else { throw .tooLarge(what: "sidecar \(path) in bytes", value: data.count, limit: 1 << 20) }
        do { return try JSONDecoder().decode(RAWAdjustments.self, from: data) } catch {
            throw .corruptData(format: "sidecar JSON", detail: "\(error)", path: path)
        }
    }

    /// Writes this as the sidecar of `rawPath`, atomically.
    public func writeSidecar(for rawPath: String) throws(DaguerreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw .invalidArgument(what: "adjustments", problem: "\(error)") }
        try AtomicFile.write([UInt8](data), to: Self.sidecarPath(for: rawPath))
    }

    /// Sets the filter's options that this holds.
    public func apply(to filter: inout RAWFilter) {
        if let decoderVersion { filter.decoderVersion = decoderVersion }
        if let exposure { filter.exposure = exposure }
        if let temperature { filter.neutralTemperature = temperature }
        if let tint { filter.neutralTint = tint }
        if let noiseReduction { filter.luminanceNoiseReductionAmount = noiseReduction }
        if let colorNoiseReduction { filter.colorNoiseReductionAmount = colorNoiseReduction }
        if let noiseReductionSharpness { filter.noiseReductionSharpnessAmount = noiseReductionSharpness }
        if let noiseReductionContrast { filter.noiseReductionContrastAmount = noiseReductionContrast }
        if let noiseReductionDetail { filter.noiseReductionDetailAmount = noiseReductionDetail }
        if let boost { filter.boostAmount = boost }
        if let boostShadows { filter.boostShadowAmount = boostShadows }
        if let highlightRecovery { filter.highlightRecoveryAmount = highlightRecovery }
        if let contrast { filter.contrastAmount = contrast }
        if let localToneMap { filter.localToneMapAmount = localToneMap }
        if let vibrance { filter.vibranceAmount = vibrance }
        if let saturation { filter.saturationAmount = saturation }
        if let sharpness { filter.sharpnessAmount = sharpness }
    }
}
