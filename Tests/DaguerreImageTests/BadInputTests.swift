import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Bad input gets a typed error whose message says what was wrong and how to fix it; nothing
/// crashes and no partial output file is left behind.
@Suite struct BadInputTests {
    func expectNoLeftovers(_ dir: TemporaryDirectory, except allowed: Set<String>) {
        let left = Set(dir.contents()).subtracting(allowed)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func truncatedJPEG() throws {
        let dir = try TemporaryDirectory()
        let good = dir.path("good.jpg")
        try Judge.run("python3", ["-c", "from PIL import Image; Image.open('\(Kodak.url(8).path)').save('\(good)', quality=90)"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let cut = dir.path("cut.jpg")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let out = URL(fileURLWithPath: dir.path("out.jpg"))
        var caught: DaguerreError?
        do {
            let image = try Image(contentsOf: URL(fileURLWithPath: cut))
            try Context().writeJPEGRepresentation(of: image.applying(GaussianBlur(radius: 1)), to: out, colorSpace: .sRGB)
        } catch { caught = error }
        let e = try #require(caught, "a truncated JPEG must throw")
        guard case .truncated = e else {
            Issue.record("expected .truncated, got \(e)")
            return
        }
        #expect(e.message.contains("truncated") && !e.recovery.isEmpty)
        expectNoLeftovers(dir, except: ["good.jpg", "cut.jpg"])
    }

    /// FuzzDecode found a heap over-read (under AddressSanitizer; a plain build reads the bytes
    /// past the row and the crop masks them): a blurred crop of a file source asked the source
    /// for columns past the crop, which its session had not decoded (it holds only the columns
    /// the render asked for). Those now read as transparent, and the render gives what the same
    /// pipeline gives from a buffer holding every column.
    @Test func blurredCropOfAFileReadsOnlyTheColumnsItsSessionHolds() throws {
        let bytes = [UInt8](
            try Data(contentsOf: Judge.repoRoot.appendingPathComponent("Tests/fuzz-regressions/decode-tiff-crop-blur-overread.tif")))
        let file = try Image(data: bytes)
        let context = try Context()
        let whole = try context.createBuffer(file, format: .rgbaf, colorSpace: nil)
        let memory = Image(buffer: whole)
        func blurredCrop(_ image: Image) throws -> [UInt8] {
            let crop = image.cropped(to: Rect(x: 0, y: 0, width: min(image.extent.width, 32), height: min(image.extent.height, 32)))
            let out = try context.createBuffer(try crop.applying(GaussianBlur(radius: 1)), format: .rgba8, colorSpace: .sRGB)
            return out.withUnsafeBytes { Array($0) }
        }
        #expect(file.extent.width > 32, "the case needs a source wider than the crop")
        #expect(try blurredCrop(file) == blurredCrop(memory))
    }

    @Test func pngClaimingAMillionByAMillionPixels() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("huge.png")
        // Signature, an IHDR claiming 1 000 000 × 1 000 000 RGB8 (correct CRC), IEND.
        try Judge.run(
            "python3",
            [
                "-c",
                """
                import struct, zlib
                def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
                open('\(path)', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 1000000, 1000000, 8, 2, 0, 0, 0)) + chunk(b'IEND', b''))
                """,
            ])
        do {
            _ = try Image(contentsOf: URL(fileURLWithPath: path))
            Issue.record("a 10¹²-pixel PNG must be refused")
        } catch {
            guard case .tooLarge = error else {
                Issue.record("expected .tooLarge, got \(error)")
                return
            }
            #expect(error.recovery.contains("Limits"))
        }
    }

    @Test func unknownFilterName() throws {
        let image = try Kodak.image(1)
        do {
            _ = try image.applyingFilter("GausianBlur", parameters: ["inputRadius": 2])
            Issue.record("unknown filter accepted")
        } catch {
            guard case .unknownFilter(let name, let suggestions) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(name == "GausianBlur")
            #expect(suggestions.contains("GaussianBlur"))
            #expect(error.recovery.contains("GaussianBlur"))
        }
    }

    @Test(arguments: [
        ("inputRadius", FilterValue.string("two"), "expected a number"),
        ("inputRadius", FilterValue.number(-1), "below the minimum"),
        ("inputRadius", FilterValue.number(.nan), "not a finite number"),
        ("inputRadus", FilterValue.number(2), "no such parameter"),
    ])
    func badParameter(key: String, value: FilterValue, problem: String) throws {
        let image = try Kodak.image(1)
        do {
            _ = try image.applyingFilter("GaussianBlur", parameters: [key: value])
            Issue.record("\(key)=\(value) accepted")
        } catch {
            guard case .invalidParameter(let filter, let k, let p) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(filter == "GaussianBlur" && k == key)
            #expect(p.contains(problem), "\(p)")
        }
    }

    @Test func unwritableDestination() throws {
        let image = try Kodak.image(1)
        for path in ["/proc/daguerre-test.jpg", "/nonexistent-dir-daguerre/out.jpg"] {
            do {
                try Context().writeJPEGRepresentation(of: image, to: URL(fileURLWithPath: path), colorSpace: .sRGB)
                Issue.record("wrote to \(path)?")
            } catch {
                guard case .io = error else {
                    Issue.record("expected .io for \(path), got \(error)")
                    continue
                }
                #expect(error.recovery.contains("writable") || error.recovery.contains("write"))
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    /// A failure half-way through a render (here: a processor) leaves the destination untouched.
    @Test func failedRenderLeavesNoFile() throws {
        struct Boom: Error {}
        let dir = try TemporaryDirectory()
        let image = try Kodak.image(1)
        let failing = image.withExtent(image.extent, processorDescription: "boom", argumentDigest: 2, roiCallback: { $0 }) { _, _ in
            throw Boom()
        }
        let out = URL(fileURLWithPath: dir.path("out.png"))
        #expect(throws: DaguerreError.self) { try Context().writePNGRepresentation(of: failing, to: out, colorSpace: .sRGB) }
        expectNoLeftovers(dir, except: [])
    }

    @Test func infiniteExtentNeedsBounds() throws {
        #expect(throws: DaguerreError.self) { _ = try Context().createBuffer(Image(color: .white), format: .rgba8, colorSpace: .sRGB) }
    }
}
