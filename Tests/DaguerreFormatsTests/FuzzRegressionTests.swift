import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing
@testable import DaguerreFormats

/// Every input a fuzzer crashed on, kept in Tests/fuzz-regressions and replayed through the
/// same calls as its harness (fuzz/Sources). Each must now end in a typed error or a result.
@Suite struct FuzzRegressionTests {
    static let folder = Judge.repoRoot.appendingPathComponent("Tests/fuzz-regressions")

    static func inputs(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    @Test("FuzzDNG crashes, replayed", arguments: inputs("dng-"))
    func dng(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        // The same calls, with the same limits, as fuzz/Sources/FuzzDNG.
        var limits = Limits.default
        limits.maxPixels = 1 << 22
        limits.maxBufferBytes = 1 << 26
        if let reader = try? TIFFStructureReader(bytes: bytes), let tree = try? reader.tree(), let ifd0 = tree.first {
            _ = EXIFCodec.metadata(ifd0: ifd0, reader: reader)
        }
        if let dng = try? DNGReader.read(bytes: bytes, limits: limits) {
            var plane = [Float](repeating: 0.5, count: 16 * 16)
            for list in dng.opcodeLists {
                for op in list.opcodes { op.apply(to: &plane, width: 16, height: 16, channels: 1) }
            }
            #expect(plane.count == 256)
        }
    }

    @Test("FuzzJPEGMetadata crashes, replayed", arguments: inputs("jpegmeta-"))
    func jpegMetadata(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        // The same calls as fuzz/Sources/FuzzJPEGMetadata.
        if let info = try? JPEGFileMetadata(bytes: bytes) {
            _ = info.metadata.map { EXIFCodec.directories(for: $0) }
            _ = info.xmp?.serialized()
        }
        _ = try? JPEGFileMetadata.replacingMetadata(in: bytes, with: [.exif(TIFFSerializer.file([TIFFDirectory()], byteOrder: .bigEndian))])
        #expect(AppleMakerNote(parsing: bytes) == nil)
    }
}
