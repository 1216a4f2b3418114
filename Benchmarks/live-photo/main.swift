// Times Live Photo capture on the virtual back camera (12 MP photo preset: 1600×1200 frames
// buffered at 15 fps, 1440×1080 movies, Display P3) with the virtual microphone, in real time
// (the host clock), release build:
//   latency    the movie file complete after its last frame is collected (didFinishRecording →
//              didFinishProcessing), median of --reps Live Photos 4 s apart; the movie's bit rate
//   sustained  one Live Photo every --every seconds for --seconds: pairs complete and paired,
//              the resident set after each
//   cpu        the process's CPU share (of both cores) over 10 s each: the session metering only
//              (Live Photo off), the camera streaming the Live Photo buffer (on, no capture), and
//              a Live Photo every 2 s
//   psnr       one Live Photo with the frames given to its encoder kept; its movie decoded by
//              H264Decoder and compared with them: PSNR over R'G'B' and luma, and the bit rate
//   --encoder x264|openh264 picks the movie's H.264 encoder
//
//   swift build --package-path Benchmarks -c release $(scripts/swift-flags) --product live-photo-bench
//   Benchmarks/.build/release/live-photo-bench latency --reps 7
import BenchmarkMeasures
@_spi(Measurement) import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import DaguerreVirtualCamera
import Dispatch
import Foundation
import Synchronization

/// Records each Live Photo's callbacks, in real time.
final class LiveTimer: PhotoProcessingDelegate, LivePhotoMovieProcessingDelegate, Sendable {
    struct Live: Sendable {
        var recorded: Double?
        var written: Double?
        var duration = 0.0
        var photoDisplayTime = 0.0
        var error: DaguerreError?
    }
    let lives = Mutex<[Int64: Live]>([:])
    /// Where each request's JPEG goes (written at once, so the benchmark keeps no photo).
    let stills = Mutex<[Int64: String]>([:])
    private let done = DispatchSemaphore(value: 0)

    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
        error: DaguerreError?
    ) {
        guard let photoSampleBuffer, let path = stills.withLock({ $0[resolvedSettings.uniqueID] }) else { return }
        let jpeg = try? PhotoOutput.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: nil)
        if let jpeg { try? AtomicFile.write(jpeg, to: path) }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: ResolvedPhotoSettings
    ) {
        let t = now()
        lives.withLock { $0[resolvedSettings.uniqueID, default: Live()].recorded = t }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: Double,
        photoDisplayTime: Double, resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        let t = now()
        lives.withLock {
            $0[resolvedSettings.uniqueID, default: Live()].written = t
            $0[resolvedSettings.uniqueID, default: Live()].duration = duration
            $0[resolvedSettings.uniqueID, default: Live()].photoDisplayTime = photoDisplayTime
            $0[resolvedSettings.uniqueID, default: Live()].error = error
        }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        done.signal()
    }
    func wait(_ n: Int = 1) { for _ in 0..<n { done.wait() } }
}

let args = CommandLine.arguments
func option(_ name: String, _ fallback: Double) -> Double {
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Double(args[i + 1]) else { return fallback }
    return v
}
let mode = args.count > 1 ? args[1] : "latency"
let encoderName = args.firstIndex(of: "--encoder").flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } ?? "x264"
let folder = NSTemporaryDirectory() + "live-photo-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

func session(livePhoto: Bool) throws -> (CaptureSession, PhotoOutput) {
    let camera = try VirtualCaptureDevice(profile: .back, position: .back, seed: 1)
    camera.camera.lux = 400
    let mic = try VirtualMicrophoneDevice()
    let session = CaptureSession(clock: HostClock())
    let output = PhotoOutput()
    let authorization = CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "benchmark", microphone: "benchmark"))
    session.beginConfiguration()
    try session.setSessionPreset(.photo)
    try session.addInput(CaptureDeviceInput(device: camera, authorization: authorization))
    try session.addInput(CaptureDeviceInput(device: mic, authorization: authorization))
    try session.addOutput(output)
    try session.commitConfiguration()
    try output.setLivePhotoCaptureEnabled(livePhoto)
    if encoderName != "x264" { try applyEncoder(encoderName, to: output) }
    try session.startRunning()
    return (session, output)
}

/// Picks the movie encoder (x264 is the default).
func applyEncoder(_ name: String, to output: PhotoOutput) throws {
    guard let choice = H264EncoderChoice.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
        throw DaguerreError.invalidArgument(what: "--encoder \(name)", problem: "use x264 or openh264")
    }
    output.livePhotoMovieEncoder = choice
}

func takeLivePhoto(_ output: PhotoOutput, _ timer: LiveTimer, index: Int) throws -> Int64 {
    var settings = PhotoSettings()
    settings.livePhotoMovieFileURL = URL(fileURLWithPath: "\(folder)/IMG_\(index).MOV")
    timer.stills.withLock { $0[settings.uniqueID] = "\(folder)/IMG_\(index).JPG" }
    try output.capturePhoto(with: settings, delegate: timer)
    return settings.uniqueID
}

switch mode {
case "latency":
    let reps = Int(option("--reps", 7))
    let (session, output) = try session(livePhoto: true)
    defer { session.stopRunning() }
    Thread.sleep(forTimeInterval: 2)
    let timer = LiveTimer()
    var latencies: [Double] = []
    var rates: [Double] = []
    for i in 0..<reps {
        let id = try takeLivePhoto(output, timer, index: i)
        timer.wait()
        let live = timer.lives.withLock { $0[id] }
        guard let live, let r = live.recorded, let w = live.written, live.error == nil else {
            print("Live Photo \(i) failed: \(live?.error?.message ?? "no callback")")
            continue
        }
        latencies.append(w - r)
        let path = "\(folder)/IMG_\(i).MOV"
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        rates.append(Double(bytes) * 8 / max(live.duration, 0.001) / 1e6)
        print(
            String(
                format: "Live Photo %d: file complete %.0f ms after its last frame; %.2f s, the photo at %.2f s, %.1f Mbit/s", i,
                (w - r) * 1000, live.duration, live.photoDisplayTime, rates.last!))
        if i == reps - 1 {
            _ = try? FileManager.default.copyItem(atPath: path, toPath: NSTemporaryDirectory() + "live-photo-bench-last.MOV")
        }
        Thread.sleep(forTimeInterval: 1)
    }
    print(
        String(
            format: "latency (%@): median %.0f ms, max %.0f ms over %d; bit rate median %.1f Mbit/s (movie kept at %@)", encoderName,
            median(latencies) * 1000, (latencies.max() ?? .nan) * 1000, latencies.count, median(rates),
            NSTemporaryDirectory() + "live-photo-bench-last.MOV"))
case "sustained":
    let seconds = option("--seconds", 60)
    let every = option("--every", 2)
    let (session, output) = try session(livePhoto: true)
    Thread.sleep(forTimeInterval: 2)
    let timer = LiveTimer()
    var ids: [(Int64, Int)] = []
    var rss: [Double] = []
    let start = now()
    var i = 0
    while now() - start < seconds {
        ids.append((try takeLivePhoto(output, timer, index: i), i))
        i += 1
        let next = start + Double(i) * every
        while now() < next { Thread.sleep(forTimeInterval: 0.01) }
        rss.append(residentMiB())
    }
    timer.wait(ids.count)
    session.stopRunning()
    var paired = 0
    for (id, index) in ids {
        guard let live = timer.lives.withLock({ $0[id] }), live.error == nil else { continue }
        if (try? LivePhotoPair.read(still: "\(folder)/IMG_\(index).JPG", movie: "\(folder)/IMG_\(index).MOV")) != nil { paired += 1 }
    }
    let tens = stride(from: 4, to: rss.count, by: 5).map { String(format: "%.0f", rss[$0]) }.joined(separator: ", ")
    print(
        String(
            format: "sustained: %d Live Photos in %.0f s, %d complete and paired; resident set every 10 s: %@ MiB (min %.0f, max %.0f)",
            ids.count, seconds, paired, tens, rss.min() ?? .nan, rss.max() ?? .nan))
case "cpu":
    for (label, live, captures) in [
        ("metering only (Live Photo off)", false, false), ("Live Photo buffer (camera 1600×1200 at 15 fps + intake)", true, false),
        ("a Live Photo every 2 s", true, true),
    ] {
        let (session, output) = try session(livePhoto: live)
        Thread.sleep(forTimeInterval: 2)
        let timer = LiveTimer()
        let (c0, t0) = (cpu(), now())
        var n = 0
        while now() - t0 < 10 {
            if captures, now() - t0 >= Double(n) * 2 {
                _ = try takeLivePhoto(output, timer, index: 1000 + n)
                n += 1
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let share = (cpu() - c0) / (now() - t0) / 2
        if captures { timer.wait(n) }
        session.stopRunning()
        print(String(format: "cpu: %@: %.0f%% of 2 cores", label, share * 100))
    }
case "stages":
    // The movie's per-frame stages on 45 frames of 1600×1200, as the recorder runs them.
    let context = try Context(options: .init(workingColorSpace: nil, cacheIntermediates: false))
    var source = try PixelBuffer(width: 1600, height: 1200, format: .rgba8, colorSpace: .displayP3)
    source.withUnsafeMutableBytes { raw in for i in raw.indices { raw[i] = UInt8(truncatingIfNeeded: (i &* 2654435761) >> 13) } }
    let yuv = try YCbCrConversion.makeYCbCr420(from: source, fullRange: true)
    let recorder = try MovieRecorder(destination: "\(folder)/stages.mov", settings: MovieSettings(colorSpace: .displayP3))
    var times = [Double](repeating: 0, count: 4)
    for i in 0..<45 {
        var t = now()
        let rgba = try YCbCrConversion.makeRGBA(from: yuv)
        times[0] += now() - t
        t = now()
        let image = Image(buffer: rgba).transformed(by: AffineTransform2D(translationX: -80.3 - Double(i % 3), y: -60.7))
        var out = try PixelBuffer(width: 1440, height: 1080, format: .rgba8, colorSpace: nil)
        try context.render(image, to: &out, bounds: Rect(x: 0, y: 0, width: 1440, height: 1080), colorSpace: nil)
        out.colorSpace = .displayP3
        times[1] += now() - t
        t = now()
        var planar = try PlanarYCbCr420Buffer(width: 1440, height: 1080, colorProperties: VideoColorProperties(colorSpace: .displayP3))
        try YCbCrConversion.convert(out, into: &planar)
        times[2] += now() - t
        t = now()
        try recorder.append(frame: out, at: MediaTime(value: Int64(i) * 40, timescale: 600))
        times[3] += now() - t
    }
    _ = try recorder.finish()
    print(
        String(
            format: "per frame: 4:2:0 → RGBA %.1f ms, engine crop %.1f ms, RGBA → 4:2:0 %.1f ms, convert + x264 %.1f ms",
            times[0] / 45 * 1000, times[1] / 45 * 1000, times[2] / 45 * 1000, times[3] / 45 * 1000))
case "psnr":
    let (session, output) = try session(livePhoto: true)
    let fed = Mutex<[PixelBuffer]>([])
    output.livePhotoMovieFrameObserver = { _, frame in fed.withLock { $0.append(frame) } }
    Thread.sleep(forTimeInterval: 2)
    let timer = LiveTimer()
    let id = try takeLivePhoto(output, timer, index: 0)
    timer.wait()
    session.stopRunning()
    guard let live = timer.lives.withLock({ $0[id] }), live.error == nil else {
        print("Live Photo failed: \(timer.lives.withLock { $0[id]?.error?.message } ?? "no callback")")
        exit(1)
    }
    let path = "\(folder)/IMG_0.MOV"
    let movie = try MovieReader(path: path)
    guard let track = movie.tracks.first(where: { $0.mediaType == .video }) else { fatalError("\(path) has no video track") }
    var decoded: [PixelBuffer] = []
    try movie.decodeFrames(track: track.id, range: 0..<track.sampleCount) { (_, f) throws(DaguerreError) in decoded.append(f) }
    let frames = fed.withLock { $0 }
    guard decoded.count == frames.count else { fatalError("\(decoded.count) frames decoded, \(frames.count) given to the encoder") }
    var total = ErrorSums()
    var worst = (rgb: Double.infinity, luma: Double.infinity)
    for (a, b) in zip(decoded, frames) {
        let e = ErrorSums(a, b)
        total.add(e)
        worst = (min(worst.rgb, e.rgbPSNR), min(worst.luma, e.lumaPSNR))
    }
    let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print(
        String(
            format:
                "psnr (%@): the captured movie against the %d frames given to its encoder: RGB %.2f dB, Y' %.2f dB (worst frame %.2f, %.2f); %.1f Mbit/s",
            encoderName, frames.count, total.rgbPSNR, total.lumaPSNR, worst.rgb, worst.luma,
            Double(bytes) * 8 / max(live.duration, 0.001) / 1e6))
default:
    print("usage: live-photo-bench latency|sustained|cpu|psnr|stages [--reps N] [--seconds S] [--every S] [--encoder x264|openh264]")
}
