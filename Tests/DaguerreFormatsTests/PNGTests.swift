import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// CRC-32 (PNG's), to hand-build chunks.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
}

func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    return be(UInt32(data.count)) + body + be(crc32(body))
}

@Suite("PNG (libpng)")
struct PNGTests {
    @Test("An IHDR claiming 1 000 000 × 1 000 000 is refused with .tooLarge at open")
    func hugeHeader() throws {
        let ihdr: [UInt8] = [0x00, 0x0F, 0x42, 0x40, 0x00, 0x0F, 0x42, 0x40, 8, 2, 0, 0, 0]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr) + pngChunk("IEND", [])
        let dir = try TemporaryDirectory()
        let path = dir.path("huge.png")
        try Data(png).write(to: URL(fileURLWithPath: path))
        expectDaguerreError("huge IHDR (file)", { $0.isTooLarge }) { _ = try ImageReader.open(path: path) }
        expectDaguerreError("huge IHDR (memory)", { $0.isTooLarge }) { _ = try ImageReader.open(data: png) }
        // Under raised dimension limits, the pixel-count limit still refuses it.
        let limits = Limits(maxDimension: 2_000_000)
        expectDaguerreError("huge IHDR, pixel limit", { $0.isTooLarge }) { _ = try ImageReader.open(data: png, limits: limits) }
    }

    @Test(
        "Round trips through our encoder, checked by Pillow or OpenCV",
        arguments: [PixelFormat.rgb8, .rgba8, .l8, .la8, .rgb16, .rgba16, .l16, .la16])
    func roundTrip(format: PixelFormat) throws {
        let dir = try TemporaryDirectory()
        let image = randomImage(width: 61, height: 37, format: format, seed: 11)
        let path = dir.path("rt.png")
        try writeOurs(image, to: path, format: .png)
        let (info, back) = try decodeOurs(path)
        #expect(info.pixelFormat == format)
        #expect(info.alpha == .straight)
        #expect(back.bytes == image.bytes)
        // An independent reader: Pillow keeps 8-bit and 16-bit gray; OpenCV keeps 16-bit colour.
        let judge: String?
        switch format {
        case .rgb8, .rgba8, .l8, .la8, .l16: judge = "pillow"
        case .rgb16, .rgba16: judge = "cv2"
        default: judge = nil  // LA16: neither keeps 16-bit gray+alpha
        }
        if let judge {
            let (meta, bytes) = try decodeJudge(judge, path, in: dir)
            #expect(meta["width"] as? Int == 61 && meta["height"] as? Int == 37)
            #expect(mismatches(bytes, image.bytes) == 0, "\(judge) disagrees on \(format)")
        }
    }

    @Test("Colour spaces: iCCP (Display P3), the sRGB chunk, gray default")
    func colorSpaces() throws {
        let dir = try TemporaryDirectory()
        let icc = try ColorSpace.displayP3.iccProfileData()
        let p3 = dir.path("p3.png")
        try writeOurs(randomImage(width: 16, height: 16, format: .rgba8, seed: 2), to: p3, format: .png, iccProfile: icc)
        try expectEmbeddedDisplayP3(p3, icc: icc)

        let srgb = dir.path("srgb.png")
        try writeOurs(randomImage(width: 16, height: 16, format: .rgb8, seed: 3), to: srgb, format: .png, isSRGB: true)
        let s = try ImageReader.open(path: srgb).info
        #expect(s.iccProfile == nil && s.colorSpace == .sRGB)
        let gray = dir.path("g.png")
        try writeOurs(randomImage(width: 16, height: 16, format: .l8, seed: 4), to: gray, format: .png)
        #expect(try ImageReader.open(path: gray).info.colorSpace == .genericGray)
    }

    @Test("Interlaced (Adam7) and palette+tRNS files decode like their makers say")
    func interlacedAndPalette() throws {
        let dir = try TemporaryDirectory()
        for kind in ["interlaced", "palette"] {
            let path = dir.path("\(kind).png")
            let raw = dir.path("\(kind).raw")
            _ = try Judge.python("make_png.py", [kind, path, raw])
            let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
            let (info, ours) = try decodeOurs(path)
            #expect(info.pixelFormat == (kind == "palette" ? .rgba8 : .rgb8))
            #expect(mismatches(ours.bytes, expected) == 0, "\(kind)")
            // Rows in any order, and a column window.
            let decoder = try ImageReader.open(path: path)
            let cols = try decoder.setColumns(5..<20)
            let bpp = info.pixelFormat.bytesPerPixel
            var band = [UInt8](repeating: 0, count: cols.count * bpp * 3)
            for y in [10, 2, 15] {
                try band.withUnsafeMutableBytes {
                    try decoder.readRows(y: y, count: 3, into: $0.baseAddress!, bytesPerRow: cols.count * bpp)
                }
                for r in 0..<3 {
                    let ref = expected[((y + r) * info.width + cols.lowerBound) * bpp..<((y + r) * info.width + cols.upperBound) * bpp]
                    #expect(Array(band[r * cols.count * bpp..<(r + 1) * cols.count * bpp]) == Array(ref), "\(kind) row \(y + r)")
                }
            }
        }
    }

    @Test("Truncation is .truncated; a bad CRC or zlib stream is .corruptData")
    func damaged() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ok.png")
        try writeOurs(randomImage(width: 64, height: 64, format: .rgb8, seed: 5), to: path, format: .png)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        expectDaguerreError("half a PNG", { $0.isTruncated }) { _ = try ImageReader.readAll(data: Array(bytes.prefix(bytes.count / 2))) }
        let cut = dir.path("cut.png")
        try Data(bytes.prefix(bytes.count - 20)).write(to: URL(fileURLWithPath: cut))
        expectDaguerreError("a PNG missing its end", { $0.isTruncated }) { _ = try ImageReader.readAll(path: cut) }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x55  // inside IDAT: the CRC no longer matches
        expectDaguerreError("IDAT CRC", { $0.isCorrupt }) { _ = try ImageReader.readAll(data: flipped) }
    }
}
