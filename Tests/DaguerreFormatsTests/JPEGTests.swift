import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

@Suite("JPEG (libjpeg-turbo)")
struct JPEGTests {
    /// Pillow encodes; our decoder must give Pillow's decode byte for byte.
    @Test(
        "Decode equals Pillow pixel for pixel",
        arguments: [
            (1, 90, 2, false),  // 4:2:0 colour
            (5, 90, 2, true),  // grayscale
            (13, 90, 0, false),  // 4:4:4
            (21, 75, 1, false),  // 4:2:2
        ])
    func decodeMatchesPillow(kodim: Int, quality: Int, subsampling: Int, gray: Bool) throws {
        let dir = try TemporaryDirectory()
        let jpg = dir.path("k.jpg")
        _ = try Judge.python("encode_jpeg.py", [Fixture.kodim(kodim), jpg, "\(quality)", "\(subsampling)", gray ? "1" : "0"])
        let (info, ours) = try decodeOurs(jpg)
        #expect(info.format == .jpeg)
        #expect(info.pixelFormat == (gray ? .l8 : .rgb8))
        #expect(info.colorSpace == (gray ? ColorSpace.genericGray : .sRGB))
        let (meta, pillow) = try decodeJudge("pillow", jpg, mode: gray ? "L" : "RGB", in: dir)
        #expect(meta["width"] as? Int == info.width && meta["height"] as? Int == info.height)
        #expect(pillow.count == ours.bytes.count)
        #expect(mismatches(pillow, ours.bytes) == 0, "bytes differing from Pillow's decode")
        // The same from memory.
        let fromMemory = try ImageReader.readAll(data: [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpg))))
        #expect(tight(fromMemory).bytes == ours.bytes)
    }

    /// libjpeg's DCT scaling, as Pillow's draft mode asks for it: the same size and pixels.
    @Test("A decode reduced by 2, 4 or 8 equals Pillow's draft mode", arguments: [2, 4, 8])
    func reducedDecodeMatchesPillowDraft(reduction: Int) throws {
        let dir = try TemporaryDirectory()
        let jpg = dir.path("k.jpg")
        _ = try Judge.python("encode_jpeg.py", [Fixture.kodim(3), jpg, "90", "2", "0"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpg)))
        let full = try JPEGDecoder(data: bytes).info
        let decoder = try JPEGDecoder(data: bytes, reducedBy: reduction)
        // Each side divided and rounded up.
        #expect(decoder.info.width == (full.width + reduction - 1) / reduction)
        #expect(decoder.info.height == (full.height + reduction - 1) / reduction)
        let ours = tight(try ImageReader.readAll(decoder))
        let (meta, pillow) = try decodeJudge("pillow-draft-\(reduction)", jpg, mode: "RGB", in: dir)
        #expect(meta["width"] as? Int == ours.width && meta["height"] as? Int == ours.height)
        #expect(pillow.count == ours.bytes.count)
        #expect(mismatches(pillow, ours.bytes) == 0, "bytes differing from Pillow's draft decode at 1/\(reduction)")
        #expect(throws: DaguerreError.self) { try JPEGDecoder(data: bytes, reducedBy: 3) }
    }

    @Test("Cropped columns, skipped rows and a restart equal the full decode")
    func cropSkipRestart() throws {
        let dir = try TemporaryDirectory()
        let jpg = dir.path("k.jpg")
        _ = try Judge.python("encode_jpeg.py", [Fixture.kodim(3), jpg, "90", "2", "0"])
        let full = try decodeOurs(jpg).image
        let decoder = try ImageReader.open(path: jpg)
        let wanted = 101..<303
        let cols = try decoder.setColumns(wanted)
        #expect(cols.lowerBound <= wanted.lowerBound && cols.upperBound >= wanted.upperBound)
        let stride = cols.count * 3
        var band = [UInt8](repeating: 0, count: stride * 40)
        func check(_ y: Int, _ n: Int) throws {
            try band.withUnsafeMutableBytes { try decoder.readRows(y: y, count: n, into: $0.baseAddress!, bytesPerRow: stride) }
            var bad = 0
            for r in 0..<n {
                let mine = band[(r * stride + (wanted.lowerBound - cols.lowerBound) * 3)...].prefix(wanted.count * 3)
                let ref = full.bytes[((y + r) * full.rowBytes + wanted.lowerBound * 3)...].prefix(wanted.count * 3)
                bad += mismatches(Array(mine), Array(ref))
            }
            #expect(bad == 0, "rows \(y)..<\(y + n): \(bad) bytes differ from the full decode")
        }
        try check(57, 40)  // skips 57 rows
        try check(97, 13)  // continues
        try check(10, 20)  // earlier: restarts from the top
        try check(full.height - 7, 7)
    }

    @Test("A truncated JPEG throws .truncated, never grey pixels")
    func truncated() throws {
        let dir = try TemporaryDirectory()
        let jpg = dir.path("k.jpg")
        _ = try Judge.python("encode_jpeg.py", [Fixture.kodim(1), jpg, "90", "2", "0"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpg)))
        let cut = dir.path("cut.jpg")
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: cut))
        expectDaguerreError("half a JPEG", { $0.isTruncated }) { _ = try ImageReader.readAll(path: cut) }
        expectDaguerreError("half a JPEG in memory", { $0.isTruncated }) {
            _ = try ImageReader.readAll(data: Array(bytes.prefix(bytes.count / 2)))
        }
        // The first rows are intact and readable; the error comes with the missing ones.
        let decoder = try ImageReader.open(path: cut)
        var row = [UInt8](repeating: 0, count: decoder.info.width * 3 * 8)
        try row.withUnsafeMutableBytes { try decoder.readRows(y: 0, count: 8, into: $0.baseAddress!, bytesPerRow: decoder.info.width * 3) }
        expectDaguerreError("rows past the cut", { $0.isTruncated }) {
            try row.withUnsafeMutableBytes {
                try decoder.readRows(y: decoder.info.height - 8, count: 8, into: $0.baseAddress!, bytesPerRow: decoder.info.width * 3)
            }
        }
        // Only the header survives.
        expectDaguerreError("a JPEG cut in its header", { $0.isTruncated || $0.isCorrupt }) {
            _ = try ImageReader.readAll(data: Array(bytes.prefix(40)))
        }
    }

    @Test("Garbage in the entropy-coded data throws .corruptData or .truncated")
    func garbage() throws {
        let dir = try TemporaryDirectory()
        let jpg = dir.path("k.jpg")
        _ = try Judge.python("encode_jpeg.py", [Fixture.kodim(2), jpg, "90", "2", "0"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpg)))
        var rng = SeededRandom(seed: 42)
        let mid = bytes.count / 2
        for i in mid..<(mid + 300) { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
        bytes[mid + 10] = 0xFF
        bytes[mid + 11] = 0xD0 + 5  // a bogus restart marker
        expectDaguerreError("garbage in the middle", { $0.isCorrupt || $0.isTruncated }) { _ = try ImageReader.readAll(data: bytes) }
    }

    @Test("Encode: quality, subsampling and gray, checked by Pillow", arguments: [(true, false), (false, false), (true, true)])
    func encode(subsample: Bool, gray: Bool) throws {
        let dir = try TemporaryDirectory()
        var source = try decodeOurs(Fixture.kodim(7)).image
        if gray {
            var g = [UInt8](repeating: 0, count: source.width * source.height)
            for i in g.indices { g[i] = source.bytes[3 * i + 1] }
            source = TightImage(width: source.width, height: source.height, format: .l8, bytes: g)
        }
        let out = dir.path("ours.jpg")
        try writeOurs(source, to: out, format: .jpeg, quality: 0.9, subsampling: subsample)
        let (meta, pillow) = try decodeJudge("pillow", out, in: dir)
        #expect(meta["mode"] as? String == (gray ? "L" : "RGB"))
        if !gray { #expect(meta["sampling"] as? Int == (subsample ? 2 : 0)) }
        let quality = psnr(pillow, source.bytes)
        #expect(quality > 33, "PSNR \(quality) dB against the source")
        // Lower quality gives a smaller file.
        let low = dir.path("low.jpg")
        try writeOurs(source, to: low, format: .jpeg, quality: 0.3, subsampling: subsample)
        let sizes = try [out, low].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }
        #expect(sizes[1] < sizes[0])
        #expect(dir.contents().sorted() == ["low.jpg", "ours.jpg"])
    }

    @Test("A Display P3 profile survives: exiftool, Pillow and our reader agree")
    func iccProfile() throws {
        let dir = try TemporaryDirectory()
        let icc = try ColorSpace.displayP3.iccProfileData()
        let image = randomImage(width: 40, height: 24, format: .rgb8, seed: 1)
        let out = dir.path("p3.jpg")
        try writeOurs(image, to: out, format: .jpeg, iccProfile: icc)
        try expectEmbeddedDisplayP3(out, icc: icc)
    }
}
