import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreSamples
import DaguerreTestSupport
import DaguerreVirtualCamera
import Foundation
import Testing

/// The seeds' photo samples (sessions 501 and 511, DaguerreSamples' PhotoSamples) run against
/// small virtual cameras, each checked by what it delivered: the callbacks in the documented
/// order, the JPEGs decoded at the resolved size, the DNGs read back, the brackets' exposures
/// in order, the scene monitor's flags over a light sweep, and the errors the package gives on
/// purpose today.
@Suite("The seeds' photo samples", .hangGuard, .serialized)
struct PhotoSamplesTests {
    /// A 640×480 back camera (the photo preset streams its full sensor, so RAW is offered) and a
    /// front camera that streams 320×240 and takes 640×480 high-resolution stills (C5): the
    /// 12 MP and 5 MP cameras' shapes, small enough for a debug build.
    static func cameras() throws -> (back: VirtualCaptureDevice, front: VirtualCaptureDevice) {
        var front = VirtualCameraProfile.front
        front.sensor.width = 640
        front.sensor.height = 480
        front.modes = [
            SensorReadoutMode(width: 320, height: 240, maxFrameRate: 30), SensorReadoutMode(width: 640, height: 480, maxFrameRate: 15),
        ]
        return (
            try VirtualCaptureDevice(profile: SmallCamera.profile, position: .back, seed: 5),
            try VirtualCaptureDevice(profile: front, position: .front, seed: 6)
        )
    }

    static let documentedOrder = ["willBeginCapture", "willCapturePhoto", "didCapturePhoto"]

    @Test(
        "Every sample runs: JPEG and DNG files at the resolved sizes, callbacks in order, brackets in exposure order, scene flags over a light sweep"
    )
    func everySample() async throws {
        let dir = try TemporaryDirectory("photo-samples")
        let (back, front) = try Self.cameras()
        let folder = dir.path("")
        let records = try await onOwnThread {
            try PhotoSampleRunner(back: back, front: front, folder: folder, timeout: 300).runAll()
        }
        for r in records { print(r.summary) }
        let byName = Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func record(_ name: String) throws -> PhotoSampleRecord { try #require(byName[name], "no record for \(name)") }
        func names(_ r: PhotoSampleRecord) -> [String] { r.callbacks.map { $0.name.components(separatedBy: " (")[0] } }
        func jpegSize(_ path: String) throws -> (Int, Int) {
            let info = try JPEGFileMetadata(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            return (info.width, info.height)
        }
        let meanLevel = ImageMeasures.meanLevel
        for r in records {
            // Callback times never go back, and each request's callbacks open with willBegin and close with didFinish.
            #expect(zip(r.callbacks, r.callbacks.dropFirst()).allSatisfy { $0.milliseconds <= $1.milliseconds }, "\(r.name)")
            if !r.callbacks.isEmpty {
                #expect(names(r).first == "willBeginCapture" && names(r).last == "didFinishCapture", "\(r.name): \(names(r))")
            }
        }

        // Session 511: prepared before the session started; the completion came once it ran.
        let prepare = try record("setPreparedPhotoSettingsArray")
        #expect(prepare.preparation?.prepared == true && prepare.preparation?.error == nil, "\(prepare.summary)")

        // The preview sample: a 640×480 JPEG with a preview fitted into 160×160.
        let preview = try record("takePhotoWithPreviewImage")
        #expect(names(preview) == Self.documentedOrder + ["didFinishProcessingPhoto", "didFinishCapture"])
        #expect(preview.errors.isEmpty && preview.files.count == 1, "\(preview.summary)")
        #expect(preview.resolved.first?.previewPhotoDimensions == CaptureDimensions(width: 160, height: 120))
        #expect(preview.images.first?.previewWidth == 160 && preview.images.first?.previewHeight == 120)
        let previewJPEG = try JPEGFileMetadata(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: try #require(preview.files.first)))))
        #expect(previewJPEG.width == 640 && previewJPEG.height == 480)
        #expect(previewJPEG.thumbnail != nil, "the preview is the JPEG's EXIF thumbnail")

        // BGRA: an uncompressed photo, no file (the slide writes none).
        let bgra = try record("takeBGRAPhoto")
        #expect(bgra.errors.isEmpty && bgra.files.isEmpty)
        #expect(
            bgra.images.count == 1 && bgra.images.first?.format == "BGRA" && bgra.images.first?.width == 640
                && bgra.images.first?.height == 480)

        // Brackets: one callback per image naming its bracket settings, in order; brighter with more exposure.
        let auto = try record("takeAutoExposureBracket")
        #expect(auto.errors.isEmpty && auto.files.count == 3, "\(auto.summary)")
        let autoItems: [BracketedStillImageSettings] = [-2.0, 0, 2].map { .autoExposure(exposureTargetBias: $0) }
        #expect(auto.images.map(\.bracket) == autoItems)
        #expect(auto.resolved.first?.expectedPhotoCount == 3)
        for file in auto.files { #expect(try jpegSize(file) == (640, 480)) }
        let autoLevels = try auto.files.map(meanLevel)
        #expect(autoLevels == autoLevels.sorted() && autoLevels[0] + 20 < autoLevels[2], "−2, 0, +2 EV: \(autoLevels)")
        let manual = try record("takeManualExposureBracket")
        #expect(manual.errors.isEmpty && manual.files.count == 3, "\(manual.summary)")
        let manualItems: [BracketedStillImageSettings] = [
            .manualExposure(duration: 1.0 / 60, iso: 100), .manualExposure(duration: 1.0 / 60, iso: 400),
            .manualExposure(duration: 1.0 / 30, iso: 400),
        ]
        #expect(manual.images.map(\.bracket) == manualItems)
        let manualLevels = try manual.files.map(meanLevel)
        #expect(
            manualLevels[0] < manualLevels[1] && manualLevels[1] <= manualLevels[2], "ISO 100, 400, then twice the time: \(manualLevels)")

        // RAW: a DNG our reader opens, with the sensor's size; RAW + JPEG: the processed photo first.
        let raw = try record("takeRawPhoto")
        #expect(names(raw) == Self.documentedOrder + ["didFinishProcessingRawPhoto", "didFinishCapture"])
        #expect(raw.errors.isEmpty && raw.files.count == 1 && raw.files.first?.hasSuffix(".dng") == true, "\(raw.summary)")
        let dng = try DNGReader.read(path: try #require(raw.files.first))
        #expect(dng.rawSize.width == 640 && dng.rawSize.height == 480)
        let rawPlus = try record("takeRAWPlusJPEGPhoto")
        #expect(names(rawPlus) == Self.documentedOrder + ["didFinishProcessingPhoto", "didFinishProcessingRawPhoto", "didFinishCapture"])
        #expect(rawPlus.errors.isEmpty && rawPlus.files.count == 2, "\(rawPlus.summary)")
        #expect(rawPlus.resolved.first?.expectedPhotoCount == 2)
        let plusDNG = try DNGReader.read(path: try #require(rawPlus.files.first { $0.hasSuffix(".dng") }))
        #expect(plusDNG.rawSize.width == 640 && plusDNG.rawSize.height == 480)
        #expect(try jpegSize(try #require(rawPlus.files.first { $0.hasSuffix(".jpg") })) == (640, 480))

        // The Live Photo: the photo, then the movie's two callbacks (L7), then didFinishCapture.
        let live = try record("takeLivePhoto")
        #expect(
            names(live) == Self.documentedOrder + [
                "didFinishProcessingPhoto", "didFinishRecordingLivePhotoMovie", "didFinishProcessingLivePhotoToMovieFile",
                "didFinishCapture",
            ])
        #expect(live.errors.isEmpty, "\(live.summary)")
        #expect(live.resolved.first?.livePhotoMovieDimensions == CaptureDimensions(width: 576, height: 432))
        // The movie moved beside the photo: nothing is left in the temporary directory.
        #expect(live.files.map { ($0 as NSString).pathExtension } == ["jpg", "mov"], "\(live.summary)")

        // Scene monitoring over 400 → 30 → 1 → 400 lux: SIS, then flash, then neither.
        let scene = try record("sceneMonitoring")
        #expect(scene.errors.isEmpty, "\(scene.summary)")
        let sis = scene.sceneChanges.firstIndex(of: SceneMonitoringState(isStillImageStabilizationScene: true))
        let flash = scene.sceneChanges.firstIndex(of: SceneMonitoringState(isFlashScene: true))
        #expect(sis != nil && flash != nil && sis! < flash!, "\(scene.sceneChanges)")
        #expect(scene.sceneChanges.last == SceneMonitoringState())

        // The monitored settings in a dim scene resolve to still-image stabilization, as the monitor
        // said (S4), and the fused burst is one photo.
        let monitored = try record("takeMonitoredPhoto")
        #expect(monitored.resolved.first?.isStillImageStabilizationEnabled == true && monitored.resolved.first?.isFlashEnabled == false)
        #expect(monitored.errors.isEmpty && monitored.files.count == 1, "\(monitored.summary)")

        // The flash sample at 1 lux: auto flash fires.
        let flashPhoto = try record("takeFlashPhoto")
        #expect(flashPhoto.resolved.first?.isFlashEnabled == true, "\(flashPhoto.summary)")
        #expect(flashPhoto.errors.isEmpty && flashPhoto.files.count == 1)
        #expect(try jpegSize(try #require(flashPhoto.files.first)) == (640, 480))

        // High resolution on the front camera: a 640×480 still from the 320×240 stream.
        let high = try record("takeHighResolutionPhoto")
        #expect(high.errors.isEmpty && high.files.count == 1, "\(high.summary)")
        #expect(high.resolved.first?.photoDimensions == CaptureDimensions(width: 640, height: 480))
        #expect(try jpegSize(try #require(high.files.first)) == (640, 480))
    }
}
