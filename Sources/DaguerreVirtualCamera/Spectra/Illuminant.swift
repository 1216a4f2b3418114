// The light sources of the virtual camera's scenes (SPEC C4: D65, tungsten/Standard A,
// fluorescent), as CIE spectral power distributions scaled to one lux.
import DaguerreCore

/// A scene illuminant. Its spectrum is scaled so that a perfect white reflector under it has an
/// illuminance of 1 lux; the scene's light level multiplies it.
///
/// ```swift
/// camera.illuminant = .tungsten
/// print(Illuminant.tungsten.correlatedColorTemperature)   // 2856
/// ```
public enum Illuminant: String, Sendable, CaseIterable, Hashable {
    /// CIE D65, average daylight (6504 K).
    case d65
    /// CIE Standard Illuminant A, a tungsten filament lamp (2856 K).
    case tungsten
    /// CIE FL2, a cool white fluorescent tube (4230 K).
    case fluorescent

    /// The nominal correlated colour temperature in kelvin.
    public var correlatedColorTemperature: Double {
        switch self {
        case .d65: 6504
        case .tungsten: 2856
        case .fluorescent: 4230
        }
    }

    /// Parses "D65", "A", "tungsten", "fluorescent", "FL2" (any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "d65", "daylight": self = .d65
        case "a", "tungsten", "incandescent": self = .tungsten
        case "fl2", "f2", "fluorescent": self = .fluorescent
        default: return nil
        }
    }

    /// The spectral power distribution at ``SpectralTables/wavelengths``, in units where the
    /// illuminance (683 lm/W × Σ S·ȳ·Δλ) is 1 lux.
    public var spectrum: [Double] {
        switch self {
        case .d65: Self.d65Spectrum
        case .tungsten: Self.tungstenSpectrum
        case .fluorescent: Self.fluorescentSpectrum
        }
    }

    // Normalized once: the colorimetry asks for spectra inside its loops.
    private static let d65Spectrum = normalized(SpectralTables.illuminantD65)
    private static let tungstenSpectrum = normalized(SpectralTables.illuminantA)
    private static let fluorescentSpectrum = normalized(SpectralTables.illuminantFL2)

    private static func normalized(_ raw: [Double]) -> [Double] {
        let y = zip(raw, SpectralTables.cie1931Y).reduce(0) { $0 + $1.0 * $1.1 } * 683 * 10
        return raw.map { $0 / y }
    }

    /// The XYZ of the perfect white reflector under the illuminant, normalized to Y = 1.
    public var whiteXYZ: SIMD3<Double> { Colorimetry.xyz(ofReflectance: Colorimetry.flat, under: self) }
}
