// The colour facts a DNG carries for its camera (DNG 1.4 §6 "Mapping Camera Color Space to CIE XYZ").

/// How camera RGB maps to CIE XYZ, at two calibration illuminants, and what the shot's white was.
///
/// ColorMatrix*N* maps XYZ to reference camera space under illuminant *N*; ForwardMatrix*N* maps
/// white-balanced camera RGB to XYZ D50. A developer interpolates between the two by the white
/// balance's temperature (SPEC X3).
///
/// ```swift
/// var c = RawColorCalibration()
/// c.colorMatrix1 = xyzToCameraUnderA; c.calibrationIlluminant1 = .standardA
/// c.colorMatrix2 = xyzToCameraUnderD65; c.calibrationIlluminant2 = .d65
/// c.asShotNeutral = [0.47, 1, 0.63]
/// ```
public struct RawColorCalibration: Sendable, Equatable {
    /// EXIF LightSource codes used as DNG calibration illuminants.
    public enum Illuminant: UInt16, Sendable, Equatable {
        case unknown = 0
        case daylight = 1
        case fluorescent = 2
        case tungsten = 3
        case flash = 4
        case standardA = 17
        case standardB = 18
        case standardC = 19
        case d55 = 20
        case d65 = 21
        case d75 = 22
        case d50 = 23
        case isoStudioTungsten = 24
        /// The correlated colour temperature DNG readers assign to the illuminant, in kelvin.
        public var temperature: Double? {
            switch self {
            case .standardA, .tungsten, .isoStudioTungsten: return 2856
            case .standardB: return 4874
            case .standardC: return 6774
            case .d50: return 5003
            case .d55, .daylight, .flash: return 5503
            case .d65: return 6504
            case .d75: return 7504
            case .fluorescent: return 4230
            case .unknown: return nil
            }
        }
    }

    /// Where ``colorMatrix1`` (and the rest of the matrices) came from.
    public enum MatrixSource: String, Sendable, Equatable {
        /// The file's own matrices (a DNG's ColorMatrix tags, or what a camera or writer gave).
        case file
        /// A table of camera matrices (LibRaw's, from Adobe's DNG converter), the file having none.
        case cameraTable
        /// No matrix anywhere: "raw colour", camera RGB taken as linear sRGB (as LibRaw and dcraw
        /// do), so ``colorMatrix1`` is ``rawColorMatrix`` and a neutral stays neutral.
        case none
    }

    /// XYZ → linear sRGB (D65 white): the ``colorMatrix1`` of a camera with no matrix, which
    /// develops camera RGB as if it were linear sRGB, LibRaw's and dcraw's raw colour.
    public static var rawColorMatrix: [Double] { (Primaries.srgb.rgbToXYZ.inverse ?? .identity).m }

    /// Row-major 3×3, XYZ → camera, for illuminant 1.
    public var colorMatrix1: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    public var colorMatrix2: [Double]?
    public var calibrationIlluminant1: Illuminant = .d65
    public var calibrationIlluminant2: Illuminant?
    /// Row-major 3×3, white-balanced camera → XYZ D50.
    public var forwardMatrix1: [Double]?
    public var forwardMatrix2: [Double]?
    /// Row-major 3×3 per-camera calibration (identity when absent).
    public var cameraCalibration1: [Double]?
    public var cameraCalibration2: [Double]?
    public var analogBalance: [Double]?
    /// The camera-space value of a neutral in this shot.
    public var asShotNeutral: [Double]?
    /// The shot's white as CIE xy, when the file gives that instead of ``asShotNeutral``.
    public var asShotWhiteXY: [Double]?
    /// The camera-space value of a daylight neutral (the camera's daylight multipliers, inverted):
    /// the white a develop uses when the shot's is missing. Nil means the D65 neutral of the
    /// matrix, which is what LibRaw derives for cameras without a table of multipliers.
    public var daylightNeutral: [Double]?
    /// Where the matrices came from (``MatrixSource``).
    public var matrixSource: MatrixSource = .file
    /// EV to add so that the camera's default rendering is right (DNG BaselineExposure).
    public var baselineExposure: Double = 0
    /// DNG NoiseProfile: (scale, offset) pairs of the noise variance σ² = S·x + O, per plane or one for all.
    public var noiseProfile: [(scale: Double, offset: Double)] = []

    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.colorMatrix1 == b.colorMatrix1 && a.colorMatrix2 == b.colorMatrix2 && a.calibrationIlluminant1 == b.calibrationIlluminant1
            && a.calibrationIlluminant2 == b.calibrationIlluminant2 && a.forwardMatrix1 == b.forwardMatrix1
            && a.forwardMatrix2 == b.forwardMatrix2 && a.cameraCalibration1 == b.cameraCalibration1
            && a.cameraCalibration2 == b.cameraCalibration2 && a.analogBalance == b.analogBalance
            && a.asShotNeutral == b.asShotNeutral && a.asShotWhiteXY == b.asShotWhiteXY && a.baselineExposure == b.baselineExposure
            && a.daylightNeutral == b.daylightNeutral && a.matrixSource == b.matrixSource
            && a.noiseProfile.map(\.scale) == b.noiseProfile.map(\.scale) && a.noiseProfile.map(\.offset) == b.noiseProfile.map(\.offset)
    }
}
