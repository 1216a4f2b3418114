// What the virtual camera looks at (SPEC C4): a scene is surfaces with known reflectance and
// distance, lit by an illuminant at a light level in lux. The camera samples it through the lens;
// because the truth is known, every later stage can be measured against it.
import DaguerreCore

/// A scene: reflectance and distance at any point of the field of view.
///
/// `u` and `v` run over 0...1 across the scene's full 4:3 field, left to right and top to
/// bottom; narrower formats (16:9 video) see a centred crop.
///
/// ```swift
/// struct Wall: Scene {
///     func sample(u: Double, v: Double, lighting: SceneLighting) -> SceneSample {
///         SceneSample(response: lighting.neutral(0.18), distance: 2)
///     }
/// }
/// ```
public protocol Scene: Sendable {
    /// The camera's response to the surface at (u, v) per lux of `lighting`'s illuminant, and
    /// its distance in metres (flash falls off with its square).
    func sample(u: Double, v: Double, lighting: SceneLighting) -> SceneSample
    /// A key that changes whenever the scene's content does (render caches use it).
    var cacheKey: String { get }
}

/// One point of a scene: camera RGB response per lux, and distance.
public struct SceneSample: Sendable {
    public var response: SIMD3<Float>
    public var distance: Float
    public init(response: SIMD3<Float>, distance: Float) {
        self.response = response
        self.distance = distance
    }
}

/// Precomputed colorimetry for one illuminant: what the camera sees of a neutral surface, of
/// each ColorChecker patch, and of any linear sRGB reflectance.
public struct SceneLighting: Sendable {
    public let illuminant: Illuminant
    /// Camera response to the 100% white reflector (per lux).
    public let neutralResponse: SIMD3<Float>
    /// Camera response to each of the 24 chart patches, from their measured spectra.
    public let chartResponses: [SIMD3<Float>]
    /// Linear sRGB reflectance → camera response (spectral lift through smooth bases).
    public let srgbToCamera: Matrix3

    public init(illuminant: Illuminant) {
        self.illuminant = illuminant
        neutralResponse = SIMD3<Float>(Colorimetry.cameraNeutral(under: illuminant))
        chartResponses = SpectralTables.colorChecker.map { SIMD3<Float>(Colorimetry.cameraResponse(ofReflectance: $0, under: illuminant)) }
        srgbToCamera = Colorimetry.cameraMatrix(forLinearSRGBUnder: illuminant)
    }

    /// The lighting of `illuminant`, computed once per illuminant for the process: it depends
    /// on nothing else, so every frame's moving objects and every optical render share it. One
    /// lazy static per case (as ``Illuminant/spectrum``): the switch is exhaustive, so a new
    /// illuminant cannot be missed and no lookup can fail.
    ///
    /// ```swift
    /// let red = SceneLighting.under(.tungsten).srgb([0.8, 0.1, 0.1])
    /// ```
    public static func under(_ illuminant: Illuminant) -> SceneLighting {
        switch illuminant {
        case .d65: d65
        case .tungsten: tungsten
        case .fluorescent: fluorescent
        }
    }

    private static let d65 = SceneLighting(illuminant: .d65)
    private static let tungsten = SceneLighting(illuminant: .tungsten)
    private static let fluorescent = SceneLighting(illuminant: .fluorescent)

    /// A spectrally flat surface of reflectance `r`.
    @inline(__always)
    public func neutral(_ r: Float) -> SIMD3<Float> { neutralResponse * r }

    /// A surface whose reflectance is the linear sRGB triple `rgb` under D65.
    public func srgb(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3<Float>(srgbToCamera * SIMD3<Double>(rgb))
    }
}
