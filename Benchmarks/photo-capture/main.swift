// Times PhotoOutput on the virtual back camera (12 MP, photo preset) in real time (the host
// clock), release build, medians:
//   latency   capturePhoto → the photo callback, for JPEG and for RAW (DNG bytes made by the
//             data representation included), prepared; the virtual sensor's rendering of the
//             still is timed on its own (the same frame read the pipeline makes) and reported
//             beside the total and the rest
//   first     one process, one first capture, unprepared or prepared (run it alternately)
//   sustained requests as fast as the readiness allows for 6 s: photos per second, in order
//   overlap   100 requests at once, three times: all complete, and the resident set after each
//
//   swift build --package-path Benchmarks -c release $(scripts/swift-flags) --product photo-capture-bench
//   Benchmarks/.build/release/photo-capture-bench latency --reps 9
import BenchmarkMeasures
import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreRAW
import DaguerreVirtualCamera
import Dispatch
import Foundation
import Synchronization

func ms(_ s: Double) -> String { String(format: "%.0f ms", s * 1000) }

/// Records when each photo of a request arrives.
final class Timer: PhotoProcessingDelegate, RawPhotoProcessingDelegate, Sendable {
    private let state = Mutex<(arrived: [Int64: Double], finished: [Int64], failures: Int)>(([:], [], 0))
    private let done = DispatchSemaphore(value: 0)
    let makeDNG: Bool
    init(makeDNG: Bool = false) { self.makeDNG = makeDNG }

    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
        error: DaguerreError?
    ) {
        let t = now()
        state.withLock {
            $0.arrived[resolvedSettings.uniqueID] = t
            if photoSampleBuffer == nil { $0.failures += 1 }
        }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingRawPhotoSampleBuffer rawSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
        error: DaguerreError?
    ) {
        if makeDNG, let rawSampleBuffer {
            _ = try? PhotoOutput.dngPhotoDataRepresentation(
                forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
        }
        let t = now()
        state.withLock {
            $0.arrived[resolvedSettings.uniqueID] = t
            if rawSampleBuffer == nil { $0.failures += 1 }
        }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        state.withLock { $0.finished.append(resolvedSettings.uniqueID) }
        done.signal()
    }
    func wait(_ n: Int) { for _ in 0..<n { done.wait() } }
    func arrival(_ id: Int64) -> Double? { state.withLock { $0.arrived[id] } }
    var finished: [Int64] { state.withLock { $0.finished } }
    var failures: Int { state.withLock { $0.failures } }
}

struct Rig {
    let session: CaptureSession
    let output: PhotoOutput
    let device: VirtualCaptureDevice

    init() throws {
        let provider = try VirtualDeviceProvider(seed: 3)
        device = provider.backCamera
        device.camera.motion = .tripod
        session = CaptureSession()
        output = PhotoOutput()
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(
            CaptureDeviceInput(
                device: device, authorization: CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "benchmark"))))
        try session.addOutput(output)
        try session.commitConfiguration()
        try session.startRunning()
        Thread.sleep(forTimeInterval: 0.7)  // auto-exposure and white balance settle
    }

    func prepare(_ settings: [PhotoSettings]) {
        let ready = DispatchSemaphore(value: 0)
        output.setPreparedPhotoSettingsArray(settings) { prepared, error in
            if !prepared { print("not prepared: \(error.map { "\($0)" } ?? "replaced")") }
            ready.signal()
        }
        ready.wait()
    }

    /// The virtual sensor's own rendering of a 12 MP still: the read the pipeline makes.
    func sensorRender() throws -> Double {
        guard let frame = device.zeroShutterLagFrames().last else { return .nan }
        let still = try frame.still(dimensions: device.activeFormat.dimensions)
        let t0 = now()
        _ = try still.read()
        return now() - t0
    }

    /// capturePhoto → photo callback, one request at a time.
    func latency(_ make: () -> PhotoSettings, makeDNG: Bool = false) throws -> Double {
        let timer = Timer(makeDNG: makeDNG)
        let settings = make()
        let t0 = now()
        try output.capturePhoto(with: settings, delegate: timer)
        timer.wait(1)
        return (timer.arrival(settings.uniqueID) ?? .nan) - t0
    }
}

let args = CommandLine.arguments
let mode = args.count > 1 ? args[1] : "latency"
let reps = args.firstIndex(of: "--reps").flatMap { Int(args[$0 + 1]) } ?? 9

func jpeg() -> PhotoSettings {
    var s = PhotoSettings()
    s.isAutoStillImageStabilizationEnabled = false
    return s
}

switch mode {
case "latency":
    let rig = try Rig()
    let raw = rig.output.availableRawPhotoPixelFormatTypes.first!
    func rawSettings() -> PhotoSettings { PhotoSettings(rawPixelFormatType: raw) }
    rig.prepare([jpeg(), rawSettings()])
    _ = try rig.latency(jpeg)  // warm
    func withPreview() -> PhotoSettings {
        var s = jpeg()
        s.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: .bgra, width: 160, height: 160)
        return s
    }
    var renders: [Double] = []
    var jpegs: [Double] = []
    var previews: [Double] = []
    var dngs: [Double] = []
    for _ in 0..<reps {
        renders.append(try rig.sensorRender())
        jpegs.append(try rig.latency(jpeg))
        previews.append(try rig.latency(withPreview))
        dngs.append(try rig.latency(rawSettings, makeDNG: true))
    }
    let r = median(renders)
    print("12 MP, prepared, \(reps) reps, medians:")
    print("  virtual sensor render of the still: \(ms(r))")
    print("  JPEG: capturePhoto → photo callback \(ms(median(jpegs))) total, \(ms(median(jpegs) - r)) without the sensor render")
    print("  JPEG with a 160×160 BGRA preview: \(ms(median(previews))) total, \(ms(median(previews) - r)) without the sensor render")
    print("  DNG (RAW callback + dngPhotoDataRepresentation): \(ms(median(dngs))) total, \(ms(median(dngs) - r)) without the sensor render")
    print("  peak RSS see /usr/bin/time; now \(String(format: "%.0f", residentMiB())) MiB")
case "first":
    let prepared = args.contains("--prepared")
    let rig = try Rig()
    if prepared { rig.prepare([jpeg()]) }
    let t = try rig.latency(jpeg)
    print("first 12 MP JPEG, \(prepared ? "prepared" : "unprepared"): \(ms(t))")
case "sustained":
    let rig = try Rig()
    rig.prepare([jpeg()])
    _ = try rig.latency(jpeg)
    let timer = Timer()
    var ids: [Int64] = []
    let t0 = now()
    while now() - t0 < 6 {
        if rig.output.captureReadiness == .ready || rig.output.captureReadiness == .notReadyMomentarily {
            let s = jpeg()
            try rig.output.capturePhoto(with: s, delegate: timer)
            ids.append(s.uniqueID)
        } else {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
    timer.wait(ids.count)
    let last = ids.compactMap(timer.arrival).max() ?? t0
    let inOrder = timer.finished == ids
    print(
        String(
            format: "sustained: %d photos in %.2f s = %.2f photos/s, in order: %@, failures %d", ids.count, last - t0,
            Double(ids.count) / (last - t0), inOrder ? "yes" : "NO", timer.failures))
case "overlap":
    let rig = try Rig()
    rig.prepare([jpeg()])
    _ = try rig.latency(jpeg)
    let before = residentMiB()
    for round in 1...3 {
        let timer = Timer()
        var ids: [Int64] = []
        let t0 = now()
        for _ in 0..<100 {
            let s = jpeg()
            try rig.output.capturePhoto(with: s, delegate: timer)
            ids.append(s.uniqueID)
        }
        timer.wait(100)
        Thread.sleep(forTimeInterval: 1)  // afterwards: the output has finished its bookkeeping
        print(
            String(
                format:
                    "overlap round %d: 100 requests complete in %.1f s, in order: %@, failures %d; resident %.0f MiB (%.0f MiB before the first round)",
                round, now() - t0, timer.finished == ids ? "yes" : "NO", timer.failures, residentMiB(), before))
    }
case "idle":
    // What the running session costs with no request: the stream's metering at 30 fps.
    let rig = try Rig()
    let c0 = cpu()
    let t0 = now()
    Thread.sleep(forTimeInterval: 5)
    print(
        String(
            format: "idle session: %.1f %% of one core for metering (%.1f ms CPU a frame at 30 fps)", (cpu() - c0) / (now() - t0) * 100,
            (cpu() - c0) / (now() - t0) / 30 * 1000))
    _ = rig
case "files":
    // A 12 MP RAW + JPEG with a preview, written through the data representations (for
    // dng_validate and exiftool by hand): photo-capture-bench files DIR
    let folder = args.count > 2 ? args[2] : "."
    let rig = try Rig()
    let raw = rig.output.availableRawPhotoPixelFormatTypes.first!
    var settings = PhotoSettings(rawPixelFormatType: raw, processedFormat: [.videoCodec: .jpeg])
    settings.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: .bgra, width: 320, height: 320)
    final class Keeper: PhotoProcessingDelegate, RawPhotoProcessingDelegate, Sendable {
        let folder: String
        let done = DispatchSemaphore(value: 0)
        init(_ folder: String) { self.folder = folder }
        func capture(
            _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
            previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
            bracketSettings: BracketedStillImageSettings?, error: DaguerreError?
        ) {
            guard let photoSampleBuffer,
                let data = try? PhotoOutput.jpegPhotoDataRepresentation(
                    forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
            else { return print("no JPEG: \(String(describing: error))") }
            try? AtomicFile.write(data, to: folder + "/photo.jpg")
        }
        func capture(
            _ captureOutput: PhotoOutput, didFinishProcessingRawPhotoSampleBuffer rawSampleBuffer: SampleBuffer?,
            previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
            bracketSettings: BracketedStillImageSettings?, error: DaguerreError?
        ) {
            guard let rawSampleBuffer,
                let data = try? PhotoOutput.dngPhotoDataRepresentation(
                    forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
            else { return print("no DNG: \(String(describing: error))") }
            try? AtomicFile.write(data, to: folder + "/photo.dng")
        }
        func capture(
            _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings,
            error: DaguerreError?
        ) { done.signal() }
    }
    let keeper = Keeper(folder)
    try rig.output.capturePhoto(with: settings, delegate: keeper)
    keeper.done.wait()
    print("wrote \(folder)/photo.jpg and \(folder)/photo.dng")
case "breakdown":
    // The JPEG path's stages on one 12 MP still, in-process: sensor render, develop to RGB8, encode.
    let rig = try Rig()
    rig.session.stopRunning()
    guard let frame = rig.device.zeroShutterLagFrames().last else { fatalError("no frame") }
    let still = try frame.still(dimensions: rig.device.activeFormat.dimensions)
    var renders: [Double] = []
    var develops: [Double] = []
    var encodes: [Double] = []
    var raw = try still.read()
    for _ in 0..<reps {
        let t0 = now()
        raw = try still.read()
        renders.append(now() - t0)
    }
    /// The still developed as the photo pipeline does (noise reduction off with --no-nr).
    func developed() throws -> Image {
        var filter = try RAWFilter(mosaic: raw.bayerImage!, color: raw.rawCalibration!, metadata: raw.photoMetadata)
        if args.contains("--no-nr") { filter.luminanceNoiseReductionAmount = 0 }
        return try filter.outputImage()
    }
    var cpus: [Double] = []
    for _ in 0..<reps {
        var t0 = now()
        let c0 = cpu()
        let rgb = try Context().createBuffer(try developed(), format: .rgb8, colorSpace: .displayP3)
        develops.append(now() - t0)
        cpus.append(cpu() - c0)
        t0 = now()
        _ = try JPEGDataEncoder.encode(rgb, quality: 0.9)
        encodes.append(now() - t0)
    }
    var streamed: [Double] = []
    for _ in 0..<reps {
        let t0 = now()
        try Context().writeJPEGRepresentation(
            of: try developed(), to: URL(fileURLWithPath: "/dev/shm/photo-bench.jpg"), colorSpace: .displayP3,
            options: [.quality(0.9)])
        streamed.append(now() - t0)
    }
    print("develop streamed into the JPEG encoder (a file in /dev/shm): \(ms(median(streamed)))")
    if let profile = (try? still.read())?.rawCalibration?.noiseProfile, let g = profile.first {
        print(
            String(format: "noise at 18 %% grey: σ %.5f of white (ISO %.0f)", (g.scale * 0.18 + g.offset).squareRoot(), still.metadata.iso))
    }
    print(
        "12 MP stages, \(reps) reps, medians: sensor render \(ms(median(renders))), develop \(ms(median(develops))) (CPU \(ms(median(cpus)))), JPEG encode \(ms(median(encodes)))"
    )
default:
    print("usage: photo-capture-bench latency|first [--prepared]|sustained|overlap [--reps N]")
}
