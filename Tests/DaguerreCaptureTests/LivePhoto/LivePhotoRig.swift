import DaguerreCore
import DaguerreMovie
import DaguerreVirtualCamera
import Foundation

@testable import DaguerreCapture

/// A running Live Photo session: the small camera (640×480: 576×432 movies), a microphone, Live
/// Photo capture on, the clock ticking in real time.
enum LivePhotoRig {
    static func running(
        seed: UInt64 = 1, sound: SceneSound = .tone(frequency: 440, amplitude: 0.2), autoTrim: Bool = true,
        profile: VirtualCameraProfile = SmallCamera.profile, colorSpace: CaptureColorSpace? = nil,
        configure: (VirtualCaptureDevice) throws -> Void = { _ in }
    ) throws -> (PhotoRig, VirtualMicrophoneDevice) {
        let device = try VirtualCaptureDevice(profile: profile, position: .back, seed: seed)
        try configure(device)
        let mic = try VirtualMicrophoneDevice(sound: sound)
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let output = PhotoOutput()
        let authorization = CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "tests", microphone: "tests"))
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(CaptureDeviceInput(device: device, authorization: authorization))
        try session.addInput(CaptureDeviceInput(device: mic, authorization: authorization))
        try session.addOutput(output)
        if let colorSpace {
            session.automaticallyConfiguresCaptureDeviceForWideColor = false
            try device.setActiveColorSpace(colorSpace)
        }
        try session.commitConfiguration()
        try output.setLivePhotoCaptureEnabled(true)
        try output.setLivePhotoAutoTrimmingEnabled(autoTrim)
        try session.startRunning()
        let rig = PhotoRig(session: session, output: output, device: device, clock: clock)
        rig.advance(by: 0.5)  // auto-exposure and white balance settle
        return (rig, mic)
    }

    /// A plain mid-grey scene, so that the red disc is the only red thing in the picture.
    static func greyScene() throws -> ImageScene {
        var buffer = try PixelBuffer(width: 64, height: 48, format: .rgb8, colorSpace: .sRGB)
        buffer.withUnsafeMutableBytes { raw in
            for i in raw.indices { raw[i] = 128 }
        }
        return try ImageScene(buffer: buffer, key: "grey")
    }

    /// Live Photo settings writing the movie to `dir`.
    static func settings(in dir: String, name: String = "IMG") -> PhotoSettings {
        var settings = PhotoSettings(format: [.videoCodec: .jpeg])
        settings.livePhotoMovieFileURL = URL(fileURLWithPath: "\(dir)/\(name).MOV")
        return settings
    }
}

extension PhotoRig {
    /// Advances the clock by `seconds`, a stream frame at a time, letting the Live Photo buffer
    /// take each frame in before the next (a debug build renders slower than real time).
    func step(_ seconds: Double, frame: Double = 1.0 / 30) {
        let end = clock.now + seconds
        while clock.now < end - 1e-9 {
            clock.advance(by: min(frame, end - clock.now))
            output.livePhoto.queue.sync {}
        }
    }
}
