import DaguerreCore
import Testing

@testable import DaguerreImage

/// The packing fast paths (16-bit TIFF/PNG output, half and float) against the one-channel-at-a-
/// time reference `PixelPack.generic`: byte for byte, including out-of-range values, NaN and
/// exact halves (rounded away from zero).
@Suite struct PixelPackTests {
    static let samples: [SIMD4<Float>] = {
        var v: [SIMD4<Float>] = [
            SIMD4(0, 1, 0.5, -0.25), SIMD4(.nan, 2, -.infinity, .infinity),
            SIMD4(0.5 / 65535, 1.5 / 65535, 65534.5 / 65535, -0.0),
        ]
        var state: UInt32 = 12345
        for _ in 0..<61 {
            var lanes = SIMD4<Float>()
            for c in 0..<4 {
                state = state &* 1664525 &+ 1013904223
                lanes[c] = Float(state >> 8) / Float(1 << 24) * 1.2 - 0.1
            }
            v.append(lanes)
        }
        return v
    }()

    @Test(arguments: [PixelFormat.rgb16, .rgba16, .rgbah, .rgbaf])
    func fastPathMatchesGenericReference(format: PixelFormat) {
        let n = Self.samples.count
        let bytes = n * format.bytesPerPixel
        var fast = [UInt8](repeating: 0xAA, count: bytes)
        var reference = [UInt8](repeating: 0x55, count: bytes)
        Self.samples.withUnsafeBufferPointer { src in
            fast.withUnsafeMutableBytes { PixelPack.pack(src.baseAddress!, count: n, format: format, into: $0.baseAddress!) }
            reference.withUnsafeMutableBytes { PixelPack.generic(src.baseAddress!, count: n, format: format, into: $0.baseAddress!) }
        }
        #expect(fast == reference, "\(format): \(zip(fast, reference).filter { $0 != $1 }.count) of \(bytes) bytes differ")
    }
}
