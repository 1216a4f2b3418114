// The table of RAWFilter's options (SPEC X1): every develop option once, with its key, sidecar
// name, flag, help and range. Core Image's keys where it has them (CIRAWFilter's `kCIInput…`
// without the prefix); Daguerre's own, in the same style, for the options it adds.
import DaguerreCore

extension RAWFilter {
    /// Every option, in the order the command's help lists them.
    public static let options: [RAWOption] = [
        RAWOption(
            key: "inputDecoderVersion", sidecar: "decoderVersion", flag: "decoder-version",
            help:
                "Pipeline version, \(PipelineVersion.names.joined(separator: ", ")) (default \(PipelineVersion.default.name); a sidecar's keeps rendering with it).",
            .text(\.decoderVersion)),
        RAWOption(
            key: "inputEV", sidecar: "exposure", flag: "exposure",
            help: "Exposure in EV, added to the file's baseline exposure.", .number(\.exposure)),
        RAWOption(
            key: "inputBaselineExposure", sidecar: "baselineExposure", flag: "baseline-exposure",
            help: "The file's baseline exposure in EV (default: the file's).", .number(\.baselineExposure)),
        RAWOption(
            key: "inputNeutralTemperature", sidecar: "temperature", flag: "temperature",
            help: "White balance temperature in kelvin (default: as shot).", .number(\.neutralTemperature, minimum: 0, above: true)),
        RAWOption(
            key: "inputNeutralTint", sidecar: "tint", flag: "tint",
            help: "White balance tint (default: as shot).", .number(\.neutralTint)),
        RAWOption(
            key: "inputLuminanceNoiseReductionAmount", aliases: ["inputImageNoiseReductionAmount"], sidecar: "noiseReduction",
            flag: "noise-reduction",
            help:
                "Noise reduction, 0…1 (default 0.5: as much as the file's noise profile, or an estimate, calls for; 0 shows the raw noise).",
            .number(\.luminanceNoiseReductionAmount, minimum: 0, maximum: 1)),
        RAWOption(
            key: "inputColorNoiseReductionAmount", sidecar: "colorNoiseReduction", flag: "color-noise-reduction",
            help: "Colour noise reduction, 0…1 (default 0): chroma smoothed, luminance kept.",
            .number(\.colorNoiseReductionAmount, minimum: 0, maximum: 1)),
        RAWOption(
            key: "inputNoiseReductionDetailAmount", sidecar: "noiseReductionDetail", flag: "noise-reduction-detail",
            help: "Noise reduction detail, 0…1 (default 0): keep more fine texture (and fine grain).",
            .number(\.noiseReductionDetailAmount, minimum: 0, maximum: 1)),
        RAWOption(
            key: "inputNoiseReductionContrastAmount", sidecar: "noiseReductionContrast", flag: "noise-reduction-contrast",
            help: "Noise reduction contrast, 0…1 (default 0): keep more faint shading and local contrast.",
            .number(\.noiseReductionContrastAmount, minimum: 0, maximum: 1)),
        RAWOption(
            key: "inputNoiseReductionSharpnessAmount", sidecar: "noiseReductionSharpness", flag: "noise-reduction-sharpness",
            help: "Noise reduction sharpness, 0…1 (default 0): give back edge sharpness, not the noise.",
            .number(\.noiseReductionSharpnessAmount, minimum: 0, maximum: 1)),
        RAWOption(
            key: "inputHighlightRecoveryAmount", sidecar: "highlightRecovery", flag: "highlights",
            help: "Highlight recovery, 0 (clip to white) … 1 (default: rebuild from the unclipped channels).",
            .number(\.highlightRecoveryAmount)),
        RAWOption(
            key: "inputBoost", sidecar: "boost", flag: "boost",
            help: "Boost curve, 0 (linear, default) … 1 (filmic).", .number(\.boostAmount)),
        RAWOption(
            key: "inputBoostShadowAmount", sidecar: "boostShadows", flag: "boost-shadows",
            help: "Shadow lift, −1 … 1 (default 0).", .number(\.boostShadowAmount)),
        RAWOption(
            key: "inputContrastAmount", sidecar: "contrast", flag: "contrast",
            help: "Contrast, −1 … 1 (default 0).", .number(\.contrastAmount)),
        RAWOption(
            key: "inputLocalToneMapAmount", sidecar: "localToneMap", flag: "local-tone-map",
            help: "Local tone mapping, 0 … 1 (default 0).", .number(\.localToneMapAmount)),
        RAWOption(
            key: "inputVibranceAmount", sidecar: "vibrance", flag: "vibrance",
            help: "Vibrance, −1 … 1 (default 0): saturation that spares colours already saturated.", .number(\.vibranceAmount)),
        RAWOption(
            key: "inputSaturationAmount", sidecar: "saturation", flag: "saturation",
            help: "Saturation, −1 … 1 (default 0).", .number(\.saturationAmount)),
        RAWOption(
            key: "inputSharpnessAmount", sidecar: "sharpness", flag: "sharpness",
            help: "Luminance sharpening, 0 … 1 (default 0).", .number(\.sharpnessAmount)),
        RAWOption(
            key: "inputScaleFactor", sidecar: "scale", flag: "scale",
            help: "Scale factor, 0 < s ≤ 1 (½ or less develops at half size first).",
            .number(\.scaleFactor, minimum: 0, maximum: 1, above: true)),
        RAWOption(
            key: "inputEnableVendorLensCorrection", sidecar: "lensCorrection", flag: "lens-correction",
            help: "Lens correction from the file's opcodes (default: on when the file has them).", .toggle(\.isLensCorrectionEnabled)),
        RAWOption(
            key: "inputDraftMode", sidecar: "draft", flag: "draft",
            help: "Draft mode: the fast demosaic, no noise reduction.", .toggle(\.isDraftModeEnabled)),
    ]

    /// The option called `name`: its key, an alias, its sidecar name or its flag.
    public static func option(named name: String) -> RAWOption? {
        options.first { $0.key == name || $0.aliases.contains(name) || $0.sidecarName == name || $0.flag == name }
    }

    /// Checks every numeric option's value against its range (``outputImage()`` calls it).
    func checkOptions() throws(DaguerreError) {
        for option in Self.options {
            if let v = option.number(in: self) { try option.check(v) }
        }
    }
}
