import DaguerreCore
import DaguerreTestSupport
import Testing

@testable import DaguerreImage

/// The row kernels' fast paths against plain references (libvips style), at every row length
/// around their four-pixel groups, with values outside 0…1, infinities and NaN: RGBf unpacking,
/// and the RGB8 and RGB16 table packs (SPEC I2, I7; the RAW develop's hot output paths).
@Suite struct PixelFastPathTests {
    static func value(_ rng: inout SeededRandom) -> Float {
        switch rng.next() % 16 {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return -0.0
        default: return Float(Int(rng.next() % 6000)) / 2000 - 0.5  // −0.5 … 2.5
        }
    }

    @Test("RGBf rows unpack four pixels at a time to what the generic path gives, at every length from 0 to 21")
    func rgbfUnpackEqualsGeneric() {
        var rng = SeededRandom(seed: 3)
        for n in 0...21 {
            let floats = (0..<(3 * n)).map { _ in Self.value(&rng) }
            var fast = [SIMD4<Float>](repeating: SIMD4(repeating: 7), count: n)
            var reference = fast
            floats.withUnsafeBytes { src in
                fast.withUnsafeMutableBufferPointer { PixelUnpack.unpack(src.baseAddress!, format: .rgbf, count: n, into: $0.baseAddress!) }
                reference.withUnsafeMutableBufferPointer { out in
                    for i in 0..<n { out[i] = SIMD4(floats[3 * i], floats[3 * i + 1], floats[3 * i + 2], 1) }
                }
            }
            for i in 0..<n {
                #expect(
                    (0..<4).allSatisfy { fast[i][$0].bitPattern == reference[i][$0].bitPattern },
                    "n \(n), pixel \(i): \(fast[i]) vs \(reference[i])")
            }
        }
    }

    /// RGB8 and RGB16 (one table lookup per channel) against RGBA8 and RGBA16 of the same opaque
    /// pixels (the pixel-at-a-time lookup, and the curve table followed by ``PixelPack``).
    @Test("RGB8 and RGB16 table packs equal the four-channel paths' colour channels", arguments: [ColorSpace.sRGB, .displayP3])
    func rgbTablePacksEqualFourChannelPaths(destination: ColorSpace) throws {
        for (three, four) in [(PixelFormat.rgb8, PixelFormat.rgba8), (.rgb16, .rgba16)] {
            let fast = try OutputConverter(
                format: three, alpha: .none, destination: destination, working: .extendedLinearSRGB, workingFormat: .rgbah)
            let reference = try OutputConverter(
                format: four, alpha: .none, destination: destination, working: .extendedLinearSRGB, workingFormat: .rgbah)
            let bytes = three.bytesPerPixel / 3
            var rng = SeededRandom(seed: 5)
            for n in 0...21 {
                var pixels: [SIMD4<Float>] = []
                for _ in 0..<n {
                    let r = Self.value(&rng)
                    let g = Self.value(&rng)
                    let b = Self.value(&rng)
                    pixels.append(SIMD4(r, g, b, 1))
                }
                var a = pixels
                var b = pixels
                var got = [UInt8](repeating: 1, count: 3 * bytes * n)
                var want = [UInt8](repeating: 2, count: 4 * bytes * n)
                a.withUnsafeMutableBufferPointer { px in
                    got.withUnsafeMutableBytes { fast.convert(px.baseAddress!, count: n, into: $0.baseAddress!) }
                }
                b.withUnsafeMutableBufferPointer { px in
                    want.withUnsafeMutableBytes { reference.convert(px.baseAddress!, count: n, into: $0.baseAddress!) }
                }
                var colour: [UInt8] = []
                for i in 0..<n { colour += want[(4 * bytes * i)..<(4 * bytes * i + 3 * bytes)] }
                #expect(got == colour, "\(three), \(destination.name), n \(n)")
            }
        }
    }

    /// A RAW develop's rows packed straight from their floats (``OutputConverter/convert(floatRGB:count:into:)``,
    /// sixteen values a conversion) against the same pixels spread to four floats and packed.
    @Test("RGB floats pack straight to RGB8 and RGB16 as their four-float pixels do, at every length from 0 to 40")
    func floatRGBPacksEqualPixelPacks() throws {
        for format in [PixelFormat.rgb8, .rgb16] {
            let converter = try OutputConverter(
                format: format, alpha: .none, destination: .sRGB, working: .extendedLinearSRGB, workingFormat: .rgbah)
            #expect(converter.packsFloatRGB)
            let bytes = format.bytesPerPixel
            var rng = SeededRandom(seed: 7)
            for n in 0...40 {
                let floats = (0..<(3 * n)).map { _ in Self.value(&rng) }
                var pixels = (0..<n).map { SIMD4(floats[3 * $0], floats[3 * $0 + 1], floats[3 * $0 + 2], 1) }
                var got = [UInt8](repeating: 1, count: bytes * n)
                var want = [UInt8](repeating: 2, count: bytes * n)
                floats.withUnsafeBufferPointer { src in
                    got.withUnsafeMutableBytes { converter.convert(floatRGB: src.baseAddress!, count: n, into: $0.baseAddress!) }
                }
                pixels.withUnsafeMutableBufferPointer { px in
                    want.withUnsafeMutableBytes { converter.convert(px.baseAddress!, count: n, into: $0.baseAddress!) }
                }
                #expect(got == want, "\(format), n \(n)")
            }
        }
        // A matrix to other primaries, or alpha in the output, takes the four-float path.
        let p3 = try OutputConverter(
            format: .rgb16, alpha: .none, destination: .displayP3, working: .extendedLinearSRGB, workingFormat: .rgbah)
        let alpha = try OutputConverter(
            format: .rgba8, alpha: .premultiplied, destination: .sRGB, working: .extendedLinearSRGB, workingFormat: .rgbah)
        #expect(!p3.packsFloatRGB && !alpha.packsFloatRGB)
    }
}
