import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Testing

@testable import DaguerreVirtualCamera

/// Fixed-seed outputs pinned byte for byte, so refactors of the simulator's memory layout,
/// pointer handling and per-frame precomputation (no physics change) are proven to change no
/// pixel: the optical image (3 planes and distances), raw frames with camera shake and moving
/// discs, and the ISP's Y'CbCr. Each digest has a reference image in `Tests/reference` that
/// shows what it was taken of.
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
    func opticalImage() throws {
        let image = OpticalImage.render(
            scene: StudioScene(), lighting: SceneLighting(illuminant: .tungsten), lens: .backCamera,
            width: 320, height: 180, fullWidth: 1008, fullHeight: 756)
        let d = Self.digest(image.planes + [image.distance])
        print("optical image digest", String(d, radix: 16))
        #expect(d == 0xbfba060adca0be5f)
        let problem = ReferenceImages.compare(try Self.reference(optical: image), with: "virtual-camera-optical-image")
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test("Raw frames with hand shake and two moving discs under fluorescent light, and the ISP's 420f of the last: unchanged for seed 21")
    func rawFramesAndISP() throws {
        let camera = VirtualCamera(profile: smallBackProfile(width: 320, height: 240), seed: 21)
        camera.illuminant = .fluorescent
        camera.lux = 250
        camera.motion = .handheld
        camera.movingObjects = [
            MovingObject(centre: [0.2, 0.4], velocity: [0.6, 0.1], radius: 0.05, reflectance: [0.8, 0.1, 0.1]),
            MovingObject(centre: [0.7, 0.6], velocity: [-0.3, 0], radius: 0.08, reflectance: [0.1, 0.3, 0.7]),
        ]
        var mosaics: [[UInt16]] = []
        var last: RawFrame?
        for i in 0..<3 {
            let frame = try camera.captureRAW(mode: camera.profile.modes[0], at: Double(i) / 30)
            mosaics.append(frame.mosaic.samples)
            last = frame
        }
        let raw = try #require(last)
        let yuv = try VideoISP(outputPrimaries: .displayP3).process(
            raw.mosaic, whiteBalance: raw.metadata.whiteBalanceGains, fullRange: true)
        let m = Self.digest(mosaics)
        let y = Self.digest([yuv.luma, yuv.cb, yuv.cr])
        print("mosaic digest", String(m, radix: 16), "ISP digest", String(y, radix: 16))
        #expect(m == 0xed6b5c67805e97a5)
        #expect(y == 0x29b1fa7b7142736c)
        let frames = ReferenceImages.compare(try Self.reference(mosaics: mosaics, of: raw.mosaic), with: "virtual-camera-raw-frames")
        #expect(frames == nil, "\(frames ?? "")")
        let isp = ReferenceImages.compare(try Self.reference(yuv), with: "virtual-camera-isp-420f")
        #expect(isp == nil, "\(isp ?? "")")
    }

    /// The optical image's red, green and blue planes as 16-bit RGB in linear light, scaled so
    /// the brightest sample is 65535 (a quotient and a product, each rounded once as IEEE 754
    /// says, so the same planes quantize the same everywhere). The distances are left out.
    static func reference(optical image: OpticalImage) throws -> PixelBuffer {
        let peak = image.planes.map { $0.max() ?? 0 }.max() ?? 0
        var buffer = try PixelBuffer(width: image.width, height: image.height, format: .rgb16)
        let stride = buffer.bytesPerRow
        let width = image.width
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<image.height {
                for x in 0..<width {
                    for c in 0..<3 {
                        let v = peak > 0 ? min(max(image.planes[c][y * width + x] / peak, 0), 1) : 0
                        raw.storeBytes(of: UInt16((v * 65535).rounded()), toByteOffset: y * stride + (x * 3 + c) * 2, as: UInt16.self)
                    }
                }
            }
        }
        return buffer
    }

    /// The raw frames one above the other as 16-bit grey, each sample shifted up from the
    /// mosaic's bit depth to 16 bits (exact: shifting back gives the samples).
    static func reference(mosaics: [[UInt16]], of mosaic: BayerImage) throws -> PixelBuffer {
        let (width, height) = (mosaic.width, mosaic.height)
        let shift = UInt16(16 - mosaic.bitsPerSample)
        var buffer = try PixelBuffer(width: width, height: height * mosaics.count, format: .l16)
        let stride = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            for (f, samples) in mosaics.enumerated() {
                for y in 0..<height {
                    for x in 0..<width {
                        raw.storeBytes(
                            of: samples[y * width + x] << shift, toByteOffset: (f * height + y) * stride + x * 2, as: UInt16.self)
                    }
                }
            }
        }
        return buffer
    }

    /// The 4:2:0 planes as 8-bit grey, laid out as they are stored: Y' on top, then Cb and Cr
    /// side by side, each half as wide and half as high.
    static func reference(_ yuv: PlanarYCbCr420Buffer) throws -> PixelBuffer {
        let (width, height) = (yuv.width, yuv.height)
        let (cw, ch) = (yuv.width / 2, yuv.height / 2)
        var buffer = try PixelBuffer(width: width, height: height + ch, format: .l8)
        let stride = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<height { for x in 0..<width { raw[y * stride + x] = yuv.luma[y * width + x] } }
            for y in 0..<ch {
                for x in 0..<cw {
                    raw[(height + y) * stride + x] = yuv.cb[y * cw + x]
                    raw[(height + y) * stride + cw + x] = yuv.cr[y * cw + x]
                }
            }
        }
        return buffer
    }
}
