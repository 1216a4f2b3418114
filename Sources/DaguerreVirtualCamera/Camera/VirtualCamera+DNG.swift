// A virtual camera's raw frame as a DNG (SPEC R1, R5, R6): the mosaic with the colour
// calibration the simulator knows exactly (XYZ → camera matrices for Standard A and D65 from its
// measured spectral sensitivities, the as-shot neutral, the noise profile of its sensor model)
// and the capture facts, so any raw converter can develop the camera's photos.
import DaguerreCore
import DaguerreFormats
import Foundation

extension VirtualCamera {
    /// The DNG colour matrix for `illuminant`: XYZ under it → the camera's native RGB, scaled so
    /// the illuminant's white gives a largest channel of 1 (DNG 1.4 §6).
    public static func colorMatrix(under illuminant: Illuminant) -> Matrix3 {
        let balancedToXYZ = Colorimetry.cameraToXYZ(under: illuminant)
        let adapt = Matrix3.bradfordAdaptation(from: illuminant.whiteXYZ, to: Illuminant.d65.whiteXYZ)
        let n = Colorimetry.cameraNeutral(under: illuminant)
        let neutral = n / n.max()
        return Matrix3.diagonal(neutral.x, neutral.y, neutral.z) * (balancedToXYZ.inverse ?? .identity) * adapt
    }

    /// The colour calibration of this camera, with the as-shot neutral of `frame` (the inverse
    /// of the white-balance gains it was taken with) and its noise profile.
    public func calibration(for frame: RawFrame) -> RawColorCalibration {
        var c = RawColorCalibration()
        c.colorMatrix1 = Self.colorMatrix(under: .tungsten).m
        c.calibrationIlluminant1 = .standardA
        c.colorMatrix2 = Self.colorMatrix(under: .d65).m
        c.calibrationIlluminant2 = .d65
        let g = frame.metadata.whiteBalanceGains
        let neutral = SIMD3(1 / g.x, 1 / g.y, 1 / g.z)
        let n = neutral / neutral.max()
        c.asShotNeutral = [n.x, n.y, n.z]
        // Noise variance of the signal normalized to 0...1 above black: S·x + O.
        let s = sensor(for: SensorReadoutMode(width: frame.mosaic.width, height: frame.mosaic.height, maxFrameRate: 30))
        let dnPerElectron = frame.metadata.analogGain / s.electronsPerDN
        let range = Double((1 << s.adcBits) - 1) - s.blackLevelDN
        let readDN2 = pow(s.readNoiseElectrons * dnPerElectron, 2) + s.postGainReadNoiseDN * s.postGainReadNoiseDN + 1.0 / 12
        c.noiseProfile = [(scale: dnPerElectron / range, offset: readDN2 / (range * range))]
        return c
    }

    /// `frame` as a DNG image: mosaic, calibration, capture metadata, the 8-photosite default
    /// crop, and `preview` (sRGB, 8-bit) if given.
    public func dngImage(for frame: RawFrame, preview: PixelBuffer? = nil, date: Date = Date(timeIntervalSince1970: 0)) -> DNGImage {
        var dng = DNGImage(raw: frame.mosaic, uniqueCameraModel: "Daguerre Virtual \(profile.name)")
        dng.color = calibration(for: frame)
        var m = PhotoMetadata(make: "Daguerre", model: "Virtual \(profile.name)", software: "Daguerre")
        m.dateTimeOriginal = date
        m.exposureTime = frame.metadata.exposureDuration
        m.fNumber = profile.sensor.fNumber
        m.iso = Int(frame.metadata.iso.rounded())
        m.focalLength = profile.lens.focalLength
        m.focalLengthIn35mmFilm = Int(profile.lens.focalLengthIn35mm.rounded())
        m.flash = frame.metadata.flashFired ? PhotoMetadata.FlashValue.fired : PhotoMetadata.FlashValue.didNotFire
        m.lensModel = "Virtual \(profile.name) \(profile.lens.focalLength) mm f/\(profile.sensor.fNumber)"
        dng.metadata = m
        dng.preview = preview
        return dng
    }
}
