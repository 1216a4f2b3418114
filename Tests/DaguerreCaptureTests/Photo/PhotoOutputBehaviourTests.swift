import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import DaguerreVirtualCamera
import Dispatch
import Foundation
import Synchronization
import Testing

/// The output's other promises: resource preparation (SPEC Q1–Q5), the weakly held delegate
/// (P9), high-resolution stills (C5), refusals that leave the session running and write
/// nothing (P6), and the deprecated StillImageOutput (P14).
@Suite("PhotoOutput: preparation, delegate, high resolution, refusals", .hangGuard, .serialized)
struct PhotoOutputBehaviourTests {
    /// Collects preparation completions.
    final class Completions: Sendable {
        private let results = Mutex<[(Int, Bool, DaguerreError?)]>([])
        private let signal = DispatchSemaphore(value: 0)
        func handler(_ tag: Int) -> PhotoPreparationCompletion {
            { [self] prepared, error in
                results.withLock { $0.append((tag, prepared, error)) }
                signal.signal()
            }
        }
        func wait(_ n: Int = 1, timeout: Double = 60) -> Bool {
            (0..<n).allSatisfy { _ in signal.wait(timeout: .now() + timeout) == .success }
        }
        var all: [(Int, Bool, DaguerreError?)] { results.withLock { $0 } }
    }

    static func session(start: Bool) throws -> (CaptureSession, PhotoOutput, VirtualClock) {
        let made = try SmallCamera.configured(try VirtualCaptureDevice(profile: SmallCamera.profile, position: .back, seed: 2))
        if start { try made.0.startRunning() }
        return made
    }

    @Test(
        "Q1, Q4, Q5: the default array is one default settings value; while stopped the completion waits for the start, and a second call cancels the first"
    )
    func preparationWhileStopped() throws {
        let (session, output, _) = try Self.session(start: false)
        #expect(output.preparedPhotoSettingsArray.count == 1 && output.preparedPhotoSettingsArray[0].format?[.videoCodec] == .jpeg)
        let done = Completions()
        let raw = try #require(output.availableRawPhotoPixelFormatTypes.first)
        output.setPreparedPhotoSettingsArray([PhotoSettings()], completionHandler: done.handler(1))
        output.setPreparedPhotoSettingsArray([PhotoSettings(rawPixelFormatType: raw)], completionHandler: done.handler(2))
        #expect(done.wait(1))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(done.all.count == 1 && done.all[0].0 == 1 && done.all[0].1 == false && done.all[0].2 == nil, "the first was replaced")
        try session.startRunning()
        #expect(done.wait(1))
        #expect(done.all.count == 2 && done.all[1].0 == 2 && done.all[1].1 == true && done.all[1].2 == nil, "prepared once running")
        // Sticky across stop and start (Q2).
        session.stopRunning()
        try session.startRunning()
        #expect(output.preparedPhotoSettingsArray.first?.rawPixelFormatType == raw)
        session.stopRunning()
    }

    @Test(
        "Q3: inside a configuration the preparation waits for the commit; settings that cannot be captured complete with the rule's error")
    func preparationInConfiguration() throws {
        let (session, output, _) = try Self.session(start: true)
        let done = Completions()
        session.beginConfiguration()
        output.setPreparedPhotoSettingsArray([PhotoSettings()], completionHandler: done.handler(1))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(done.all.isEmpty, "deferred until the commit")
        try session.commitConfiguration()
        #expect(done.wait(1))
        #expect(done.all.first?.1 == true)
        // RAW with stabilization breaks a rule: not prepared, with the rule's error.
        var bad = PhotoSettings(rawPixelFormatType: try #require(output.availableRawPhotoPixelFormatTypes.first))
        bad.isAutoStillImageStabilizationEnabled = true
        output.setPreparedPhotoSettingsArray([bad], completionHandler: done.handler(2))
        #expect(done.wait(1))
        let last = try #require(done.all.last)
        #expect(last.0 == 2 && last.1 == false)
        if case .photoSettings(let rule, _, _)? = last.2 {
            #expect(rule == "raw-no-sis")
        } else {
            Issue.record("\(String(describing: last.2))")
        }
        session.stopRunning()
    }

    /// A delegate that reports its own release.
    final class Leaving: PhotoProcessingDelegate {
        func capture(
            _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
            previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
            error: DaguerreError?
        ) {}
    }

    @Test("P9: a delegate released mid-capture is not kept alive, and the capture finishes without it")
    func releasedDelegate() throws {
        let rig = try SmallCamera.running()
        rig.startTicking()
        defer { rig.stopTicking() }
        weak var gone: Leaving?
        do {
            let delegate = Leaving()
            gone = delegate
            try rig.output.capturePhoto(with: PhotoSettings(), delegate: delegate)
        }
        #expect(gone == nil, "the output holds the delegate weakly")
        // The output goes on: a later capture with a live delegate completes.
        let recorder = PhotoRecorder()
        try rig.output.capturePhoto(with: PhotoSettings(), delegate: recorder)
        #expect(recorder.waitForFinish())
        #expect(recorder.events.last == .finish(ok: true))
    }

    @Test("C5: the front camera streams 1280×960 and takes 2576×1932 stills with high resolution opted in")
    func highResolution() throws {
        let provider = try VirtualDeviceProvider(seed: 5)
        let (session, output, clock) = try SmallCamera.configured(provider.frontCamera) { try $0.setHighResolutionCaptureEnabled(true) }
        try session.startRunning()
        defer { session.stopRunning() }
        clock.advance(by: 0.5)
        #expect(provider.frontCamera.activeFormat.dimensions == CaptureDimensions(width: 1280, height: 960))
        #expect(output.availableRawPhotoPixelFormatTypes.isEmpty, "RAW is for the back camera (R2)")
        #expect(output.supportedFlashModes == [.off])
        var settings = PhotoSettings()
        settings.isHighResolutionPhotoEnabled = true
        settings.isAutoStillImageStabilizationEnabled = false
        let recorder = PhotoRecorder()
        try output.capturePhoto(with: settings, delegate: recorder)
        let normal = PhotoRecorder()
        var plain = PhotoSettings()
        plain.isAutoStillImageStabilizationEnabled = false
        try output.capturePhoto(with: plain, delegate: normal)
        for _ in 0..<60 { clock.advance(by: 1.0 / 30) }
        #expect(recorder.waitForFinish() && normal.waitForFinish())
        #expect(recorder.photos.first?.resolved.photoDimensions == CaptureDimensions(width: 2576, height: 1932))
        #expect(
            try JPEGFileMetadata(
                bytes: try #require(recorder.photos.first?.buffer.flatMap { if case .jpeg(let b) = $0.content { b } else { nil } })
            ).width == 2576)
        #expect(normal.photos.first?.resolved.photoDimensions == CaptureDimensions(width: 1280, height: 960))
    }

    @Test(
        "P6: a refused Live Photo request (a content identifier of the caller's, L3) leaves the session running and writes nothing"
    )
    func refusals() throws {
        let rig = try SmallCamera.running(configure: { output, _ in try output.setLivePhotoCaptureEnabled(true) })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daguerre-refusal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        final class Both: PhotoProcessingDelegate, LivePhotoMovieProcessingDelegate {
            func capture(
                _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
                previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
                bracketSettings: BracketedStillImageSettings?, error: DaguerreError?
            ) {}
            func capture(
                _ captureOutput: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: Double,
                photoDisplayTime: Double, resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
            ) {}
        }
        let delegate = Both()
        var settings = PhotoSettings()
        settings.livePhotoMovieFileURL = folder.appendingPathComponent("live.mov")
        settings.livePhotoMovieMetadata = [MetadataItem(key: .contentIdentifier, value: "mine")]
        #expect(throws: DaguerreError.self) { try rig.output.capturePhoto(with: settings, delegate: delegate) }
        // A Motion Photo without a JPEG photo is refused too.
        settings = PhotoSettings(format: [.pixelFormatType: .bgra])
        settings.livePhotoMovieFileURL = folder.appendingPathComponent("live.mov")
        settings.motionPhotoFileURL = folder.appendingPathComponent("live.MP.jpg")
        #expect(throws: DaguerreError.self) { try rig.output.capturePhoto(with: settings, delegate: delegate) }
        #expect(rig.session.isRunning)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written")
    }

    @Test("P10: a bracket exposed with lens stabilization is sharper under hand shake than one without")
    func bracketLensStabilization() throws {
        let rig = try SmallCamera.running(configure: { _, device in
            device.camera.lux = 200
            device.camera.motion = .handheld
        })
        rig.startTicking()
        defer { rig.stopTicking() }
        #expect(rig.output.isLensStabilizationDuringBracketedCaptureSupported)
        let raw = try #require(rig.output.availableRawPhotoPixelFormatTypes.first)
        let recorder = PhotoRecorder()
        var ids: [Bool: Int64] = [:]
        for stabilized in [false, true] {
            var bracket = PhotoBracketSettings(
                rawPixelFormatType: raw, processedFormat: nil, bracketedSettings: [.manualExposure(duration: 1.0 / 8, iso: 50)])
            bracket.isLensStabilizationEnabled = stabilized
            try rig.output.capturePhoto(with: bracket, delegate: recorder)
            ids[stabilized] = bracket.uniqueID
        }
        #expect(recorder.waitForFinish(2))
        /// Mean squared difference of horizontally neighbouring green photosites: falls as blur grows.
        func detail(_ id: Int64?) throws -> Double {
            let m = try #require(recorder.photos.first { $0.resolved.uniqueID == id }?.buffer?.bayerImage)
            var sum = 0.0
            var n = 0
            for y in stride(from: m.height / 4, to: m.height * 3 / 4, by: 1) {
                for x in stride(from: m.width / 4, to: m.width * 3 / 4 - 2, by: 1) where m.pattern.color(x: x, y: y) == 1 {
                    let d = Double(m.samples[y * m.width + x + 2]) - Double(m.samples[y * m.width + x])
                    sum += d * d
                    n += 1
                }
            }
            return sum / Double(n)
        }
        let off = try detail(ids[false])
        let on = try detail(ids[true])
        print(String(format: "bracket at 1/8 s hand-held: detail %.0f with lens stabilization, %.0f without", on, off))
        #expect(on > off * 1.2)
    }

    @available(*, deprecated, message: "exercises the deprecated StillImageOutput")
    @Test("P14: StillImageOutput is deprecated, takes no pictures, and cannot sit beside a PhotoOutput")
    func stillImageOutput() throws {
        let (session, _, _) = try Self.session(start: false)
        let old = StillImageOutput()
        #expect(!session.canAddOutput(old))
        #expect(throws: DaguerreError.self) { try session.addOutput(old) }
        #expect(throws: DaguerreError.self) { try old.captureStillImage() }
    }
}
