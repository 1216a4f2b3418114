// The virtual microphone as a capture device (SPEC C4, L2): 44.1 kHz 16-bit PCM from
// the scene's sound, in 20 ms buffers timed by the session's clock.
import DaguerreCore
import DaguerreVirtualCamera
import Synchronization

/// A built-in microphone hearing the virtual scene.
///
/// ```swift
/// let mic = try VirtualMicrophoneDevice()
/// mic.sound = .tone(frequency: 440, amplitude: 0.2)
/// try session.addInput(try CaptureDeviceInput(device: mic))
/// ```
public final class VirtualMicrophoneDevice: ControlledCaptureDevice {
    public let uniqueID: String
    public let localizedName = "Virtual Microphone"
    public let position = CaptureDevicePosition.unspecified
    public let isVirtual = true
    public let hasFlash = false
    public let isLensStabilizationSupported = false
    public let controls: CaptureDeviceControls
    private let state: Mutex<(microphone: VirtualMicrophone, nextSample: Int?)>
    private let stream = ExclusiveStream()

    public init(
        sound: SceneSound = .tone(frequency: 440, amplitude: 0.2), seed: UInt64 = 0, channels: Int = 1,
        uniqueID: String = "daguerre.virtual.microphone"
    ) throws(DaguerreError) {
        self.uniqueID = uniqueID
        guard (1...2).contains(channels) else {
            throw .invalidArgument(what: "virtual microphone with \(channels) channels", problem: "it records mono or stereo (1 or 2)")
        }
        let format = CaptureDeviceFormat(audio: try CaptureAudioFormat(sampleRate: VirtualMicrophone.sampleRate, channels: channels))
        controls = try CaptureDeviceControls(formats: [format], deviceName: localizedName)
        state = Mutex((VirtualMicrophone(sound: sound, seed: seed, channels: channels), nil))
    }

    /// What the scene sounds like (changeable while streaming).
    public var sound: SceneSound {
        get { state.withLock { $0.microphone.sound } }
        set { state.withLock { $0.microphone.sound = newValue } }
    }

    /// Delivers about 20 ms per buffer. Each buffer continues exactly where the last ended, up
    /// to 20 ms past its tick, so audio has no gaps even when a busy machine makes ticks late
    /// (a late tick delivers the longer stretch it missed); sample `n` is the sound at `n / 44100` s.
    /// Throws while the microphone already streams (to another session, say).
    public func startStreaming(clock: any CaptureClock, handler: @escaping @Sendable (CaptureStreamEvent) -> Void) throws(DaguerreError) {
        let rate = Double(VirtualMicrophone.sampleRate)
        let next = try CaptureClockTicker(clock: clock, interval: 0.02) { [weak self] _, time in
            guard
                let (microphone, first, end) = self?.state.withLock({ s -> (VirtualMicrophone, Int, Int)? in
                    let end = Int(((time + 0.02) * rate).rounded())
                    // Refill at most one second of a gap (a clock that jumped resynchronizes).
                    let first = max(s.nextSample ?? Int((time * rate).rounded()), end - Int(rate))
                    guard end > first else { return nil }
                    s.nextSample = end
                    return (s.microphone, first, end)
                })
            else { return }
            do throws(DaguerreError) {
                handler(
                    .audio(
                        try CaptureAudioBuffer(
                            samples: microphone.samples(from: first, count: end - first),
                            sampleRate: VirtualMicrophone.sampleRate, channels: microphone.channels,
                            timestamp: Double(first) / rate)))
            } catch {
                handler(.failed(error))
            }
        }
        try stream.start(next, deviceName: localizedName)
    }

    public func stopStreaming() {
        stream.stop()
        // The next stream starts at its own first tick's time.
        state.withLock { $0.nextSample = nil }
    }
}
