import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// HEIFFile on real phones' HEICs, judged by exiftool (what the file says) and by Pillow with
/// pillow-heif (the decoded pixels, through the newer libheif pillow-heif bundles).
@Suite("HEIF/HEIC stills through libheif")
struct HEIFFileTests {
    static let files = [
        "photoprism_iphone_7.heic", "photoprism_iphone_15_pro.heic", "exoplayer_sample_MP.heic",
        "immich_samsung_one_ui_6_motion_photo.heic",
    ]

    static func path(_ name: String) -> String { Fixture.thirdParty.appendingPathComponent(name).path }

    /// exiftool's numeric values for `tags`, as one JSON object.
    static func exiftool(_ path: String, _ tags: [String]) throws -> [String: Any] {
        let out = try Judge.run("exiftool", ["-j", "-n"] + tags.map { "-" + $0 } + [path])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        return try #require(list.first)
    }

    @Test("Size, rotation, EXIF, colour profile and auxiliary images agree with exiftool", arguments: files)
    func againstExiftool(name: String) throws {
        let path = Self.path(name)
        let file = try HEIFFile(path: path)
        let e = try Self.exiftool(
            path,
            [
                "ImageWidth", "ImageHeight", "Rotation", "Make", "Model", "Orientation", "ProfileDescription", "AuxiliaryImageType",
                "BitDepthLuma",
            ])
        // exiftool's ImageWidth/Height are the coded (ispe) size; Rotation is the irot angle.
        #expect(file.storedWidth == e["ImageWidth"] as? Int && file.storedHeight == e["ImageHeight"] as? Int, "\(name)")
        let quarter = [90, 270].contains(e["Rotation"] as? Int ?? 0)
        #expect(file.isQuarterTurned == quarter, "\(name)")
        #expect(
            quarter
                ? (file.width == file.storedHeight && file.height == file.storedWidth)
                : (file.width == file.storedWidth && file.height == file.storedHeight))
        #expect(file.bitDepth == e["BitDepthLuma"] as? Int, "\(name)")
        #expect(file.metadata?.make == e["Make"] as? String && file.metadata?.model == e["Model"] as? String, "\(name)")
        if let o = e["Orientation"] as? Int { #expect(file.metadata?.orientation == o, "\(name)") }
        if let profile = e["ProfileDescription"] as? String {
            #expect(file.colorSpace?.name == profile, "\(name)")
            guard case .icc = file.colorProfile else {
                Issue.record("\(name): exiftool sees an ICC profile, we see \(file.colorProfile)")
                return
            }
        } else {
            #expect(file.colorProfile == .none && file.colorSpace == .sRGB, "\(name)")
        }
        let auxTypes = (e["AuxiliaryImageType"] as? String).map { [$0] } ?? []
        #expect(file.auxiliaryImages.map(\.type) == auxTypes, "\(name)")
        #expect(file.imageCount == 1 && !file.hasAlpha)
    }

    @Test("The iPhone 15 Pro's gain map, thumbnail and MakerNote-bearing EXIF")
    func iPhone15Pro() throws {
        let file = try HEIFFile(path: Self.path("photoprism_iphone_15_pro.heic"))
        #expect(file.formatName == "HEIC" && file.majorBrand == "heic" && file.compatibleBrands.contains("MiHB"))
        #expect(file.width == 3024 && file.height == 4032)
        let gainMap = try #require(file.auxiliaryImages.first)
        #expect(gainMap.kind == .hdrGainMap && gainMap.bitDepth == 8)
        // The gain map is half the image's size, turned like it.
        #expect(gainMap.width == 1512 && gainMap.height == 2016)
        #expect(file.thumbnails.map { [$0.width, $0.height] } == [[240, 320]])
        #expect(file.depthImages.isEmpty && file.motionPhotoVideo == nil)
        #expect(file.metadata?.lensModel == "iPhone 15 Pro back triple camera 2.22mm f/2.2")
    }

    @Test(
        "Motion photos: the video in the mpvd box is the one exiftool extracts; XMP through our parser",
        arguments: [
            "exoplayer_sample_MP.heic", "immich_samsung_one_ui_6_motion_photo.heic",
        ])
    func motionPhotoVideo(name: String) throws {
        let path = Self.path(name)
        let file = try HEIFFile(path: path)
        let video = try #require(file.motionPhotoVideo)
        #expect(video.inBox)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let dir = try TemporaryDirectory()
        let extracted = dir.path("video.mp4")
        try Judge.run("sh", ["-c", "exiftool -b -MotionPhotoVideo \"$0\" > \"$1\"", path, extracted])
        let judged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: extracted)))
        #expect(Array(bytes[video.range]) == judged)
        #expect(file.xmp?.value("MotionPhoto", in: .googleCamera) == "1")
    }

    @Test("The Exif item's offset: ExoPlayer's sample says 0 and still starts with Exif\\0\\0")
    func exifOffsetQuirk() throws {
        let file = try HEIFFile(path: Self.path("exoplayer_sample_MP.heic"))
        let date = try #require(file.metadata?.dateTimeOriginal)
        #expect(date == ISO8601DateFormatter().date(from: "2020-10-21T12:26:18Z"))
    }

    @Test("Decoded pixels match Pillow with pillow-heif (PSNR, RGBA, upright)", arguments: files)
    func pixelsAgainstPillowHeif(name: String) throws {
        let path = Self.path(name)
        let file = try HEIFFile(path: path)
        let ours = try file.decodePrimaryImage()
        #expect(ours.format == .rgba8 && ours.alpha == .straight && ours.colorSpace == file.colorSpace)
        #expect(ours.width == file.width && ours.height == file.height)
        let dir = try TemporaryDirectory()
        let judge = try decodeJudge("pillow-heif", path, mode: "RGBA", in: dir)
        #expect(judge.meta["width"] as? Int == ours.width && judge.meta["height"] as? Int == ours.height)
        let c = Self.compare(ours, judge.bytes)
        #expect(c.opaque, "every alpha sample is 255")
        let p = c.squaredError == 0 ? 99 : 10 * log10(255 * 255 / (Double(c.squaredError) / Double(ours.width * ours.height * 4)))
        print(
            "HEIF pixels \(name): \(ours.width)×\(ours.height), PSNR against pillow-heif \(String(format: "%.2f", p)) dB, \(c.differing) of \(ours.width * ours.height * 4) samples differ, largest by \(c.largest)"
        )
        // Two builds of libheif's colour conversion: at most one level apart here.
        #expect(p >= 50 && c.largest <= 2, "\(name): PSNR \(p) dB, largest difference \(c.largest)")
    }

    @Test("A 10-bit HEIC with alpha (made by pillow-heif) decodes to 16-bit straight RGBA matching pillow-heif's decode")
    func deepWithAlpha() throws {
        let dir = try TemporaryDirectory()
        let (heic, raw) = (dir.path("deep.heic"), dir.path("deep.raw"))
        let made = try Judge.python("make_heic.py", [heic, raw, "128", "96"])
        #expect(made["bit_depth"] as? Int == 10)
        let file = try HEIFFile(path: heic)
        #expect(file.bitDepth == 10 && file.hasAlpha && !file.isPremultipliedAlpha && file.formatName == "HEIC")
        #expect(file.auxiliaryImages.map(\.kind) == [.alpha])
        let ours = try file.decodePrimaryImage()
        #expect(ours.format == .rgba16 && ours.alpha == .straight && ours.width == 128 && ours.height == 96)
        let judged = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        try #require(judged.count == 128 * 96 * 4)
        var largest = 0
        var alphas = Set<Int>()
        for y in 0..<96 {
            let row = ours.rowAddress(y).assumingMemoryBound(to: UInt16.self)
            for i in 0..<(128 * 4) {
                // Back to 10 bits: our samples are scaled to the full 16-bit range.
                let ten = (Int(row[i]) * 1023 + 32767) / 65535
                largest = max(largest, abs(ten - Int(UInt16(littleEndian: judged[y * 128 * 4 + i]))))
                if i % 4 == 3 { alphas.insert(Int(row[i])) }
            }
        }
        #expect(largest <= 1, "largest difference \(largest) in 10-bit levels")
        // The checkerboard's opaque squares reach the top of the 16-bit range exactly.
        #expect(alphas.contains(65535) && alphas.count >= 2)
    }

    /// Our RGBA rows against a judge's tight RGBA bytes in one pass over raw pointers (48 M
    /// samples per 12 MP photo: closures per sample cost a minute in a debug build).
    static func compare(_ ours: PixelBuffer, _ judge: [UInt8]) -> (squaredError: Int, differing: Int, largest: Int, opaque: Bool) {
        let rowBytes = ours.width * 4
        guard judge.count == rowBytes * ours.height else { return (Int.max / 2, judge.count, 255, false) }
        var (se, differing, largest, opaque) = (0, 0, 0, true)
        judge.withUnsafeBufferPointer { j in
            for y in 0..<ours.height {
                let a = ours.rowAddress(y).assumingMemoryBound(to: UInt8.self)
                let b = j.baseAddress! + y * rowBytes
                for i in 0..<rowBytes {
                    let d = Int(a[i]) - Int(b[i])
                    if d != 0 {
                        se += d * d
                        differing += 1
                        largest = max(largest, abs(d))
                    }
                    if i & 3 == 3, a[i] != 255 { opaque = false }
                }
            }
        }
        return (se, differing, largest, opaque)
    }

    @Test("HEIF files are told from movies and JPEGs by their ftyp brands")
    func detection() throws {
        for name in Self.files {
            let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))).prefix(256))
            #expect(HEIFFile.isHEIF(head: head), "\(name)")
        }
        for name in ["exiftool_t_QuickTime.mov", "exiftool_t_Apple.jpg"] {
            let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))).prefix(256))
            #expect(!HEIFFile.isHEIF(head: head), "\(name)")
        }
        #expect(throws: DaguerreError.self) { try HEIFFile(path: Self.path("exiftool_t_QuickTime.mov")) }
    }

    @Test("Sizes over the limits are refused before decoding: by libheif while parsing, by us before allocating")
    func limits() throws {
        let path = Self.path("photoprism_iphone_7.heic")
        do {
            _ = try HEIFFile(path: path, limits: Limits(maxDimension: 2000))
            Issue.record("a 4032-pixel side passed a 2000-pixel limit")
        } catch {
            #expect(error.isTooLarge, "\(error)")
        }
        let file = try HEIFFile(path: path, limits: Limits(maxPixels: 4_000_000))
        #expect(file.width == 4032)
        #expect(throws: DaguerreError.tooLarge(what: "HEIF image pixel count (4032×3024)", value: 4032 * 3024, limit: 4_000_000)) {
            try file.decodePrimaryImage()
        }
    }

    /// A flat 4096×4096 HEIC from pillow-heif whose `ispe` was rewritten to 16×16: every check
    /// made before the decode passes, and libheif decodes at the size the HEVC stream codes.
    @Test("A stream that codes more pixels than the file states is refused, not handed out at the wrong size")
    func streamLargerThanStated() throws {
        let bytes = [UInt8](
            try Data(contentsOf: Judge.repoRoot.appendingPathComponent("Tests/fuzz-regressions/heif-ispe-16-stream-4096.heic")))
        let file = try HEIFFile(bytes: bytes)
        #expect(file.width == 16 && file.height == 16)
        #expect(
            throws: DaguerreError.corruptData(
                format: "HEIF", detail: "the coded image decodes to 4096×4096, but the file states 16×16 (its ispe and transformations)",
                path: nil)
        ) { try file.decodePrimaryImage() }
    }

    @Test("Truncated and damaged HEICs throw typed errors and never crash")
    func damaged() throws {
        for name in ["exoplayer_sample_MP.heic", "photoprism_iphone_15_pro.heic"] {
            let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path(name))))
            var outcomes: [String: Int] = [:]
            let cuts = [
                0, 4, 8, 12, 20, 24, 40, 64, 200, 400, 463, 1000, 4000, 4700, 5000, 20_000, whole.count / 2, whole.count - 30_000,
                whole.count - 1,
            ]
            for cut in cuts where cut < whole.count && cut >= 0 {
                let bytes = Array(whole.prefix(cut))
                do {
                    let file = try HEIFFile(bytes: bytes)
                    let pixels = try file.decodePrimaryImage()
                    #expect(pixels.width == file.width, "\(name) cut at \(cut)")
                    outcomes["decoded", default: 0] += 1
                } catch {
                    #expect(!error.message.isEmpty)
                    outcomes["\(error)".prefix(60).description, default: 0] += 1
                }
            }
            var rng = SeededRandom(seed: 0x4E1F)
            for _ in 0..<(name.hasPrefix("exoplayer") ? 40 : 6) {
                var bytes = whole
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let limit = Bool.random(using: &rng) ? min(600, bytes.count) : bytes.count
                    bytes[Int.random(in: 0..<limit, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                }
                do {
                    let file = try HEIFFile(bytes: bytes)
                    _ = try file.decodePrimaryImage()
                    outcomes["flipped, decoded", default: 0] += 1
                } catch {
                    #expect(!error.message.isEmpty)
                    outcomes["flipped, refused", default: 0] += 1
                }
            }
            print("HEIF damaged \(name): \(outcomes.sorted { $0.key < $1.key })")
            #expect(outcomes["decoded", default: 0] < cuts.count)
        }
    }
}
