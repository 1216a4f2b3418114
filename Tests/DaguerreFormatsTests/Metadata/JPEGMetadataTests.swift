import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// JPEG files with EXIF, Apple MakerNote, ICC, thumbnail and XMP, judged by exiftool and Pillow
/// (SPEC P12, V4, L3, W5).
@Suite struct JPEGMetadataTests {
    @Test("A Display P3 JPEG with EXIF, MakerNote, thumbnail and XMP reads back in exiftool, Pillow and our reader")
    func jpegWithEverything() throws {
        let dir = try TemporaryDirectory()
        let photo = SampleBuffer(pixels: try TestPhotos.gradient(width: 640, height: 480), photoMetadata: TestPhotos.metadata())
        let preview = SampleBuffer(pixels: try TestPhotos.gradient(width: 320, height: 240, format: .bgra8))
        var xmp = XMPPacket()
        xmp.set("Label", "Daguerre test", in: .xmp)
        let bytes = try PhotoDataRepresentation.jpegPhotoDataRepresentation(
            forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: preview, xmp: xmp)
        let path = dir.path("photo-P3.jpg")
        try AtomicFile.write(bytes, to: path)
        SampleFiles.keep(path)

        let json = try Judge.run("exiftool", ["-j", "-a", "-G1", "-n", path])
        let tags = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first)
        func tag(_ k: String) -> String { tags[k].map { "\($0)" } ?? "missing" }
        #expect(tag("IFD0:Make") == "Daguerre")
        #expect(tag("IFD0:Model") == "Virtual Back Camera")
        #expect(tag("IFD0:Software") == "Daguerre 0.1")
        #expect(tag("IFD0:Orientation") == "6")
        #expect(tag("ExifIFD:DateTimeOriginal") == "2025:11:20 23:40:00")
        #expect(tag("ExifIFD:OffsetTimeOriginal") == "-05:00")
        #expect(tag("ExifIFD:ExposureTime") == "0.008333333333")
        #expect(tag("ExifIFD:FNumber") == "1.8")
        #expect(tag("ExifIFD:ISO") == "200")
        #expect(tag("ExifIFD:FocalLength") == "3.99")
        #expect(tag("ExifIFD:FocalLengthIn35mmFormat") == "28")
        #expect(tag("ExifIFD:Flash") == "25")
        #expect(tag("ExifIFD:ColorSpace") == "65535")
        #expect(tag("ExifIFD:LensModel") == "Daguerre back camera 3.99mm f/1.8")
        #expect(abs((tags["GPS:GPSLatitude"] as? Double ?? 0) - 48.858370) < 1e-6)
        #expect(tags["GPS:GPSLongitudeRef"] as? String == "W")
        #expect(
            abs((tags["Composite:GPSLongitude"] as? Double ?? 0) + 2.294481) < 1e-6, "west is negative: \(tag("Composite:GPSLongitude"))")
        #expect(abs((tags["GPS:GPSAltitude"] as? Double ?? 0) - 35.5) < 1e-3)
        #expect(tag("Apple:MediaGroupUUID") == TestPhotos.uuid)
        #expect(
            tag("ICC-header:ProfileDescription").contains("Display P3") || tag("ICC_Profile:ProfileDescription").contains("Display P3"),
            "\(tags.filter { $0.key.contains("ProfileDescription") })")
        #expect(tag("XMP-xmp:Label") == "Daguerre test")

        // The thumbnail extracts and decodes.
        let thumbPath = dir.path("thumb.jpg")
        let thumb = try Judge.run("sh", ["-c", "exiftool -b -ThumbnailImage '\(path)' > '\(thumbPath)' && echo ok"])
        #expect(thumb.contains("ok"))
        let thumbInfo = try ImageReader.open(path: thumbPath).info
        #expect(thumbInfo.width == 160 && thumbInfo.height == 120)

        let validation = try Judge.run("exiftool", ["-validate", "-warning", "-a", path])
        #expect(validation.trimmingCharacters(in: .whitespacesAndNewlines) == "Validate                        : OK", "\(validation)")
        let pillow = try decodeJudge("pillow", path, in: dir)
        #expect(pillow.meta["width"] as? Int == 640)

        // Our reader.
        let info = try JPEGFileMetadata(bytes: bytes)
        #expect(info.metadata?.livePhotoContentIdentifier == TestPhotos.uuid)
        #expect(info.metadata?.iso == 200)
        #expect(info.metadata?.orientation == 6)
        #expect(info.metadata?.gps.map { abs($0.longitude + 2.294481) < 1e-6 } == true)
        #expect(info.metadata?.dateTimeOriginal.map { abs($0.timeIntervalSince1970 - 1_763_700_000) < 1 } == true)
        #expect(info.metadata?.timeZoneOffset == -5 * 3600)
        #expect(info.thumbnail != nil)
        #expect(info.xmp?.value("Label", in: .xmp) == "Daguerre test")
        #expect(info.iccProfile != nil)
    }

    @Test("An sRGB JPEG says ColorSpace sRGB and carries an sRGB profile")
    func srgbJPEG() throws {
        let dir = try TemporaryDirectory()
        let photo = SampleBuffer(pixels: try TestPhotos.gradient(width: 64, height: 48, space: .sRGB), photoMetadata: TestPhotos.metadata())
        let bytes = try PhotoDataRepresentation.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: nil)
        let path = dir.path("photo-sRGB.jpg")
        try AtomicFile.write(bytes, to: path)
        let out = try Judge.run("exiftool", ["-s3", "-ExifIFD:ColorSpace", "-ProfileDescription", path])
        #expect(out.contains("sRGB"))
        let validation = try Judge.run("exiftool", ["-validate", "-warning", "-a", path])
        #expect(validation.contains(": OK"), "\(validation)")
    }

    @Test("Third-party JPEGs: Apple's and Google's EXIF, MakerNote and XMP parse or refuse cleanly")
    func thirdParty() throws {
        for name in ["exiftool_t_Apple.jpg", "exiftool_t_Google.jpg"] {
            let bytes = [UInt8](try Data(contentsOf: Fixture.thirdParty.appendingPathComponent(name)))
            let info = try JPEGFileMetadata(bytes: bytes)
            #expect(info.width > 0)
            #expect(info.metadata?.make != nil, "\(name): no Make")
        }
    }

    @Test("XMP with a Container directory round-trips")
    func xmpRoundTrip() throws {
        var x = XMPPacket()
        x.set("MotionPhoto", "1", in: .googleCamera)
        x.set("MotionPhotoVersion", "1", in: .googleCamera)
        x.containerDirectory = [
            .init(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 0),
            .init(mime: "video/mp4", semantic: "MotionPhoto", length: 12345, padding: 0),
        ]
        let back = try XMPPacket(parsing: x.serialized())
        #expect(back.value("MotionPhoto", in: .googleCamera) == "1")
        #expect(back.containerDirectory == x.containerDirectory)
    }

    @Test("XMP read from another writer is written back with its prefixes, the same text every time, and parses as XML")
    func xmpRewrite() throws {
        // As a phone writes it: rdf:about, prefixes of its own, an element-form property.
        let phone = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
              xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" xmlns:xmpNote="http://ns.adobe.com/xmp/note/"
              GCamera:MotionPhoto="1" hdrgm:Version="1.0" xmpNote:HasExtendedXMP="ABC">
            <GCamera:MotionPhotoVersion>1</GCamera:MotionPhotoVersion>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let packet = try XMPPacket(parsing: phone)
        #expect(packet.properties["http://www.w3.org/1999/02/22-rdf-syntax-ns#"] == nil, "rdf:about is syntax, not a property")
        #expect(packet.value("MotionPhotoVersion", in: .googleCamera) == "1")
        let text = packet.serialized()
        for _ in 0..<8 { #expect(try XMPPacket(parsing: phone).serialized() == text, "the same packet, the same text") }
        for written in ["hdrgm:Version=\"1.0\"", "xmpNote:HasExtendedXMP=\"ABC\"", "GCamera:MotionPhotoVersion=\"1\""] {
            #expect(text.contains(written), "\(written) in \(text)")
        }
        #expect(text.components(separatedBy: "about=").count == 2)
        #expect(try XMPPacket(parsing: text) == packet)
        // Two namespaces with one prefix: the second gets a prefix of its own.
        var clash = XMPPacket()
        clash.set("A", "1", in: .init(uri: "http://example.com/a/", prefix: "p"))
        clash.set("B", "2", in: .init(uri: "http://example.com/b/", prefix: "p"))
        let clashText = clash.serialized()
        #expect(try XMPPacket(parsing: clashText).properties == clash.properties)
        // An independent XML parser (Python's) reads both.
        for t in [text, clashText] {
            try Judge.parseXML(t)
        }
    }

    @Test("Damaged EXIF and JPEG headers are typed errors, never crashes")
    func hostile() throws {
        let photo = SampleBuffer(pixels: try TestPhotos.gradient(width: 64, height: 48), photoMetadata: TestPhotos.metadata())
        let good = try PhotoDataRepresentation.jpegPhotoDataRepresentation(
            forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: SampleBuffer(pixels: try TestPhotos.gradient(width: 64, height: 48)))
        for n in stride(from: 0, to: min(good.count, 4000), by: 7) { _ = try? JPEGFileMetadata(bytes: Array(good.prefix(n))) }
        var rng = SeededRandom(seed: 11)
        for _ in 0..<3000 {
            var b = good
            for _ in 0..<4 { b[Int.random(in: 2..<min(b.count, 3000), using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            _ = try? JPEGFileMetadata(bytes: b)
        }
    }
}
