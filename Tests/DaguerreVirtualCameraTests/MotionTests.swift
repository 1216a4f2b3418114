import DaguerreCore
import DaguerreFormats
import Foundation
import Testing

@testable import DaguerreVirtualCamera

/// Camera shake on the slanted edge: measurable at 1/15 s, not at 1/500 s,
/// and at least halved by stabilization.
@Suite struct MotionTests {
    /// The 10–90% rise distance, in pixels, of the slanted square's left edge: photosites are
    /// normalized per colour (so the mosaic reads as one grey image), each row's 50% crossing
    /// is found, and the rows' samples are binned at 1/4 pixel around it into one edge profile.
    static func edgeRise(_ m: BayerImage) -> Double {
        let studio = StudioScene()
        let cx = Int(studio.edgeCentre.x * Double(m.width))
        let cy = Int(studio.edgeCentre.y * Double(m.height))
        let half = Int(StudioScene.edgeHalfSize * Double(m.width))
        let x0 = cx - half - 12
        let x1 = cx - half + 12
        var dark = [Double](repeating: 0, count: 3)
        var bright = dark
        var nd = dark
        var nb = dark
        for y in cy - 40..<cy + 40 {
            for x in cx - half - 30..<cx - half - 18 {
                let c = m.pattern.color(x: x, y: y)
                bright[c] += Double(m.samples[y * m.width + x])
                nb[c] += 1
            }
            for x in cx - half + 18..<cx - half + 30 {
                let c = m.pattern.color(x: x, y: y)
                dark[c] += Double(m.samples[y * m.width + x])
                nd[c] += 1
            }
        }
        for c in 0..<3 {
            dark[c] /= nd[c]
            bright[c] /= nb[c]
        }
        var bins = [Double](repeating: 0, count: 4 * 24 + 1)
        var counts = bins
        for y in cy - 40..<cy + 40 {
            let row = (x0..<x1).map { x -> Double in
                let c = m.pattern.color(x: x, y: y)
                return (Double(m.samples[y * m.width + x]) - dark[c]) / (bright[c] - dark[c])
            }
            // Bright on the left, dark on the right: the first fall through 0.5 (smoothed by 3).
            var smooth: [Double] = []
            for i in 1..<row.count - 1 {
                let a: Double = row[i - 1] + row[i] + row[i + 1]
                smooth.append(a / 3)
            }
            guard let k = (0..<smooth.count - 1).first(where: { smooth[$0] >= 0.5 && smooth[$0 + 1] < 0.5 }) else { continue }
            let fraction: Double = (smooth[k] - 0.5) / (smooth[k] - smooth[k + 1])
            let edge = Double(k + 1) + fraction
            for (i, v) in row.enumerated() {
                let b = Int(((Double(i) - edge) * 4).rounded()) + 48
                if b >= 0, b < bins.count {
                    bins[b] += v
                    counts[b] += 1
                }
            }
        }
        let esf = zip(bins, counts).map { $1 > 0 ? $0 / $1 : .nan }
        let p90 = esf.firstIndex { $0 < 0.9 } ?? 0
        let p10 = esf.firstIndex { $0 < 0.1 } ?? esf.count
        return Double(p10 - p90) / 4
    }

    static func meanRise(duration: Double, motion: CameraMotion, stabilized: Bool) throws -> Double {
        let profile = smallBackProfile(width: 1008, height: 756)
        let camera = VirtualCamera(profile: profile, seed: 21)
        camera.lux = 2000
        camera.motion = motion
        camera.isStabilizationEnabled = stabilized
        camera.whiteBalanceControl = .custom([1, 1, 1])
        let iso = min(25 * (1.0 / 15) / duration, 2000)
        camera.exposureControl = .custom(ExposureSettings(duration: duration, iso: iso))
        // Four exposures at different moments of the shake.
        let rises = try [0.11, 0.37, 0.83, 1.29].map { edgeRise(try camera.captureRAW(mode: profile.modes[0], at: $0).mosaic) }
        return rises.reduce(0, +) / Double(rises.count)
    }

    @Test("Camera shake blurs the slanted edge at 1/15 s and not at 1/500 s; stabilization at least halves it")
    func shakeBlur() throws {
        let still = try Self.meanRise(duration: 1.0 / 15, motion: .tripod, stabilized: false)
        let slow = try Self.meanRise(duration: 1.0 / 15, motion: .handheld, stabilized: false)
        let fast = try Self.meanRise(duration: 1.0 / 500, motion: .handheld, stabilized: false)
        let slowOIS = try Self.meanRise(duration: 1.0 / 15, motion: .handheld, stabilized: true)
        func shake(_ r: Double) -> Double { max(r * r - still * still, 0).squareRoot() }
        print(
            "Edge 10–90% rise: tripod \(still) px; handheld 1/15 s \(slow) px (shake blur \(shake(slow))), 1/500 s \(fast) px (\(shake(fast))), 1/15 s with OIS \(slowOIS) px (\(shake(slowOIS)))"
        )
        #expect(shake(slow) >= 1, "1/15 s handheld blurs the edge measurably")
        #expect(shake(fast) < 0.5, "1/500 s does not")
        #expect(shake(slowOIS) <= shake(slow) / 2, "stabilization at least halves it")
    }
}

/// Moving objects: a disc travels at its velocity and smears by exactly its own
/// motion during the exposure.
@Suite struct MovingObjectTests {
    @Test("A disc moving at 0.6 fields/s is displaced by 0.06 fields in 0.1 s and its edge smears by the 1/30 s travel")
    func movingDisc() throws {
        let (w, h) = (640, 480)
        let profile = smallBackProfile(width: w, height: h, vignetting: 0)
        func frame(at t: Double, velocity: Double) throws -> BayerImage {
            let camera = VirtualCamera(profile: profile, scene: FlatScene(reflectance: 0.18, distance: 2), seed: 12)
            camera.lux = 1000
            camera.exposureControl = .custom(ExposureSettings(duration: 1.0 / 30, iso: 25))
            camera.whiteBalanceControl = .custom([1, 1, 1])
            camera.movingObjects = [
                MovingObject(centre: [0.3, 0.5], velocity: [velocity, 0], radius: 0.05, reflectance: [0.8, 0.8, 0.8])
            ]
            return try camera.captureRAW(mode: profile.modes[0], at: t).mosaic
        }
        // Green photosites of the centre row, scaled so the wall is 0 and the disc 1.
        func row(_ m: BayerImage) -> [(x: Double, v: Double)] {
            let y = h / 2
            let greens = (0..<w).filter { m.pattern.color(x: $0, y: y) == 1 }
            let values = greens.map { Double(m.samples[y * w + $0]) }
            let wall = values.prefix(40).reduce(0, +) / 40
            let disc = values.max() ?? 1
            return zip(greens, values).map { (Double($0), ($1 - wall) / (disc - wall)) }
        }
        func leadingEdge(_ r: [(x: Double, v: Double)]) -> (rise: Double, centre: Double) {
            let last10 = r.last { $0.v > 0.1 }?.x ?? 0
            let last90 = r.last { $0.v > 0.9 }?.x ?? 0
            let lit = r.filter { $0.v > 0.5 }
            return (last10 - last90, lit.map(\.x).reduce(0, +) / Double(max(lit.count, 1)))
        }
        let still = leadingEdge(row(try frame(at: 0, velocity: 0)))
        let a = leadingEdge(row(try frame(at: 0, velocity: 0.6)))
        let b = leadingEdge(row(try frame(at: 0.1, velocity: 0.6)))
        let travel = 0.6 / 30 * Double(w)  // 12.8 px during the exposure
        print(
            "moving disc: still edge rise \(still.rise) px; moving rise \(a.rise) px (10–90% of a \(travel) px smear is \(0.8 * travel)); centre moved \(b.centre - a.centre) px in 0.1 s (expected \(0.06 * Double(w)))"
        )
        #expect(still.rise <= 3)
        #expect(abs(a.rise - 0.8 * travel) <= 3)
        #expect(abs((b.centre - a.centre) - 0.06 * Double(w)) <= 2)
    }
}

/// The rolling shutter and the scripted pocket drop ("rolling-shutter readout time",
/// "a scripted pocket drop at a chosen time").
@Suite struct ReadoutAndDropTests {
    /// The mean x of photosites brighter than halfway between wall and disc, in row `y`.
    static func centre(_ m: BayerImage, row y: Int) -> Double {
        let values = (0..<m.width).map { Double(m.samples[y * m.width + $0]) }
        let lo = values.min() ?? 0
        let hi = values.max() ?? 1
        let lit = (0..<m.width).filter { values[$0] > (lo + hi) / 2 }
        return Double(lit.reduce(0, +)) / Double(max(lit.count, 1))
    }

    @Test("Rolling shutter: a disc crossing the frame fast is skewed by its speed × the readout time between rows")
    func rollingShutter() throws {
        let (w, h) = (640, 480)
        let profile = smallBackProfile(width: w, height: h, vignetting: 0)
        let camera = VirtualCamera(profile: profile, scene: FlatScene(reflectance: 0.05, distance: 2), seed: 4)
        camera.lux = 20_000
        camera.exposureControl = .custom(ExposureSettings(duration: 1.0 / 8000, iso: 100))
        camera.whiteBalanceControl = .custom([1, 1, 1])
        let speed = 8.0  // fields per second
        camera.movingObjects = [MovingObject(centre: [0.3, 0.5], velocity: [speed, 0], radius: 0.06, reflectance: [0.9, 0.9, 0.9])]
        let m = try camera.captureRAW(mode: profile.modes[0], at: 0).mosaic
        let top = h / 2 - 20
        let bottom = h / 2 + 20
        let skew = Self.centre(m, row: bottom) - Self.centre(m, row: top)
        let expected = speed * Double(w) * profile.sensor.readoutTime * Double(bottom - top) / Double(h)
        print(
            "rolling shutter: disc centre moves \(skew) px over \(bottom - top) rows (expected \(expected) px from a \(profile.sensor.readoutTime * 1000) ms readout)"
        )
        #expect(abs(skew - expected) < 1.5)
    }

    @Test("Pocket drop: from the scripted time the picture falls away and goes dark, and the frame metadata reports the motion")
    func pocketDrop() throws {
        let profile = smallBackProfile(width: 320, height: 240)
        let camera = VirtualCamera(profile: profile, seed: 6)
        camera.exposureControl = .custom(ExposureSettings(duration: 1.0 / 60, iso: 100))
        camera.motion = CameraMotion(shakeSpeed: 0, seed: 1, pocketDropTime: 1.0)
        let before = try camera.captureRAW(mode: profile.modes[0], at: 0.9)
        let falling = try camera.captureRAW(mode: profile.modes[0], at: 1.1)
        let inPocket = try camera.captureRAW(mode: profile.modes[0], at: 1.5)
        let level = { (f: RawFrame) in FrameStatistics(f.mosaic).meanGreen }
        print(
            "pocket drop: level \(level(before)) → \(level(falling)) → \(level(inPocket)); image speed \(before.metadata.motionSpeed) → \(falling.metadata.motionSpeed) px/s"
        )
        #expect(before.metadata.motionSpeed == 0 && falling.metadata.motionSpeed > 1000)
        #expect(level(inPocket) < level(before) * 0.05)
        #expect(level(falling) < level(before))
    }

    @Test("Pan: the image moves at the scripted speed, easing in and out without a jump, and stays where the pan left it")
    func pan() throws {
        var motion = CameraMotion.tripod
        motion.pan = CameraMotion.Pan(start: 1, duration: 0.6, velocity: [900, -300])
        let at = { (t: Double) in motion.displacement(at: t, stabilized: false) }
        #expect(at(0.99) == .zero)
        // Speed in the steady part is the velocity's; the ease-in starts from rest.
        let mid = (at(1.3005) - at(1.2995)) / 0.001
        #expect(abs(mid.x - 900) < 0.5 && abs(mid.y + 300) < 0.5)
        #expect(abs((at(1.0001) - at(1.0)).x / 0.0001) < 1)
        // No jump anywhere: consecutive millisecond steps never exceed the top speed.
        var t = 0.95
        while t < 1.7 {
            #expect(abs((at(t + 0.001) - at(t)).x) <= 0.9 + 1e-9)
            t += 0.001
        }
        // It ends (duration − ease)·velocity away and stays there.
        #expect(abs(at(1.6).x - 900 * 0.45) < 1e-9 && at(2.5) == at(1.6))
        // Out-of-range pans are refused by the camera's checks.
        let camera = VirtualCamera(profile: smallBackProfile(width: 320, height: 240), seed: 1)
        motion.pan?.velocity = [.infinity, 0]
        camera.motion = motion
        #expect(throws: DaguerreError.self) { _ = try camera.captureRAW(mode: camera.profile.modes[0], at: 1.2) }
    }
}
