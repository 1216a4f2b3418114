import DaguerreCapture
import DaguerreCore
import DaguerreVirtualCamera
import Foundation
import Testing

/// Zero shutter lag (as iOS 17 and CameraX have it): the photo shows the scene at the moment
/// of the request. A white disc crosses a dark wall at a known speed; where it is in the photo
/// says when the photo saw the scene.
@Suite("PhotoOutput: zero shutter lag", .hangGuard, .serialized)
struct ZeroShutterLagTests {
    /// A dark, uniform wall.
    struct Wall: Scene {
        var cacheKey: String { "zsl-wall" }
        func sample(u: Double, v: Double, lighting: SceneLighting) -> SceneSample {
            SceneSample(response: lighting.neutral(0.03), distance: 2)
        }
    }

    static let start = -0.2  // the disc's u at t = 0 (field units)
    static let speed = 0.6  // field widths per second

    /// The disc's scene time in a RAW photo: its centre on the middle rows, in field units,
    /// back through its motion.
    static func sceneTime(_ m: BayerImage) -> Double? {
        var xs: [Double] = []
        for y in (m.height / 2 - 4)..<(m.height / 2 + 4) {
            let row = (0..<m.width).map { Double(m.samples[y * m.width + $0]) }
            guard let lo = row.min(), let hi = row.max(), hi > lo * 3 + 50 else { continue }
            let lit = (0..<m.width).filter { row[$0] > (lo + hi) / 2 }
            guard !lit.isEmpty else { continue }
            xs.append((Double(lit.first!) + Double(lit.last!)) / 2 + 0.5)
        }
        guard !xs.isEmpty else { return nil }
        let u = xs.reduce(0, +) / Double(xs.count) / Double(m.width)
        return (u - start) / speed
    }

    /// Lags (photo's scene time − request time) of `count` RAW photos, in seconds.
    static func lags(zeroShutterLag: Bool, count: Int = 8) throws -> [Double] {
        let rig = try SmallCamera.running(configure: { _, device in
            device.camera.scene = Wall()
            device.camera.lux = 2000
            device.camera.movingObjects = [
                MovingObject(centre: [start, 0.5], velocity: [speed, 0], radius: 0.05, reflectance: [0.9, 0.9, 0.9])
            ]
        })
        rig.output.isZeroShutterLagEnabled = zeroShutterLag
        rig.startTicking(step: 1.0 / 240)
        defer { rig.stopTicking() }
        let raw = try #require(rig.output.availableRawPhotoPixelFormatTypes.first)
        let recorder = PhotoRecorder()
        var requests: [(Int64, Double)] = []
        for i in 0..<count {
            // Requests at phases spread over the frame period (frames come at multiples of 1/30 s).
            Thread.sleep(forTimeInterval: 0.05)
            let frame = 1.0 / 30
            let target = ((rig.clock.now / frame).rounded(.up) + 1 + Double(i) / Double(count)) * frame
            let settings = PhotoSettings(rawPixelFormatType: raw)
            try rig.paused(at: target) {
                try rig.output.capturePhoto(with: settings, delegate: recorder)
            }
            requests.append((settings.uniqueID, target))
        }
        #expect(recorder.waitForFinish(count))
        var lags: [Double] = []
        for (id, requested) in requests {
            let photo = try #require(recorder.photos.first { $0.resolved.uniqueID == id })
            let mosaic = try #require(photo.buffer?.bayerImage)
            let seen = try #require(sceneTime(mosaic))
            lags.append(seen - requested)
        }
        return lags
    }

    @Test(
        "The photo's scene time is within half a frame period (16.7 ms at 30 fps) of the request; with zero shutter lag off, the lag is reported"
    )
    func lag() throws {
        let on = try Self.lags(zeroShutterLag: true)
        let off = try Self.lags(zeroShutterLag: false)
        func ms(_ v: [Double]) -> String { v.map { String(format: "%+.1f", $0 * 1000) }.joined(separator: " ") }
        print("zero shutter lag on: lags \(ms(on)) ms; off: \(ms(off)) ms")
        for lag in on { #expect(abs(lag) <= 1.0 / 60 + 0.002, "lag \(lag * 1000) ms") }
        // Off, the photo is a new exposure after the request: later, never earlier.
        for lag in off { #expect(lag > 0) }
    }
}
