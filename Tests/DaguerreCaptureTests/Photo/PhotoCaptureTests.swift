import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import Foundation
import Testing

@Suite("PhotoOutput: capture", .hangGuard, .serialized)
struct PhotoCaptureTests {
    @Test("A JPEG photo: willBegin, willCapture, didCapture, the photo, didFinish; resolved before the first callback (P7, P8)")
    func jpeg() throws {
        let rig = try SmallCamera.running()
        rig.startTicking()
        defer { rig.stopTicking() }
        let recorder = PhotoRecorder()
        var settings = PhotoSettings()
        settings.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: .bgra, width: 160, height: 160)
        try rig.output.capturePhoto(with: settings, delegate: recorder)
        #expect(recorder.waitForFinish())
        #expect(recorder.events == [.willBegin, .willCapture, .didCapture, .photo(ok: true, bracket: nil), .finish(ok: true)])
        let photo = try #require(recorder.photos.first)
        #expect(photo.resolved.photoDimensions == CaptureDimensions(width: 640, height: 480))
        #expect(photo.resolved.previewPhotoDimensions == CaptureDimensions(width: 160, height: 120))
        #expect(photo.resolved.expectedPhotoCount == 1)
        let buffer = try #require(photo.buffer)
        guard case .jpeg(let bytes) = buffer.content else {
            Issue.record("not a JPEG")
            return
        }
        let data = try PhotoOutput.jpegPhotoDataRepresentation(forJPEGSampleBuffer: buffer, previewPhotoSampleBuffer: photo.preview)
        let info = try JPEGFileMetadata(bytes: data)
        #expect(info.width == 640 && info.height == 480)
        #expect(bytes.count > 1000)
        #expect(photo.preview?.width == 160 && photo.preview?.height == 120)
    }
}
