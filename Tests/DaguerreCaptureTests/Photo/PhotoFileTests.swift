import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

/// Captured photos as files (SPEC P12, R2–R5, V4), judged by tools nobody here wrote: exiftool's
/// validation, Pillow's decoder and LibRaw (rawpy).
@Suite("PhotoOutput: files", .hangGuard, .serialized)
struct PhotoFileTests {
    @Test(
        "RAW + JPEG with a preview: the JPEG passes exiftool -validate and Pillow, with EXIF, ICC profile, thumbnail and Apple MakerNote; the DNG passes exiftool -validate and rawpy, with its preview, noise profile and both calibrations"
    )
    func rawPlusJPEG() throws {
        let rig = try SmallCamera.running()
        rig.startTicking()
        defer { rig.stopTicking() }
        let raw = try #require(rig.output.availableRawPhotoPixelFormatTypes.first)
        var settings = PhotoSettings(rawPixelFormatType: raw, processedFormat: [.videoCodec: .jpeg])
        settings.previewPhotoFormat = PreviewPhotoFormat(
            pixelFormatType: settings.availablePreviewPhotoPixelFormatTypes[0], width: 160, height: 160)
        let recorder = PhotoRecorder()
        try rig.output.capturePhoto(with: settings, delegate: recorder)
        #expect(recorder.waitForFinish())
        let jpegPhoto = try #require(recorder.photos.first { !$0.isRAW })
        let rawPhoto = try #require(recorder.photos.first { $0.isRAW })
        #expect(rawPhoto.resolved.rawPhotoDimensions == CaptureDimensions(width: 640, height: 480))
        let dir = try TemporaryDirectory()

        let jpegPath = dir.path("photo.jpg")
        let jpeg = try PhotoOutput.jpegPhotoDataRepresentation(
            forJPEGSampleBuffer: try #require(jpegPhoto.buffer), previewPhotoSampleBuffer: jpegPhoto.preview)
        try Data(jpeg).write(to: URL(fileURLWithPath: jpegPath))
        let validation = try Judge.run("exiftool", ["-validate", "-warning", "-error", "-a", jpegPath])
        #expect(validation.contains("Validate                        : OK"), "\(validation)")
        let tags = try Judge.run(
            "exiftool",
            [
                "-s", "-ExposureTime", "-ISO", "-Flash", "-DateTimeOriginal", "-Make", "-ThumbnailLength", "-ProfileDescription",
                "-MakerNoteVersion", jpegPath,
            ])
        for tag in [
            "ExposureTime", "ISO", "Flash", "DateTimeOriginal", "Make", "ThumbnailLength", "ProfileDescription", "MakerNoteVersion",
        ] {
            #expect(tags.contains(tag), "exiftool found no \(tag): \(tags)")
        }
        let decoded = try Judge.python("decode.py", ["pillow", jpegPath, dir.path("photo.rgb"), "RGB"])
        #expect(decoded["width"] as? Int == 640 && decoded["height"] as? Int == 480)

        let dngPath = dir.path("photo.dng")
        let dng = try PhotoOutput.dngPhotoDataRepresentation(
            forRawSampleBuffer: try #require(rawPhoto.buffer), previewPhotoSampleBuffer: rawPhoto.preview)
        try Data(dng).write(to: URL(fileURLWithPath: dngPath))
        let dngValidation = try Judge.run("exiftool", ["-validate", "-warning", "-a", dngPath])
        #expect(dngValidation.trimmingCharacters(in: .whitespacesAndNewlines) == "Validate                        : OK", "\(dngValidation)")
        let mosaic = try #require(rawPhoto.buffer?.bayerImage)
        let info = try Judge.python("dng_judge.py", ["raw", dngPath, dir.path("raw.u16")])
        #expect(info["width"] as? Int == mosaic.width && info["height"] as? Int == mosaic.height)
        let judged = try Data(contentsOf: URL(fileURLWithPath: dir.path("raw.u16"))).withUnsafeBytes {
            Array($0.bindMemory(to: UInt16.self))
        }
        let same = judged == mosaic.samples
        #expect(same, "LibRaw's raw_image differs from the sensor's samples")
        let back = try DNGReader.read(path: dngPath)
        #expect(back.preview != nil, "the DNG carries the preview")
        #expect(!back.color.noiseProfile.isEmpty, "the DNG carries a NoiseProfile")
        #expect(back.color.colorMatrix2 != nil && back.color.calibrationIlluminant2 != nil, "the DNG carries both calibrations")
    }

    @Test("BGRA, 420f and 420v photos: sizes, formats, and the Y'CbCr matrix and range they state; 420v is sRGB (W5)")
    func uncompressed() throws {
        let rig = try SmallCamera.running()
        rig.startTicking()
        defer { rig.stopTicking() }
        let recorder = PhotoRecorder()
        for pixel in [PixelFormatType.bgra, .yuv420FullRange, .yuv420VideoRange] {
            try rig.output.capturePhoto(with: PhotoSettings(format: [.pixelFormatType: .pixelFormat(pixel)]), delegate: recorder)
        }
        #expect(recorder.waitForFinish(3))
        let photos = recorder.photos.compactMap(\.buffer)
        #expect(photos.map(\.pixelFormatType) == [.bgra, .yuv420FullRange, .yuv420VideoRange])
        for photo in photos { #expect(photo.width == 640 && photo.height == 480) }
        let full = try #require(photos[1].yCbCrBuffer)
        let video = try #require(photos[2].yCbCrBuffer)
        #expect(full.fullRange && !video.fullRange)
        #expect(full.colorProperties.matrix == 1 && video.colorProperties.matrix == 1, "BT.709 (H.273 matrix 1)")
        #expect(photos[2].colorSpace == .sRGB, "420v photos are sRGB")
        // A Y'CbCr preview becomes the JPEG thumbnail through the data representation.
        var settings = PhotoSettings()
        settings.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: .yuv420FullRange, width: 160, height: 160)
        let second = PhotoRecorder()
        try rig.output.capturePhoto(with: settings, delegate: second)
        #expect(second.waitForFinish())
        let p = try #require(second.photos.first)
        #expect(p.preview?.pixelFormatType == .yuv420FullRange && p.preview?.width == 160 && p.preview?.height == 120)
        let file = try PhotoOutput.jpegPhotoDataRepresentation(
            forJPEGSampleBuffer: try #require(p.buffer), previewPhotoSampleBuffer: p.preview)
        #expect(try JPEGFileMetadata(bytes: file).thumbnail != nil)
    }
}
