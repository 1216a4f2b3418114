// The develop's pipeline versions (SPEC X5: "decoderVersion pins the pipeline"): what each
// version's stages are and with which parameters, one row per version, so the rest of the
// develop asks the version what to do instead of comparing version numbers. A released row
// never changes; a new behaviour is a new row (and a new golden checksum in the tests).
import DaguerreCore

/// One pipeline version: the stages RAWFilter runs and their parameters.
///
/// ```swift
/// let v = try PipelineVersion.named("6")
/// v.demosaic                    // .lmmseGW
/// v.noiseReductionBlockStep     // .alternate
/// v.estimatesXTransNoise        // true
/// v.noiseEstimate               // .separatingTexture
/// ```
struct PipelineVersion: Sendable, Equatable {
    /// The name RAWFilter's `decoderVersion` takes.
    let name: String
    /// The full-size demosaic.
    let demosaic: DemosaicMethod
    /// The curve LMMSE-GW works in.
    let domain: DemosaicDomain
    /// Raw noise reduction (DCT4-2S) and its block step, or nil for none.
    let noiseReductionBlockStep: DCT4PlaneDenoiser.BlockStep?
    /// Clipped highlights rebuilt (``HighlightRecovery``).
    let highlightRecovery: Bool
    /// The file's lens opcodes applied (gain maps, WarpRectilinear).
    let lensCorrection: Bool
    /// Scale factors of ½ or less develop at half size first.
    let halfSizeDevelop: Bool
    /// An X-Trans mosaic without a NoiseProfile gets an estimated one (``NoiseEstimator``), as a
    /// Bayer mosaic always has; before, it developed without raw noise reduction.
    var estimatesXTransNoise = false
    /// How a Bayer file without a NoiseProfile has its noise estimated.
    var noiseEstimate = NoiseEstimator.Method.shotAndRead
    /// What the Bayer noise reduction's Wiener stage takes as its pilot.
    var noiseReductionPilot = MosaicNoiseReduction.Pilot.perPlane

    /// Every version this build reproduces, oldest first.
    static let all: [PipelineVersion] = [
        // 1: the bilinear demosaic, and nothing else.
        PipelineVersion(
            name: "1", demosaic: .bilinear, domain: .sRGB, noiseReductionBlockStep: nil,
            highlightRecovery: false, lensCorrection: false, halfSizeDevelop: false),
        // 2: LMMSE-GW in the sRGB curve's domain.
        PipelineVersion(
            name: "2", demosaic: .lmmseGW, domain: .sRGB, noiseReductionBlockStep: nil,
            highlightRecovery: false, lensCorrection: false, halfSizeDevelop: false),
        // 3: raw noise reduction before LMMSE-GW, highlight recovery, lens correction, half-size develops.
        PipelineVersion(
            name: "3", demosaic: .lmmseGW, domain: .sRGB, noiseReductionBlockStep: .every,
            highlightRecovery: true, lensCorrection: true, halfSizeDevelop: true),
        // 4: version 3 about 1.4× as fast: the power-2.5 domain, DCT4-2S at every other block.
        PipelineVersion(
            name: "4", demosaic: .lmmseGW, domain: .power25, noiseReductionBlockStep: .alternate,
            highlightRecovery: true, lensCorrection: true, halfSizeDevelop: true),
        // 5: version 4, and X-Trans mosaics without a NoiseProfile denoised from an estimate
        // (Bayer mosaics develop as in version 4, bit for bit).
        PipelineVersion(
            name: "5", demosaic: .lmmseGW, domain: .power25, noiseReductionBlockStep: .alternate,
            highlightRecovery: true, lensCorrection: true, halfSizeDevelop: true, estimatesXTransNoise: true),
        // 6: version 5, with the noise of a Bayer file without a NoiseProfile estimated apart
        // from the fine texture that looks like it (files with a NoiseProfile, X-Trans files and
        // files whose planes do not agree on a separated estimate develop as in version 5).
        PipelineVersion(
            name: "6", demosaic: .lmmseGW, domain: .power25, noiseReductionBlockStep: .alternate,
            highlightRecovery: true, lensCorrection: true, halfSizeDevelop: true, estimatesXTransNoise: true,
            noiseEstimate: .separatingTexture),
        // 7: version 6, with the Bayer noise reduction's pilot made from the four planes together
        // in non-overlapping blocks (``JointCFAPilot``) instead of each plane's first stage at
        // every other block (X-Trans files develop as in version 6).
        PipelineVersion(
            name: "7", demosaic: .lmmseGW, domain: .power25, noiseReductionBlockStep: .alternate,
            highlightRecovery: true, lensCorrection: true, halfSizeDevelop: true, estimatesXTransNoise: true,
            noiseEstimate: .separatingTexture, noiseReductionPilot: .jointCFA),
    ]

    /// The version RAWFilter develops with unless told otherwise (a new row is not the default
    /// until this says so).
    static let `default` = all.first { $0.name == "7" } ?? all[all.count - 1]

    /// The names RAWFilter accepts, oldest first.
    static var names: [String] { all.map(\.name) }

    /// The version called `name`, or a typed error listing the ones this build has.
    static func named(_ name: String) throws(DaguerreError) -> PipelineVersion {
        guard let v = all.first(where: { $0.name == name }) else {
            throw .invalidArgument(what: "decoderVersion \(name)", problem: "this build reproduces \(names.joined(separator: ", "))")
        }
        return v
    }

    /// Whether the version has raw noise reduction at all.
    var hasNoiseReduction: Bool { noiseReductionBlockStep != nil }
}
