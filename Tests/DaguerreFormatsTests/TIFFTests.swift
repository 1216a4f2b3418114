import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

@Suite("TIFF (libtiff)")
struct TIFFTests {
    static let formats: [PixelFormat] = [.rgb8, .rgba8, .rgb16, .rgba16, .rgbh, .rgbah, .rgbf, .rgbaf, .l8, .l16, .la8, .la16]

    @Test("Round trips with every compression, checked by an independent reader", arguments: formats)
    func roundTrip(format: PixelFormat) throws {
        let dir = try TemporaryDirectory()
        let image = randomImage(width: 301, height: 247, format: format, seed: 21)  // several strips
        for compression in [EncoderOptions.TIFFCompression.none, .lzw, .deflate] {
            let path = dir.path("rt-\(compression).tif")
            try writeOurs(image, to: path, format: .tiff, compression: compression)
            let (info, back) = try decodeOurs(path)
            #expect(info.pixelFormat == format && info.randomAccess)
            #expect(info.alpha == .straight)
            #expect(back.bytes == image.bytes, "\(format) \(compression)")
            if compression != .lzw {
                // tiny_tiff.py: a pure-Python reader (no libtiff), deflate and predictors 2/3.
                let (meta, bytes) = try decodeJudge("tinytiff", path, in: dir)
                #expect(mismatches(bytes, image.bytes) == 0, "tiny_tiff disagrees on \(format) \(compression)")
                let tags = meta["tags"] as? [String: Any] ?? [:]
                if format.hasAlpha { #expect(tags["338"] as? Int == 2, "ExtraSamples unassociated") }
                #expect((tags["339"] as? [Int])?.first ?? tags["339"] as? Int == (format.component.isFloat ? 3 : 1))
                if compression == .deflate { #expect(tags["317"] as? Int == (format.component.isFloat ? 3 : 2)) }
                let rps = tags["278"] as? Int ?? 0
                #expect(rps == max(1, min(247, TIFFEncoder.stripBytes / (301 * format.bytesPerPixel))))
                // OpenCV reads 8-bit RGBA through libtiff's TIFFRGBAImage, which premultiplies
                // unassociated alpha, so RGBA8 is left to Pillow below.
            } else if [PixelFormat.rgb8, .rgb16, .rgba16, .rgbf, .rgbaf, .l8, .l16].contains(format) {
                let (_, bytes) = try decodeJudge("cv2", path, in: dir)
                #expect(mismatches(bytes, image.bytes) == 0, "OpenCV disagrees on \(format) LZW")
            }
        }
        if format == .rgb8 || format == .rgba8 || format == .l8 {
            let (_, bytes) = try decodeJudge("pillow", dir.path("rt-none.tif"), in: dir)
            #expect(mismatches(bytes, image.bytes) == 0, "Pillow disagrees on \(format)")
        }
    }

    @Test("Uncompressed strips hold the same bytes whatever the row batches and the row stride")
    func stripBatches() throws {
        let dir = try TemporaryDirectory()
        // rgba16 at 1500 px: 43 rows a strip, so 180 rows make 4 whole strips and a short last one.
        let image = randomImage(width: 1500, height: 180, format: .rgba16, seed: 5)
        let rowBytes = image.rowBytes
        #expect(TIFFEncoder.stripBytes / rowBytes == 43)
        for (name, batches, padding) in [
            ("whole", [180], 0), ("odd", [1, 42, 44, 7, 86], 0), ("rows", [Int](repeating: 1, count: 180), 0),
            ("padded", [100, 80], 64),
        ] {
            let path = dir.path("\(name).tif")
            let stride = rowBytes + padding
            var padded = [UInt8](repeating: 0xEE, count: stride * image.height)
            for y in 0..<image.height {
                padded.replaceSubrange(y * stride..<(y * stride + rowBytes), with: image.bytes[y * rowBytes..<(y + 1) * rowBytes])
            }
            let encoder = try TIFFEncoder(
                path: path,
                options: EncoderOptions(
                    format: .tiff, width: image.width, height: image.height,
                    rowFormat: image.format, tiffCompression: .none))
            var y = 0
            try padded.withUnsafeBytes { raw in
                for count in batches {
                    try encoder.writeRows(raw.baseAddress! + y * stride, bytesPerRow: stride, count: count)
                    y += count
                }
            }
            try encoder.finish()
            let (_, back) = try decodeOurs(path)
            #expect(mismatches(back.bytes, image.bytes) == 0, "\(name)")
            let (_, judged) = try decodeJudge("tinytiff", path, in: dir)
            #expect(mismatches(judged, image.bytes) == 0, "tiny_tiff disagrees on \(name)")
        }
    }

    @Test(
        "Tiled files: whole, column windows and rows in any order",
        arguments: [("uint8", 3, -1), ("uint16", 1, -1), ("float16", 4, 1), ("float32", 4, 2), ("uint8", 2, 0)])
    func tiled(dtype: String, channels: Int, extra: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("tiled.tif")
        let raw = dir.path("tiled.raw")
        _ = try Judge.python("tiny_tiff.py", ["write-tiled", path, "70", "45", "16", "32", dtype, "\(channels)", "\(extra)", raw])
        let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let decoder = try ImageReader.open(path: path)
        let info = decoder.info
        #expect(info.randomAccess && info.width == 70 && info.height == 45)
        #expect(info.alpha == (extra == 1 ? .premultiplied : .straight))
        let bpp = info.pixelFormat.bytesPerPixel
        #expect(bpp * 70 * 45 == expected.count)
        #expect(tight(try ImageReader.readAll(decoder)).bytes == expected)
        let cols = try decoder.setColumns(20..<51)
        #expect(cols == 20..<51)
        var band = [UInt8](repeating: 0, count: cols.count * bpp * 5)
        for y in [40, 0, 30, 12] {
            try band.withUnsafeMutableBytes { try decoder.readRows(y: y, count: 5, into: $0.baseAddress!, bytesPerRow: cols.count * bpp) }
            for r in 0..<5 {
                let ref = expected[((y + r) * 70 + 20) * bpp..<((y + r) * 70 + 51) * bpp]
                #expect(Array(band[r * cols.count * bpp..<(r + 1) * cols.count * bpp]) == Array(ref), "row \(y + r)")
            }
        }
    }

    @Test("ICC profile in tag 34675")
    func iccProfile() throws {
        let dir = try TemporaryDirectory()
        let icc = try ColorSpace.displayP3.iccProfileData()
        let path = dir.path("p3.tif")
        try writeOurs(randomImage(width: 20, height: 10, format: .rgb16, seed: 9), to: path, format: .tiff, iccProfile: icc)
        try expectEmbeddedDisplayP3(path, icc: icc)
    }

    @Test("Palette, CMYK, bilevel and YCbCr-JPEG TIFFs are refused with .unsupported")
    func unsupported() throws {
        let dir = try TemporaryDirectory()
        let script = """
            import sys
            from PIL import Image
            d = sys.argv[1]
            im = Image.open('\(Fixture.kodim(4))').resize((64, 48))
            im.convert('P').save(d + '/palette.tif')
            im.convert('CMYK').save(d + '/cmyk.tif')
            im.convert('1').save(d + '/bilevel.tif')
            im.convert('YCbCr').save(d + '/ycbcr.tif', compression='jpeg')
            print('{}')
            """
        try Judge.run("python3", ["-c", script, dir.url.path])
        for name in ["palette", "cmyk", "bilevel", "ycbcr"] {
            expectDaguerreError(name, { $0.isUnsupported }) { _ = try ImageReader.readAll(path: dir.path("\(name).tif")) }
        }
    }
}
