// RAWFilter by key (SPEC X1): the seed's code reads and sets CIRAWFilter options with
// `value(forKey:)` and `setValue(_:forKey:)` and Core Image's key names; the same names (without
// the kCI prefix) reach the typed properties here.
import DaguerreCore
import DaguerreImage

extension RAWFilter {
    /// Core Image's RAW option keys.
    public enum Key: String, Sendable, CaseIterable {
        case ev = "inputEV"
        case baselineExposure = "inputBaselineExposure"
        case neutralTemperature = "inputNeutralTemperature"
        case neutralTint = "inputNeutralTint"
        case neutralChromaticityX = "inputNeutralChromaticityX"
        case neutralChromaticityY = "inputNeutralChromaticityY"
        case boost = "inputBoost"
        case boostShadowAmount = "inputBoostShadowAmount"
        case luminanceNoiseReductionAmount = "inputLuminanceNoiseReductionAmount"
        case colorNoiseReductionAmount = "inputColorNoiseReductionAmount"
        case noiseReductionSharpnessAmount = "inputNoiseReductionSharpnessAmount"
        case noiseReductionContrastAmount = "inputNoiseReductionContrastAmount"
        case noiseReductionDetailAmount = "inputNoiseReductionDetailAmount"
        case imageNoiseReductionAmount = "inputImageNoiseReductionAmount"
        case sharpnessAmount = "inputSharpnessAmount"
        case contrastAmount = "inputContrastAmount"
        case localToneMapAmount = "inputLocalToneMapAmount"
        case enableVendorLensCorrection = "inputEnableVendorLensCorrection"
        case draftMode = "inputDraftMode"
        case scaleFactor = "inputScaleFactor"
    }

    /// The option under `key` (Core Image's `value(forKey:)`); booleans read as 0 or 1.
    ///
    /// ```swift
    /// let amount = try raw.value(forKey: "inputLuminanceNoiseReductionAmount")
    /// ```
    public func value(forKey key: String) throws(DaguerreError) -> Double {
        guard let k = Key(rawValue: key) else { throw Self.unknown(key) }
        let xy = ColorTemperature.xy(temperature: neutralTemperature, tint: neutralTint)
        switch k {
        case .ev: return exposure
        case .baselineExposure: return baselineExposure
        case .neutralTemperature: return neutralTemperature
        case .neutralTint: return neutralTint
        case .neutralChromaticityX: return xy.x
        case .neutralChromaticityY: return xy.y
        case .boost: return boostAmount
        case .boostShadowAmount: return boostShadowAmount
        case .luminanceNoiseReductionAmount, .imageNoiseReductionAmount: return luminanceNoiseReductionAmount
        case .colorNoiseReductionAmount: return colorNoiseReductionAmount
        case .noiseReductionSharpnessAmount: return noiseReductionSharpnessAmount
        case .noiseReductionContrastAmount: return noiseReductionContrastAmount
        case .noiseReductionDetailAmount: return noiseReductionDetailAmount
        case .sharpnessAmount: return sharpnessAmount
        case .contrastAmount: return contrastAmount
        case .localToneMapAmount: return localToneMapAmount
        case .enableVendorLensCorrection: return isLensCorrectionEnabled ? 1 : 0
        case .draftMode: return isDraftModeEnabled ? 1 : 0
        case .scaleFactor: return scaleFactor
        }
    }

    /// Sets the option under `key` (Core Image's `setValue(_:forKey:)`); the value must be finite.
    ///
    /// ```swift
    /// var raw = try RAWFilter(url: url)
    /// try raw.setValue(0.5, forKey: "inputEV")
    /// let image = try raw.outputImage()
    /// ```
    public mutating func setValue(_ value: Double, forKey key: String) throws(DaguerreError) {
        guard let k = Key(rawValue: key) else { throw Self.unknown(key) }
        guard value.isFinite else { throw .invalidParameter(filter: "RAWFilter", key: key, problem: "must be a finite number, not \(value)") }
        switch k {
        case .ev: exposure = value
        case .baselineExposure: baselineExposure = value
        case .neutralTemperature: neutralTemperature = value
        case .neutralTint: neutralTint = value
        case .neutralChromaticityX, .neutralChromaticityY:
            var xy = ColorTemperature.xy(temperature: neutralTemperature, tint: neutralTint)
            if k == .neutralChromaticityX { xy.x = value } else { xy.y = value }
            (neutralTemperature, neutralTint) = ColorTemperature.temperatureAndTint(of: xy)
        case .boost: boostAmount = value
        case .boostShadowAmount: boostShadowAmount = value
        case .luminanceNoiseReductionAmount, .imageNoiseReductionAmount: luminanceNoiseReductionAmount = value
        case .colorNoiseReductionAmount: colorNoiseReductionAmount = value
        case .noiseReductionSharpnessAmount: noiseReductionSharpnessAmount = value
        case .noiseReductionContrastAmount: noiseReductionContrastAmount = value
        case .noiseReductionDetailAmount: noiseReductionDetailAmount = value
        case .sharpnessAmount: sharpnessAmount = value
        case .contrastAmount: contrastAmount = value
        case .localToneMapAmount: localToneMapAmount = value
        case .enableVendorLensCorrection: isLensCorrectionEnabled = value != 0
        case .draftMode: isDraftModeEnabled = value != 0
        case .scaleFactor: scaleFactor = value
        }
    }

    static func unknown(_ key: String) -> DaguerreError {
        .invalidParameter(filter: "RAWFilter", key: key,
                          problem: "is not a RAW option; use one of \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
    }
}
