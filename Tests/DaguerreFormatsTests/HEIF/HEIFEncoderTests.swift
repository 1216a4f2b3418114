import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// HEIFEncoder judged by tools nobody here wrote: exiftool (the boxes, EXIF, the Apple
/// MakerNote, XMP, the ICC profile, `-validate`) and Pillow with pillow-heif (its own libheif
/// decodes the pixels); our HEIFFile reads the files back.
@Suite("HEIC writing through libheif")
struct HEIFEncoderTests {
    static let identifier = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    static let tool = XMPPacket.Namespace(uri: "http://ns.adobe.com/xap/1.0/", prefix: "xmp")

    /// A smooth Display P3 image with texture: gradients plus a low-amplitude pattern, so that
    /// the codec has detail to keep (and a PSNR means something) without noise it cannot code.
    static func photo(width: Int, height: Int, format: PixelFormat, alpha: ((Int, Int) -> Double)? = nil) throws -> PixelBuffer {
        var buffer = try PixelBuffer(width: width, height: height, format: format, colorSpace: .displayP3, alpha: .straight)
        let deep = format.component == .uint16
        let top = deep ? 65535.0 : 255.0
        let channels = format.channels
        let bpr = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x) / Double(width)
                    let v = Double(y) / Double(height)
                    let t = 0.06 * sin(Double(x) / 5.0) * cos(Double(y) / 7.0)
                    var values = [0.1 + 0.8 * u + t, 0.15 + 0.7 * v - t, 0.5 + 0.35 * sin(6 * u + 3 * v), 1.0]
                    if let alpha { values[3] = alpha(x, y) }
                    for c in 0..<channels {
                        let level = (min(max(values[c], 0), 1) * top).rounded()
                        if deep {
                            raw.storeBytes(of: UInt16(level), toByteOffset: y * bpr + (x * channels + c) * 2, as: UInt16.self)
                        } else {
                            raw.storeBytes(of: UInt8(level), toByteOffset: y * bpr + x * channels + c, as: UInt8.self)
                        }
                    }
                }
            }
        }
        return buffer
    }

    static func metadata() -> PhotoMetadata {
        var m = PhotoMetadata(make: "Apple", model: "iPhone 15 Pro", software: "Daguerre")
        m.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000)
        m.exposureTime = 1.0 / 60
        m.fNumber = 1.8
        m.iso = 100
        m.livePhotoContentIdentifier = identifier
        return m
    }

    static func exiftool(_ path: String, _ args: [String]) throws -> [String: Any] {
        let out = try Judge.run("exiftool", ["-j"] + args + [path])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        return try #require(list.first)
    }

    /// PSNR of our 8-bit RGB(A) buffer's RGB against a judge's tight RGB bytes.
    static func psnrRGB(_ ours: PixelBuffer, _ judged: [UInt8]) -> Double {
        let channels = ours.format.channels
        guard judged.count == ours.width * ours.height * 3 else { return 0 }
        var se = 0.0
        for y in 0..<ours.height {
            let row = ours.rowAddress(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<ours.width {
                for c in 0..<3 {
                    let d = Double(row[x * channels + c]) - Double(judged[(y * ours.width + x) * 3 + c])
                    se += d * d
                }
            }
        }
        let mse = se / Double(ours.width * ours.height * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    @Test("A Display P3 HEIC with EXIF, the Apple MakerNote's content identifier, XMP and a thumbnail, judged by exiftool and pillow-heif")
    func p3WithMetadata() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("IMG_0001.HEIC")
        let source = try Self.photo(width: 320, height: 240, format: .rgba8)
        var options = EncoderOptions(
            format: .heic, width: 320, height: 240, rowFormat: .rgba8, iccProfile: try ColorSpace.displayP3.iccProfileData())
        options.heif.exif = TIFFSerializer.file(EXIFCodec.directories(for: Self.metadata()), byteOrder: .bigEndian)
        var xmp = XMPPacket()
        xmp.set("CreatorTool", "Daguerre HEIC test", in: Self.tool)
        options.heif.xmp = xmp
        options.heif.thumbnailSize = 96
        try ImageWriter.write(source, to: path, options: options)
        #expect(dir.contents() == ["IMG_0001.HEIC"])

        // exiftool's validation: no error, and no warning beyond the ones listed here.
        let validation = try Self.exiftool(path, ["-validate", "-warning", "-error", "-a"])
        print("HEIC exiftool -validate: \(validation.filter { $0.key != "SourceFile" })")
        #expect(
            validation["Validate"] as? String == "OK" || (validation["Validate"] as? String)?.hasPrefix("0 Errors") == true, "\(validation)"
        )
        #expect(validation["Error"] == nil)

        let e = try Self.exiftool(
            path,
            [
                "-n", "-MediaGroupUUID", "-CreatorTool", "-ProfileDescription", "-Make", "-Model", "-Orientation", "-ImageWidth",
                "-ImageHeight", "-MajorBrand", "-BitDepthLuma", "-Rotation",
            ])
        // exiftool names the MakerNote tag 0x0011 MediaGroupUUID: the Live Photo content identifier.
        #expect(e["MediaGroupUUID"] as? String == Self.identifier)
        #expect(e["CreatorTool"] as? String == "Daguerre HEIC test")
        #expect(e["ProfileDescription"] as? String == "Display P3")
        #expect(e["Make"] as? String == "Apple" && e["Model"] as? String == "iPhone 15 Pro")
        #expect(e["Orientation"] as? Int == 1 && e["Rotation"] == nil)
        #expect(e["ImageWidth"] as? Int == 320 && e["ImageHeight"] as? Int == 240 && e["BitDepthLuma"] as? Int == 8)

        // pillow-heif's own libheif decodes it close to the source.
        let judge = try decodeJudge("pillow-heif", path, mode: "RGB", in: dir)
        #expect(judge.meta["width"] as? Int == 320 && judge.meta["height"] as? Int == 240)
        let p = Self.psnrRGB(source, judge.bytes)
        print(
            "HEIC 320×240 P3 at the default quality (0.9): PSNR \(String(format: "%.2f", p)) dB against the source (pillow-heif's decode)")
        #expect(p >= 40, "PSNR \(p)")

        // Our reader: size, EXIF with the MakerNote, XMP, profile, thumbnail, no alpha.
        let file = try HEIFFile(path: path)
        #expect(file.width == 320 && file.height == 240 && file.bitDepth == 8 && !file.hasAlpha)
        #expect(file.formatName == "HEIC" && file.majorBrand == "heic")
        #expect(file.metadata?.livePhotoContentIdentifier == Self.identifier && file.metadata?.iso == 100)
        #expect(file.xmp?.value("CreatorTool", in: Self.tool) == "Daguerre HEIC test")
        #expect(file.colorSpace?.name == "Display P3")
        #expect(file.colorProfile == .icc(try ColorSpace.displayP3.iccProfileData()))
        #expect(file.thumbnails.map { [$0.width, $0.height] } == [[96, 72]])
        let ours = try file.decodePrimaryImage()
        #expect(ours.colorSpace?.name == "Display P3")
        // The same file through ImageReader (the engine's way in).
        let decoder = try ImageReader.open(path: path)
        #expect(decoder.info.format == .heic && decoder.info.width == 320 && decoder.info.colorSpace.name == "Display P3")
    }

    @Test("16-bit rows are coded with 10 bits (Main 10) and alpha as an auxiliary image; the decode matches the source")
    func deepWithAlpha() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("deep.heic")
        let (w, h) = (192, 128)
        let source = try Self.photo(width: w, height: h, format: .rgba16) { x, _ in 0.25 + 0.75 * Double(x) / Double(191) }
        let options = EncoderOptions(
            format: .heic, width: w, height: h, rowFormat: .rgba16, iccProfile: try ColorSpace.displayP3.iccProfileData())
        let encoder = try HEIFEncoder(path: path, options: options)
        try source.withUnsafeBytes { raw in try encoder.writeRows(raw.baseAddress!, bytesPerRow: source.bytesPerRow, count: h) }
        try encoder.finish()
        print("HEIC from 16-bit rows: \(encoder.codedBitDepth)-bit HEVC by \(encoder.encoderName)")
        #expect(encoder.codedBitDepth == 10)

        let e = try Self.exiftool(path, ["-n", "-BitDepthLuma", "-BitDepthChroma", "-AuxiliaryImageType", "-GeneralProfileIDC"])
        #expect(e["BitDepthLuma"] as? Int == 10 && e["BitDepthChroma"] as? Int == 10)
        // HEVC's alpha auxiliary type (ISO/IEC 23008-12 Annex B).
        #expect(e["AuxiliaryImageType"] as? String == "urn:mpeg:hevc:2015:auxid:1", "\(e)")

        let file = try HEIFFile(path: path)
        #expect(file.bitDepth == 10 && file.hasAlpha && !file.isPremultipliedAlpha)
        let back = try file.decodePrimaryImage()
        #expect(back.format == .rgba16 && back.width == w && back.height == h)
        // PSNR in 10-bit levels, colour and alpha apart.
        var (seColour, seAlpha) = (0.0, 0.0)
        for y in 0..<h {
            let a = source.rowAddress(y).assumingMemoryBound(to: UInt16.self)
            let b = back.rowAddress(y).assumingMemoryBound(to: UInt16.self)
            for i in 0..<(w * 4) {
                let d = (Double(a[i]) - Double(b[i])) * 1023 / 65535
                if i % 4 == 3 { seAlpha += d * d } else { seColour += d * d }
            }
        }
        let psnr = { (se: Double, n: Int) in se == 0 ? 99 : 10 * log10(1023 * 1023 / (se / Double(n))) }
        let (pc, pa) = (psnr(seColour, w * h * 3), psnr(seAlpha, w * h))
        print(
            "HEIC 10-bit round trip: PSNR colour \(String(format: "%.2f", pc)) dB, alpha \(String(format: "%.2f", pa)) dB (10-bit levels)")
        #expect(pc >= 40 && pa >= 40)
    }

    @Test("An opaque RGBA image gets no alpha image; a transparent one does")
    func alphaOnlyWhenNeeded() throws {
        let dir = try TemporaryDirectory()
        for transparent in [false, true] {
            let path = dir.path("a\(transparent).heic")
            let source = try Self.photo(
                width: 64, height: 48, format: .rgba8, alpha: transparent ? { x, y in (x + y) % 2 == 0 ? 1 : 0.5 } : nil)
            try ImageWriter.write(source, to: path, options: EncoderOptions(format: .heic, width: 64, height: 48, rowFormat: .rgba8))
            let file = try HEIFFile(path: path)
            #expect(file.hasAlpha == transparent)
            #expect(file.auxiliaryImages.map(\.kind) == (transparent ? [.alpha] : []))
            // No profile given: no colr box, sRGB by the format's default.
            #expect(file.colorProfile == .none)
        }
    }

    @Test("The picture is written upright: a given EXIF Orientation becomes 1 and there is no irot or imir")
    func upright() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("upright.heic")
        let source = try Self.photo(width: 64, height: 48, format: .rgb8)
        var options = EncoderOptions(format: .heic, width: 64, height: 48, rowFormat: .rgb8)
        var m = Self.metadata()
        m.orientation = 6  // the camera's, before the rows were turned upright
        options.heif.exif = TIFFSerializer.file(EXIFCodec.directories(for: m), byteOrder: .littleEndian)
        try ImageWriter.write(source, to: path, options: options)
        let file = try HEIFFile(path: path)
        #expect(file.width == 64 && file.height == 48 && !file.isQuarterTurned)
        #expect(file.metadata?.orientation == 1 && file.metadata?.livePhotoContentIdentifier == Self.identifier)
        let e = try Self.exiftool(path, ["-n", "-Orientation", "-Rotation", "-ExifByteOrder"])
        #expect(e["Orientation"] as? Int == 1 && e["Rotation"] == nil, "\(e)")
        let judge = try decodeJudge("pillow-heif", path, mode: "RGB", in: dir)
        #expect(judge.meta["width"] as? Int == 64 && judge.meta["height"] as? Int == 48)
        #expect(Self.psnrRGB(source, judge.bytes) >= 35)
    }

    @Test("Bad sizes, options and destinations are typed errors, and nothing is left behind")
    func badInput() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("bad.heic")
        func options(_ w: Int, _ h: Int, _ f: PixelFormat = .rgb8) -> EncoderOptions {
            EncoderOptions(format: .heic, width: w, height: h, rowFormat: f)
        }
        expectDaguerreError("zero width", { $0.isTooLarge || { if case .invalidArgument = $0 { true } else { false } }($0) }) {
            _ = try HEIFEncoder(path: path, options: options(0, 8))
        }
        expectDaguerreError("huge", { $0.isTooLarge }) { _ = try HEIFEncoder(path: path, options: options(200_000, 200_000)) }
        expectDaguerreError("over HEVC's largest picture", { $0.isTooLarge }) {
            _ = try HEIFEncoder(path: path, options: options(20_000, 16))
        }
        expectDaguerreError("L8 rows", { $0.isUnsupported }) { _ = try HEIFEncoder(path: path, options: options(8, 8, .l8)) }
        expectDaguerreError("float rows", { $0.isUnsupported }) { _ = try HEIFEncoder(path: path, options: options(8, 8, .rgbaf)) }
        var o = options(8, 8)
        o.quality = 1.5
        expectDaguerreError("quality 1.5", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try HEIFEncoder(path: path, options: o)
        }
        o = options(8, 8)
        o.heif.exif = Array("not an EXIF block".utf8)
        expectDaguerreError("a block that is not EXIF", { $0.isCorrupt }) { _ = try HEIFEncoder(path: path, options: o) }
        expectDaguerreError("unwritable directory", { $0.isIO }) { _ = try HEIFEncoder(path: "/proc/bad.heic", options: options(8, 8)) }
        expectDaguerreError("missing directory", { $0.isIO }) {
            _ = try HEIFEncoder(path: dir.path("missing/bad.heic"), options: options(8, 8))
        }
        #expect(dir.contents().isEmpty, "\(dir.contents())")
    }

    @Test("A real iPhone 15 Pro HEIC re-encoded from its decoded pixels and its EXIF keeps its Apple MakerNote and profile")
    func iPhoneReencode() throws {
        let original = HEIFFileTests.path("photoprism_iphone_15_pro.heic")
        let file = try HEIFFile(path: original)
        let pixels = try file.decodePrimaryImage()
        let exif = try #require(file.exif)
        guard case .icc(let icc) = file.colorProfile else {
            Issue.record("the iPhone file has no ICC profile: \(file.colorProfile)")
            return
        }
        let dir = try TemporaryDirectory()
        let path = dir.path("IMG_reencoded.HEIC")
        var options = EncoderOptions(
            format: .heic, width: pixels.width, height: pixels.height, rowFormat: pixels.format, iccProfile: icc)
        options.heif.exif = exif
        options.heif.thumbnailSize = 320
        let started = Date()
        try ImageWriter.write(pixels, to: path, options: options)
        print(
            "HEIC re-encode of \(pixels.width)×\(pixels.height): \(String(format: "%.2f", Date().timeIntervalSince(started))) s (debug build), \(try FileManager.default.attributesOfItem(atPath: path)[.size] ?? 0) bytes"
        )

        let before = try Self.exiftool(original, ["-n", "-Apple:all", "-ProfileDescription", "-Make", "-Model"])
        let after = try Self.exiftool(path, ["-n", "-Apple:all", "-ProfileDescription", "-Make", "-Model", "-Orientation", "-Rotation"])
        #expect(after["MakerNoteVersion"] != nil && after["RunTimeValue"] != nil, "\(after)")
        #expect(after["LivePhotoVideoIndex"] as? Int == before["LivePhotoVideoIndex"] as? Int)
        #expect(after["ProfileDescription"] as? String == before["ProfileDescription"] as? String)
        #expect(after["Make"] as? String == "Apple" && after["Model"] as? String == before["Model"] as? String)
        // Upright pixels: EXIF says 1 and there is no irot.
        #expect(after["Orientation"] as? Int == 1 && after["Rotation"] == nil, "\(after)")
        let appleTags = before.keys.filter { !["SourceFile", "ProfileDescription", "Make", "Model"].contains($0) }
        let kept = appleTags.filter { "\(before[$0]!)" == "\(after[$0] ?? "")" }
        print("HEIC re-encode: \(kept.count) of \(appleTags.count) Apple MakerNote tags read back identical by exiftool")
        #expect(kept.count == appleTags.count, "\(Set(appleTags).subtracting(kept))")

        let back = try HEIFFile(path: path)
        #expect(back.width == 3024 && back.height == 4032 && !back.isQuarterTurned)
        #expect(back.metadata?.lensModel == file.metadata?.lensModel && back.metadata?.orientation == 1)
        #expect(back.thumbnails.map { [$0.width, $0.height] } == [[240, 320]])
    }
}
