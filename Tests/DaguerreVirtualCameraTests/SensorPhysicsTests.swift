import DaguerreFormats
import Foundation
import Testing

@testable import DaguerreVirtualCamera

/// The sensor physics, measured the way a sensor is characterized (SPEC C4;s).
@Suite struct SensorPhysicsTests {
    /// Photon transfer: pairs of flat-field frames at rising exposure, for each ISO. The
    /// difference of a pair cancels the fixed patterns; var(a − b)/2 against the mean is a line
    /// whose slope is the conversion gain (DN per electron) and whose intercept is the read
    /// noise variance (including the ADC's quantization, 1/12 DN²).
    @Test("A photon transfer curve recovers the configured conversion gain and read noise within 5%", arguments: [100.0, 400.0, 1600.0])
    func photonTransfer(iso: Double) throws {
        let profile = smallBackProfile(width: 256, height: 192, vignetting: 0)
        let camera = VirtualCamera(profile: profile, scene: FlatScene(), seed: 11)
        camera.lux = 400
        camera.whiteBalanceControl = .custom([1, 1, 1])
        let sensor = profile.sensor
        let gain = sensor.analogGain(iso: iso)
        let expectedGain = gain / sensor.electronsPerDN  // DN per electron
        let readDN = sensor.readNoiseElectrons * expectedGain
        let expectedRead = (readDN * readDN + sensor.postGainReadNoiseDN * sensor.postGainReadNoiseDN + 1.0 / 12).squareRoot()
        // A dark pair (the read noise floor), then exposures from 1% to 60% of the ADC range above black.
        let fullScale = Double(1023) - sensor.blackLevelDN
        var means: [Double] = []
        var variances: [Double] = []
        for level in [0, 0.01, 0.03, 0.1, 0.2, 0.3, 0.45, 0.6] {
            let electrons = level * fullScale / expectedGain
            let duration = electrons / (sensor.electronsPerLuxSecond * 0.5 * 400)
            try #require(duration <= 1.0 / 30, "the flat field is bright enough for every level")
            camera.lux = level == 0 ? 0 : 400
            camera.exposureControl = .custom(ExposureSettings(duration: max(duration, 1e-4), iso: iso))
            // Three pairs per level over the whole frame but its edge (about 70 000 differences).
            for pair in 0..<3 {
                let a = try camera.captureRAW(mode: profile.modes[0], at: Double(pair)).mosaic
                let b = try camera.captureRAW(mode: profile.modes[0], at: Double(pair) + 0.5).mosaic
                let box = (x: 8..<248, y: 8..<184)
                let va = cfaValues(a, color: 1, x: box.x, y: box.y)
                let vb = cfaValues(b, color: 1, x: box.x, y: box.y)
                let diff = zip(va, vb).map { $0 - $1 }
                means.append((meanAndVariance(va).mean + meanAndVariance(vb).mean) / 2 - sensor.blackLevelDN)
                variances.append(meanAndVariance(diff).variance / 2)
            }
        }
        let line = fitLine(means, variances)
        let measuredRead = max(line.intercept, 0).squareRoot()
        print(
            "PTC ISO \(Int(iso)): gain \(line.slope) DN/e⁻ (configured \(expectedGain)), read noise \(measuredRead) DN (configured \(expectedRead))"
        )
        #expect(abs(line.slope / expectedGain - 1) < 0.05, "gain \(line.slope) vs \(expectedGain)")
        #expect(abs(measuredRead / expectedRead - 1) < 0.05, "read noise \(measuredRead) vs \(expectedRead)")
    }

    @Test("The mid-grey patch's SNR grows as √signal where shot noise dominates")
    func snrGrowsAsSquareRoot() throws {
        let (w, h) = (1024, 768)
        let profile = smallBackProfile(width: w, height: h)
        let camera = VirtualCamera(profile: profile, seed: 5)
        camera.lux = 4000
        camera.whiteBalanceControl = .custom([1, 1, 1])
        let box = StudioScene().chartPatchBox(21)  // neutral 5 (.70 D)
        let x0 = Int(box.u.lowerBound * Double(w)) + 4
        let x1 = Int(box.u.upperBound * Double(w)) - 4
        let y0 = Int(box.v.lowerBound * Double(h)) + 4
        let y1 = Int(box.v.upperBound * Double(h)) - 4
        var signals: [Double] = []
        var snrs: [Double] = []
        // About 500 to 4000 electrons: shot noise far above the read noise (2.2 e⁻).
        for duration in [1.0 / 320, 1.0 / 160, 1.0 / 80, 1.0 / 40] {
            camera.exposureControl = .custom(ExposureSettings(duration: duration, iso: 25))
            // Three frame pairs; temporal noise from their differences (fixed patterns cancel).
            var signal = 0.0
            var variance = 0.0
            for pair in 0..<3 {
                let a = try camera.captureRAW(mode: profile.modes[0], at: Double(pair)).mosaic
                let b = try camera.captureRAW(mode: profile.modes[0], at: Double(pair) + 0.5).mosaic
                let va = cfaValues(a, color: 1, x: x0..<x1, y: y0..<y1)
                let vb = cfaValues(b, color: 1, x: x0..<x1, y: y0..<y1)
                signal += (meanAndVariance(va).mean - profile.sensor.blackLevelDN) / 3
                variance += meanAndVariance(zip(va, vb).map { $0 - $1 }).variance / 2 / 3
            }
            signals.append(log(signal))
            snrs.append(log(signal / variance.squareRoot()))
        }
        let slope = fitLine(signals, snrs).slope
        print("SNR against signal, log-log slope: \(slope) (√signal is 0.5); signals \(signals.map { exp($0) }) DN")
        #expect(abs(slope - 0.5) < 0.05, "slope \(slope)")
    }

    @Test("The same seed gives bit-identical frames; another seed does not")
    func determinism() throws {
        let profile = smallBackProfile(width: 320, height: 240)
        func frames(seed: UInt64) throws -> [[UInt16]] {
            let camera = VirtualCamera(profile: profile, seed: seed)
            camera.motion = .handheld
            return try (0..<3).map { try camera.captureRAW(mode: profile.modes[0], at: Double($0) / 30).mosaic.samples }
        }
        let a = try frames(seed: 9)
        let b = try frames(seed: 9)
        let c = try frames(seed: 10)
        let same = a == b
        let different = a != c
        #expect(same && different)
    }
}
