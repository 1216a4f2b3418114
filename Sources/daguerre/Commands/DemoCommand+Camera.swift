// The virtual-camera part of `daguerre demo`: the studio scene shot by the virtual
// back camera in daylight and under tungsten (auto-exposure and white balance settling on a
// 1080p stream, then a 12 MP raw still written as a DNG with its calibration and as the ISP's
// Display P3 JPEG), and two seconds recorded through a capture session with MovieFileOutput.
import Daguerre
import DaguerreMovie
import Dispatch
import Foundation

extension DemoCommand {
    func cameraDemo(directory: URL) throws {
        func out(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let timed = Self.timed
        print("Virtual camera (studio scene, 12 MP back camera):")
        for (name, light, lux) in [("daylight", Illuminant.d65, 400.0), ("tungsten", Illuminant.tungsten, 150.0)] {
            let camera = VirtualCamera(profile: .back, seed: 7)
            camera.illuminant = light
            camera.lux = lux
            let video = camera.profile.modes[0]
            let still = camera.profile.modes[1]
            try timed("camera-\(name).dng + camera-\(name)-P3.jpg (\(Int(lux)) lux, AE/AWB settled on 15 frames of 1080p)") {
                for i in 0..<15 { _ = try camera.captureRAW(mode: video, at: Double(i) / 30) }
                let frame = try camera.captureRAW(mode: still, at: 0.5)
                let isp = VideoISP(outputPrimaries: .displayP3)
                let rgba = try YCbCrConversion.makeRGBA(from: try isp.process(frame.mosaic, whiteBalance: frame.metadata.whiteBalanceGains))
                var preview = try PreviewScaler.fit(rgba, maxWidth: 320, maxHeight: 320)
                preview.colorSpace = .displayP3
                let dng = camera.dngImage(for: frame, preview: nil, date: Date())
                let jpegPreview = SampleBuffer(pixels: preview)
                try AtomicFile.write(
                    try PhotoDataRepresentation.dngPhotoDataRepresentation(
                        forRawSampleBuffer: SampleBuffer(
                            raw: dng.mosaic ?? frame.mosaic, calibration: dng.color, photoMetadata: dng.metadata),
                        previewPhotoSampleBuffer: jpegPreview), to: out("camera-\(name).dng"))
                var metadata = dng.metadata
                metadata.colorSpace = .uncalibrated
                try AtomicFile.write(
                    try PhotoDataRepresentation.jpegPhotoDataRepresentation(
                        forJPEGSampleBuffer: SampleBuffer(pixels: rgba, photoMetadata: metadata), previewPhotoSampleBuffer: jpegPreview),
                    to: out("camera-\(name)-P3.jpg"))
                let m = frame.metadata
                print(
                    String(
                        format: "    1/%.0f s, ISO %.0f, lux estimate %.0f, white balance gains %.2f / 1 / %.2f",
                        1 / m.exposureDuration, m.iso, m.luxEstimate, m.whiteBalanceGains.x, m.whiteBalanceGains.z))
            }
            // The DNG developed as a photographer would (SPEC X1): RAWFilter's defaults (noise
            // reduction from the DNG's NoiseProfile, LMMSE-GW, highlight recovery), plus the
            // boost curve for display, into a Display P3 JPEG with the camera's EXIF.
            try timed("camera-\(name)-developed-P3.jpg (the DNG through RAWFilter, boost 1)") {
                var raw = try RAWFilter(url: URL(fileURLWithPath: out("camera-\(name).dng")))
                raw.boostAmount = 1
                try Context().writeJPEGRepresentation(
                    of: try raw.outputImage(), to: URL(fileURLWithPath: out("camera-\(name)-developed-P3.jpg")),
                    colorSpace: .displayP3, options: [.quality(0.9), .metadata(raw.metadata)])
                print(
                    String(
                        format: "    developed at %.0f K, tint %+.0f (as shot), pipeline version %@", raw.neutralTemperature,
                        raw.neutralTint, raw.decoderVersion))
            }
        }
        try timed("camera-session.mov (2 s through a CaptureSession and MovieFileOutput, virtual clock)") {
            let provider = try VirtualDeviceProvider(seed: 7)
            provider.backCamera.camera.motion = .handheld
            let clock = VirtualClock()
            let session = CaptureSession(clock: clock)
            let authorization = CaptureAuthorization(
                usageDescriptions: UsageDescriptions(
                    camera: "The demo films the virtual studio.",
                    microphone: "The demo records its tone."))
            let movie = MovieFileOutput()
            session.beginConfiguration()
            try session.setSessionPreset(.hd1920x1080)
            try session.addInput(CaptureDeviceInput(device: provider.backCamera, authorization: authorization))
            try session.addInput(CaptureDeviceInput(device: provider.microphone, authorization: authorization))
            try session.addOutput(movie)
            try session.commitConfiguration()
            try session.startRunning()
            let recorded = Result { () throws(DaguerreError) in
                try recordMovie(movie, to: out("camera-session.mov")) { clock.advance(by: 1.99) }
            }
            session.stopRunning()
            _ = try recorded.get()
            print(
                String(
                    format: "    %d frames, %.2f s, %@", movie.recordedFrameCount, movie.recordedDuration,
                    provider.backCamera.activeFormat.description))
        }
    }
}
