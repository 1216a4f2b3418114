// The parameters of a simulated CMOS sensor, Bayer or X-Trans (SPEC C4, R1, X6): geometry, light sensitivity,
// full well, the noise sources before and after the analog gain, black level, fixed-pattern
// noise (PRNU, DSNU), the ADC and the rolling-shutter readout.
import DaguerreCore
import DaguerreFormats

/// A sensor, described the way a sensor datasheet and a photon-transfer measurement describe it.
///
/// Signal chain per photosite: electrons = photons × QE (with shot noise) × PRNU + DSNU +
/// pre-gain read noise, clipped at the full well; × analog gain ÷ electrons per DN, + post-gain
/// read noise, + black level; quantized by a 10-bit ADC and stored in the 14-bit range of a
/// 16-bit sample (×16, R1).
///
/// ```swift
/// var sensor = SensorModel.backCamera
/// sensor.readNoiseElectrons = 2.5
/// let gain = sensor.analogGain(iso: 400)      // 16 (base ISO 25)
/// ```
public struct SensorModel: Sendable, Equatable {
    /// Photosites across and down the full readout.
    public var width: Int
    public var height: Int
    public var pattern: BayerPattern
    /// Fujifilm's 6×6 colour filter (then `pattern` does not describe the full readout), or nil
    /// for a Bayer sensor. Binned readouts (video and metering modes) are Bayer either way: the
    /// simulator's video ISP demosaics Bayer mosaics only.
    public var xTrans: XTransPattern? = nil
    /// Pixel pitch in micrometres (sets the light collected per photosite).
    public var pixelPitchMicrometres: Double
    /// Photons converted to electrons, including the colour filter's average transmission.
    public var quantumEfficiency: Double
    /// The lens aperture the sensor sits behind (f-number).
    public var fNumber: Double
    /// Electrons a photosite holds before it saturates.
    public var fullWellElectrons: Double
    /// Read noise before the analog gain, in electrons (scaled by the gain).
    public var readNoiseElectrons: Double
    /// Read noise after the gain (amplifier and ADC), in 10-bit DN (not scaled by the gain).
    public var postGainReadNoiseDN: Double
    /// Black level in 10-bit DN.
    public var blackLevelDN: Double
    /// Photo-response non-uniformity: the standard deviation of each photosite's fixed gain.
    public var prnu: Double
    /// Dark-signal non-uniformity: the standard deviation of each photosite's fixed offset, in electrons.
    public var dsnuElectrons: Double
    /// ADC resolution (10 bits on the seeds' phones, R1) and the bits it is stored in.
    public var adcBits: Int = 10
    public var storedBits: Int = 14
    /// ISO at unity analog gain, and the largest analog gain.
    public var baseISO: Double
    public var maxAnalogGain: Double
    /// Time from the first row's readout to the last's (rolling shutter), in seconds.
    public var readoutTime: Double
    /// A per-device seed for the fixed patterns (PRNU, DSNU), so two devices differ.
    public var patternSeed: UInt64

    /// 12 MP, 1.22 µm, f/1.8: the iPhone 7 class back camera of the seeds.
    public static let backCamera = SensorModel(
        width: 4032, height: 3024, pattern: .rggb, pixelPitchMicrometres: 1.22, quantumEfficiency: 0.45, fNumber: 1.8,
        fullWellElectrons: 6000, readNoiseElectrons: 2.2, postGainReadNoiseDN: 0.45, blackLevelDN: 33, prnu: 0.008,
        dsnuElectrons: 0.4, baseISO: 25, maxAnalogGain: 80, readoutTime: 0.024, patternSeed: 0xBAC4)

    /// 5 MP, 1.12 µm, f/2.2: the front camera (C5).
    public static let frontCamera = SensorModel(
        width: 2576, height: 1932, pattern: .grbg, pixelPitchMicrometres: 1.12, quantumEfficiency: 0.42, fNumber: 2.2,
        fullWellElectrons: 5000, readNoiseElectrons: 2.6, postGainReadNoiseDN: 0.5, blackLevelDN: 33, prnu: 0.01,
        dsnuElectrons: 0.5, baseISO: 25, maxAnalogGain: 64, readoutTime: 0.030, patternSeed: 0xF407)

    /// 26 MP APS-C X-Trans, 3.76 µm, f/2.8: a Fujifilm X-series class camera (6240×4160, a
    /// 14-bit ADC), for X-Trans raw files whose scene is known.
    public static let xTransCamera: SensorModel = {
        var s = SensorModel(
            width: 6240, height: 4160, pattern: .rggb, pixelPitchMicrometres: 3.76, quantumEfficiency: 0.5, fNumber: 2.8,
            fullWellElectrons: 45000, readNoiseElectrons: 3, postGainReadNoiseDN: 1.2, blackLevelDN: 1024, prnu: 0.006,
            dsnuElectrons: 0.5, baseISO: 160, maxAnalogGain: 80, readoutTime: 0.05, patternSeed: 0xF0F1)
        s.adcBits = 14
        s.storedBits = 14
        s.xTrans = .standard
        return s
    }()

    /// The colour each photosite of the full readout reads.
    public var filterColors: SensorFilterColors { SensorFilterColors(pattern: pattern, xTrans: xTrans) }

    /// Electrons per 10-bit DN at unity gain: the full well spans the ADC range above black.
    public var electronsPerDN: Double { fullWellElectrons / (Double((1 << adcBits) - 1) - blackLevelDN) }

    /// The analog gain for `iso`, clamped to 1...maxAnalogGain.
    public func analogGain(iso: Double) -> Double { min(max(iso / baseISO, 1), maxAnalogGain) }

    /// ISO range this sensor reaches with analog gain.
    public var isoRange: ClosedRange<Double> { baseISO...(baseISO * maxAnalogGain) }

    /// Electrons a photosite of this sensor collects per lux-second of scene illuminance on a
    /// 100% white reflector (green channel, D65): photons per µm² per lux-second at 555 nm
    /// (about 4100), times the sensor-plane illuminance of a Lambertian scene (1/(4N²)), the
    /// pixel area and the quantum efficiency.
    public var electronsPerLuxSecond: Double {
        4100 / (4 * fNumber * fNumber) * pixelPitchMicrometres * pixelPitchMicrometres * quantumEfficiency
    }

    /// The stored value's scale: 10-bit DN × 16 fill the 14-bit range (R1).
    public var storedScale: Int { 1 << (storedBits - adcBits) }

    /// The same sensor read out binned to `width` × `height` (video modes) from the share
    /// `fieldSpan` of its width and height (16:9 modes crop rows): each output photosite gathers
    /// the light, full well and fixed patterns of the area it covers, and the readout takes the
    /// share of the rows it reads.
    public func binned(width w: Int, height h: Int, fieldSpan: SIMD2<Double> = SIMD2(1, 1)) -> SensorModel {
        var s = self
        let area = Double(width) * fieldSpan.x * Double(height) * fieldSpan.y / Double(w * h)
        s.readoutTime = readoutTime * fieldSpan.y
        if (w, h) != (width, height) { s.xTrans = nil }
        s.width = w
        s.height = h
        s.pixelPitchMicrometres = pixelPitchMicrometres * area.squareRoot()
        s.fullWellElectrons = fullWellElectrons * area
        s.readNoiseElectrons = readNoiseElectrons * area.squareRoot()
        s.dsnuElectrons = dsnuElectrons * area.squareRoot()
        s.prnu = prnu / area.squareRoot()
        return s
    }
}
