import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

@Suite("Damaged, foreign and unwritable files")
struct RobustnessTests {
    @Test("Third-party files decode all rows or throw a DaguerreError")
    func thirdParty() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixture.thirdParty.path).filter { $0 != "README.md" }.sorted()
        #expect(files.count >= 8)
        var decoded: [String] = []
        for name in files {
            let path = Fixture.thirdParty.appendingPathComponent(name).path
            do {
                let decoder = try ImageReader.open(path: path)
                try readAllRowsInBands(decoder)
                decoded.append(name)
            } catch {
                // Typed throws: `error` is a DaguerreError by construction; it must say something.
                #expect(!error.message.isEmpty, "\(name)")
                if name.hasSuffix(".dng") { #expect(error.isUnsupported || error.isCorrupt, "\(name): \(error)") }
                if name.hasSuffix(".mov") || name.hasSuffix(".heic") {
                    #expect(error == .unknownFormat(path: path), "\(name): \(error)")
                }
            }
        }
        #expect(decoded.contains("exiftool_t_Apple.jpg"))
        #expect(decoded.contains("exiftool_t_Google.jpg"))
        // DNGs are TIFF-based, but their raw images are not plain TIFF images: refused, not shown as their previews.
        #expect(!decoded.contains { $0.hasSuffix(".dng") })
    }

    @Test("Random byte flips in JPEG, PNG and TIFF files never crash", arguments: [ImageFileFormat.jpeg, .png, .tiff])
    func fuzz(format: ImageFileFormat) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("seed.\(format.rawValue)")
        let image = try decodeOurs(Fixture.kodim(8)).image
        // A 96-row crop keeps the test fast.
        let small = TightImage(width: image.width, height: 96, format: .rgb8, bytes: Array(image.bytes.prefix(image.rowBytes * 96)))
        try writeOurs(small, to: path, format: format, compression: .lzw)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var rng = SeededRandom(seed: 0xDA6 + UInt64(format.rawValue.count))
        var outcomes: [String: Int] = [:]
        for variant in 0..<50 {
            var bytes = original
            let flips = Int.random(in: 1...8, using: &rng)
            for _ in 0..<flips {
                // Headers matter most: half the flips land in the first 512 bytes.
                let limit = Bool.random(using: &rng) ? min(512, bytes.count) : bytes.count
                bytes[Int.random(in: 0..<limit, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            do {
                let decoder = try ImageReader.open(data: bytes)
                try readAllRowsInBands(decoder)
                // Rows out of order too (restarts, random access).
                if decoder.info.height > 20 {
                    let stride = decoder.info.width * decoder.info.pixelFormat.bytesPerPixel
                    var row = [UInt8](repeating: 0, count: stride)
                    try row.withUnsafeMutableBytes { try decoder.readRows(y: 3, count: 1, into: $0.baseAddress!, bytesPerRow: stride) }
                }
                outcomes["decoded", default: 0] += 1
            } catch {
                outcomes[String(describing: error).prefix(20).description, default: 0] += 1
            }
            _ = variant
        }
        #expect(outcomes.values.reduce(0, +) == 50)
    }

    @Test("An unwritable destination is .io at creation, before any row")
    func unwritable() throws {
        let options = EncoderOptions(format: .jpeg, width: 8, height: 8, rowFormat: .rgb8)
        for format in ImageFileFormat.allCases {
            var o = options
            o.format = format
            expectDaguerreError(
                "/proc (\(format))",
                {
                    if case .io(let operation, let path, _) = $0 { return operation == "create a temporary file in" && path == "/proc" }
                    return false
                }
            ) { _ = try ImageWriter.create(path: "/proc/daguerre.\(format.rawValue)", options: o) }
            expectDaguerreError("missing directory (\(format))", { $0.isIO }) {
                _ = try ImageWriter.create(path: "/nonexistent-daguerre-dir/x/out.\(format.rawValue)", options: o)
            }
        }
    }

    @Test("Aborted, short and abandoned encodes leave no file and no temporary file", arguments: ImageFileFormat.allCases)
    func noLeftovers(format: ImageFileFormat) throws {
        let dir = try TemporaryDirectory()
        let image = randomImage(width: 32, height: 32, format: .rgb8, seed: 6)
        let options = EncoderOptions(format: format, width: 32, height: 32, rowFormat: .rgb8)
        let path = dir.path("out.\(format.rawValue)")
        // Existing file is left untouched by a failed encode.
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        do {
            let e = try ImageWriter.create(path: path, options: options)
            try image.bytes.withUnsafeBytes { try e.writeRows($0.baseAddress!, bytesPerRow: 96, count: 10) }
            e.abort()
        }
        #expect(dir.contents() == ["out.\(format.rawValue)"])
        do {
            let e = try ImageWriter.create(path: path, options: options)
            try image.bytes.withUnsafeBytes { try e.writeRows($0.baseAddress!, bytesPerRow: 96, count: 10) }
            expectDaguerreError("finish after 10 of 32 rows", { if case .invalidArgument = $0 { true } else { false } }) { try e.finish() }
        }
        #expect(dir.contents() == ["out.\(format.rawValue)"])
        do {
            let e = try ImageWriter.create(path: path, options: options)
            try image.bytes.withUnsafeBytes { try e.writeRows($0.baseAddress!, bytesPerRow: 96, count: 5) }
            // released without finish
        }
        #expect(dir.contents() == ["out.\(format.rawValue)"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
        // Too many rows is refused, and the encode can still complete.
        let e = try ImageWriter.create(path: path, options: options)
        try image.bytes.withUnsafeBytes { raw in
            try e.writeRows(raw.baseAddress!, bytesPerRow: 96, count: 32)
            expectDaguerreError("a 33rd row", { if case .invalidArgument = $0 { true } else { false } }) {
                try e.writeRows(raw.baseAddress!, bytesPerRow: 96, count: 1)
            }
        }
        try e.finish()
        #expect(dir.contents() == ["out.\(format.rawValue)"])
        #expect(try ImageReader.open(path: path).info.format == format)
    }

    @Test("Missing files are .io, other files .unknownFormat, wrong arguments .invalidArgument")
    func openErrors() throws {
        let dir = try TemporaryDirectory()
        expectDaguerreError("missing", { $0.isIO }) { _ = try ImageReader.open(path: dir.path("nope.jpg")) }
        expectDaguerreError("directory", { $0.isIO }) { _ = try ImageReader.open(path: dir.url.path) }
        try Data("hello, not an image".utf8).write(to: URL(fileURLWithPath: dir.path("t.jpg")))
        expectDaguerreError("text", { if case .unknownFormat = $0 { true } else { false } }) {
            _ = try ImageReader.open(path: dir.path("t.jpg"))
        }
        expectDaguerreError("empty", { if case .unknownFormat = $0 { true } else { false } }) { _ = try ImageReader.open(data: []) }
        expectDaguerreError("empty JPEG", { $0.isTruncated }) { _ = try JPEGDecoder(data: []) }
        expectDaguerreError("empty PNG", { $0.isCorrupt || $0.isTruncated }) { _ = try PNGDecoder(data: []) }
        expectDaguerreError("empty TIFF", { $0.isCorrupt || $0.isTruncated }) { _ = try TIFFDecoder(data: []) }
        let png = dir.path("a.png")
        try writeOurs(randomImage(width: 8, height: 8, format: .rgb8, seed: 1), to: png, format: .png)
        let d = try ImageReader.open(path: png)
        var row = [UInt8](repeating: 0, count: 24)
        expectDaguerreError("row 8 of 8", { if case .invalidArgument = $0 { true } else { false } }) {
            try row.withUnsafeMutableBytes { try d.readRows(y: 8, count: 1, into: $0.baseAddress!, bytesPerRow: 24) }
        }
        expectDaguerreError("short stride", { if case .invalidArgument = $0 { true } else { false } }) {
            try row.withUnsafeMutableBytes { try d.readRows(y: 0, count: 1, into: $0.baseAddress!, bytesPerRow: 3) }
        }
        // Limits apply to every reader.
        expectDaguerreError("limits", { $0.isTooLarge }) { _ = try ImageReader.open(path: png, limits: Limits(maxDimension: 4)) }
    }
}
