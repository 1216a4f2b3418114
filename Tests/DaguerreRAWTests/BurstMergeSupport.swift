import DaguerreCore
import DaguerreVirtualCamera
import Foundation

/// Bursts from the virtual camera, and the measurements the burst merge is judged by: SNR on a
/// grey patch of the studio chart (raw green photosites, black subtracted) and MTF50 of the
/// slanted edge.
enum BurstScenes {
    /// The back camera's photosites (pitch, noise, optics) on a smaller sensor, so debug-build
    /// tests stay quick: a window of the 12 MP sensor that sees the whole studio scene smaller.
    static func profile(width: Int, height: Int) -> VirtualCameraProfile {
        var p = VirtualCameraProfile.back
        p.sensor.width = width
        p.sensor.height = height
        p.modes = [SensorReadoutMode(width: width, height: height, maxFrameRate: 30)]
        return p
    }

    /// A burst of `count` back-to-back exposures of `duration` each from `start`, and one long
    /// exposure of `count × duration` over the same time (the same light), at ISOs that put
    /// both in the same place of the sensor's range.
    struct Burst {
        var frames: [BayerImage]
        var long: BayerImage
        /// The first frame's DNG colour calibration, with its NoiseProfile.
        var calibration: RawColorCalibration
        var noiseProfile: [(scale: Double, offset: Double)] { calibration.noiseProfile }
    }

    static func burst(
        camera: VirtualCamera, count: Int, duration: Double, iso: Double, start: Double = 0.2, long: Bool = true
    ) throws -> Burst {
        let mode = camera.profile.modes[0]
        let gains = SIMD3<Double>(2, 1, 1.6)
        var frames: [BayerImage] = []
        var calibration = RawColorCalibration()
        for i in 0..<count {
            let f = try camera.captureStill(
                mode: mode, at: start + Double(i) * duration, exposure: ExposureSettings(duration: duration, iso: iso),
                whiteBalanceGains: gains)
            frames.append(f.mosaic)
            if i == 0 { calibration = camera.calibration(for: f) }
        }
        let longFrame =
            long
            ? try camera.captureStill(
                mode: mode, at: start, exposure: ExposureSettings(duration: duration * Double(count), iso: iso / Double(count)),
                whiteBalanceGains: gains
            ).mosaic : frames[0]
        return Burst(frames: frames, long: longFrame, calibration: calibration)
    }

    /// The photosite box (x, y ranges) of the middle `fraction` of chart patch `index`.
    static func patchBox(_ index: Int, in m: BayerImage, fraction: Double = 0.6) -> (x: Range<Int>, y: Range<Int>) {
        let box = StudioScene().chartPatchBox(index)
        func inner(_ r: ClosedRange<Double>, _ size: Int) -> Range<Int> {
            let c = (r.lowerBound + r.upperBound) / 2 * Double(size)
            let h = (r.upperBound - r.lowerBound) / 2 * Double(size) * fraction
            return Int((c - h).rounded())..<Int((c + h).rounded())
        }
        return (inner(box.u, m.width), inner(box.v, m.height))
    }

    /// Mean over standard deviation of the green photosites in `box`, black subtracted.
    static func greenSNR(_ m: BayerImage, box: (x: Range<Int>, y: Range<Int>)) -> Double {
        var values: [Double] = []
        for y in box.y {
            for x in box.x where m.pattern.color(x: x, y: y) == 1 {
                values.append(Double(m.samples[y * m.width + x]) - m.blackLevel[(y & 1) * 2 + (x & 1)])
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return mean / variance.squareRoot()
    }

    /// The mean of the green photosites in `box`, black subtracted, as a share of white − black.
    static func greenMean(_ m: BayerImage, box: (x: Range<Int>, y: Range<Int>)) -> Double {
        var sum = 0.0
        var n = 0.0
        for y in box.y {
            for x in box.x where m.pattern.color(x: x, y: y) == 1 {
                let black = m.blackLevel[(y & 1) * 2 + (x & 1)]
                sum += (Double(m.samples[y * m.width + x]) - black) / (Double(m.whiteLevel) - black)
                n += 1
            }
        }
        return sum / n
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    /// MTF50, in cycles per photosite, of the left edge of the studio's slanted square (bright
    /// card on the left, dark square on the right, tilted 5°), as ISO 12233 measures it: every
    /// photosite is normalized by its colour's dark and bright levels, each row's edge is found
    /// (the centroid of the derivative), a line is fitted through them, the photosites near it
    /// are binned at a quarter photosite by their distance to it (the edge spread function), and
    /// the magnitude of the Fourier transform of its derivative (Hamming window) falls to half.
    static func mtf50(_ m: BayerImage, rows: Int = 110, reach: Int = 32) -> Double {
        let studio = StudioScene()
        let w = Double(m.width)
        let cx = studio.edgeCentre.x * w
        let cy = studio.edgeCentre.y * Double(m.height)
        let half = StudioScene.edgeHalfSize * w
        let theta = StudioScene.edgeAngle
        /// The ideal edge at row y (the scene's geometry; shake and distortion move it a little).
        func ideal(_ y: Double) -> Double { cx + (-half - (y - cy) * sin(theta)) / cos(theta) }
        let ys = Array(Int(cy) - rows / 2..<Int(cy) + rows / 2)
        func sample(_ x: Int, _ y: Int) -> Double { Double(m.samples[y * m.width + x]) }
        // Each colour's levels, well away from the edge on either side.
        var bright = [Double](repeating: 0, count: 3)
        var dark = bright
        var nb = bright
        var nd = bright
        for y in ys {
            let e = Int(ideal(Double(y)))
            for x in e - reach - 16..<e - reach {
                bright[m.pattern.color(x: x, y: y)] += sample(x, y)
                nb[m.pattern.color(x: x, y: y)] += 1
            }
            for x in e + reach..<e + reach + 16 {
                dark[m.pattern.color(x: x, y: y)] += sample(x, y)
                nd[m.pattern.color(x: x, y: y)] += 1
            }
        }
        for c in 0..<3 {
            bright[c] /= nb[c]
            dark[c] /= nd[c]
        }
        func normalized(_ x: Int, _ y: Int) -> Double {
            let c = m.pattern.color(x: x, y: y)
            return (sample(x, y) - dark[c]) / (bright[c] - dark[c])
        }
        // Each row's edge: the centroid of the (smoothed) fall from bright to dark.
        var centres: [(y: Double, x: Double)] = []
        for y in ys {
            let e = Int(ideal(Double(y)))
            let xs = Array(e - reach..<e + reach)
            let v = xs.map { normalized($0, y) }
            var sum = 0.0
            var moment = 0.0
            for i in 2..<v.count - 2 {
                let d = max((v[i - 2] + v[i - 1]) - (v[i + 1] + v[i + 2]), 0)
                sum += d
                moment += d * Double(xs[i])
            }
            if sum > 0 { centres.append((Double(y), moment / sum)) }
        }
        // The least-squares line x = a + b·y through the rows' edges.
        let n = Double(centres.count)
        let my = centres.reduce(0) { $0 + $1.y } / n
        let mx = centres.reduce(0) { $0 + $1.x } / n
        let b =
            centres.reduce(0) { $0 + ($1.y - my) * ($1.x - mx) } / max(centres.reduce(0) { $0 + ($1.y - my) * ($1.y - my) }, 1e-9)
        let a = mx - b * my
        let cosine = 1 / (1 + b * b).squareRoot()
        // The edge spread function at a quarter photosite.
        let oversampling = 4.0
        let bins = 2 * reach * Int(oversampling)
        var sums = [Double](repeating: 0, count: bins)
        var counts = [Double](repeating: 0, count: bins)
        for y in ys {
            let e = Int(a + b * Double(y))
            for x in e - reach..<e + reach {
                let distance = (Double(x) - (a + b * Double(y))) * cosine
                let i = Int((distance * oversampling).rounded()) + bins / 2
                guard i >= 0, i < bins else { continue }
                sums[i] += normalized(x, y)
                counts[i] += 1
            }
        }
        var esf = [Double](repeating: .nan, count: bins)
        for i in 0..<bins where counts[i] > 0 { esf[i] = sums[i] / counts[i] }
        for i in 0..<bins where esf[i].isNaN {
            let left = (0..<i).last { !esf[$0].isNaN }
            let right = (i + 1..<bins).first { !esf[$0].isNaN }
            esf[i] = [left, right].compactMap { $0 }.map { esf[$0] }.reduce(0, +) / Double([left, right].compactMap { $0 }.count)
        }
        // The line spread function, windowed around its peak, and its spectrum.
        var lsf = [Double](repeating: 0, count: bins)
        for i in 1..<bins - 1 { lsf[i] = (esf[i - 1] - esf[i + 1]) / 2 }
        let peak = lsf.indices.max { lsf[$0] < lsf[$1] } ?? bins / 2
        let span = Double(max(peak, bins - 1 - peak))
        for i in 0..<bins { lsf[i] *= 0.54 + 0.46 * cos(Double.pi * Double(i - peak) / span) }
        func magnitude(_ f: Double) -> Double {
            var re = 0.0
            var im = 0.0
            for i in 0..<bins {
                let phase = 2 * Double.pi * f * Double(i) / oversampling
                re += lsf[i] * cos(phase)
                im -= lsf[i] * sin(phase)
            }
            return (re * re + im * im).squareRoot()
        }
        let dc = magnitude(0)
        var previous = (f: 0.0, v: 1.0)
        for step in 1...200 {
            let f = Double(step) * 0.005
            let v = magnitude(f) / dc
            if v < 0.5 { return previous.f + (previous.v - 0.5) / (previous.v - v) * (f - previous.f) }
            previous = (f, v)
        }
        return 1
    }
}
