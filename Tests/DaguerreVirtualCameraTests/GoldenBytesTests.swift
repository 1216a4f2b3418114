import DaguerreCore
import DaguerreFormats
import Testing
@testable import DaguerreVirtualCamera

/// Fixed-seed outputs pinned byte for byte, so refactors of the simulator's memory layout,
/// pointer handling and per-frame precomputation (no physics change) are proven to change no
/// pixel: the optical image (3 planes and distances), raw frames with camera shake and moving
/// discs, and the ISP's Y'CbCr.
@Suite("Virtual camera: fixed-seed outputs, byte for byte")
struct GoldenBytesTests {
    /// FNV-1a (64-bit) over the arrays' bytes, one array after another.
    static func digest<T: BitwiseCopyable>(_ arrays: [[T]]) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for a in arrays {
            a.withUnsafeBytes { bytes in
                for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
            }
        }
        return h
    }

    @Test("The optical image of the studio scene (back lens, tungsten, 320×180 of a 4:3 sensor): planes and distances unchanged")
    func opticalImage() {
        let image = OpticalImage.render(scene: StudioScene(), lighting: SceneLighting(illuminant: .tungsten), lens: .backCamera,
                                        width: 320, height: 180, fullWidth: 1008, fullHeight: 756)
        let d = Self.digest(image.planes + [image.distance])
        print("optical image digest", String(d, radix: 16))
        #expect(d == 0xbfba060adca0be5f)
    }

    @Test("Raw frames with hand shake and two moving discs under fluorescent light, and the ISP's 420f of the last: unchanged for seed 21")
    func rawFramesAndISP() throws {
        let camera = VirtualCamera(profile: smallBackProfile(width: 320, height: 240), seed: 21)
        camera.illuminant = .fluorescent
        camera.lux = 250
        camera.motion = .handheld
        camera.movingObjects = [MovingObject(centre: [0.2, 0.4], velocity: [0.6, 0.1], radius: 0.05, reflectance: [0.8, 0.1, 0.1]),
                                MovingObject(centre: [0.7, 0.6], velocity: [-0.3, 0], radius: 0.08, reflectance: [0.1, 0.3, 0.7])]
        var mosaics: [[UInt16]] = []
        var last: RawFrame?
        for i in 0..<3 {
            let frame = try camera.captureRAW(mode: camera.profile.modes[0], at: Double(i) / 30)
            mosaics.append(frame.mosaic.samples)
            last = frame
        }
        let raw = try #require(last)
        let yuv = try VideoISP(outputPrimaries: .displayP3).process(raw.mosaic, whiteBalance: raw.metadata.whiteBalanceGains, fullRange: true)
        let m = Self.digest(mosaics), y = Self.digest([yuv.luma, yuv.cb, yuv.cr])
        print("mosaic digest", String(m, radix: 16), "ISP digest", String(y, radix: 16))
        #expect(m == 0xed6b5c67805e97a5)
        #expect(y == 0x29b1fa7b7142736c)
    }
}
