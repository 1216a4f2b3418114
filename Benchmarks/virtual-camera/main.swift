// Times the virtual camera against real time: a 12 MP Bayer still, and the 1920×1080 420f
// stream (raw readout + VideoISP) against its 33.3 ms frame budget at 30 fps; reports medians
// and the CPU share the stream needs. Release build:
//   swift build --package-path Benchmarks -c release $(scripts/swift-flags) --product virtual-camera-bench
//   /usr/bin/time -v Benchmarks/.build/release/virtual-camera-bench --reps 15
import DaguerreCapture
import DaguerreVirtualCamera
import Dispatch
import Foundation

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
func cpu() -> Double {
    var u = rusage()
    getrusage(0, &u)
    return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6
}
func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s[s.count / 2]
}

let args = CommandLine.arguments
let reps = args.firstIndex(of: "--reps").flatMap { Int(args[$0 + 1]) } ?? 15

let camera = VirtualCamera(profile: .back, seed: 1)
camera.motion = .handheld
let full = camera.profile.modes[1]
let video = camera.profile.modes[0]

let videoOnly = args.contains("--video-only")
var t0 = now()
if !videoOnly { _ = try camera.captureRAW(mode: full, at: 0) }
let coldStill = now() - t0
var stills: [Double] = []
var tripodStills: [Double] = []
for i in 0..<(videoOnly ? 0 : reps) {
    t0 = now()
    _ = try camera.captureRAW(mode: full, at: 0.1 * Double(i + 1))
    stills.append(now() - t0)
}
camera.motion = .tripod
for i in 0..<(videoOnly ? 0 : reps) {
    t0 = now()
    _ = try camera.captureRAW(mode: full, at: 0.1 * Double(i + 1))
    tripodStills.append(now() - t0)
}
camera.motion = .handheld

let isp = VideoISP(outputPrimaries: .displayP3)
t0 = now()
_ = try camera.captureRAW(mode: video, at: 0)
let coldVideo = now() - t0
var frames: [Double] = []
var raws: [Double] = []
let c0 = cpu()
let w0 = now()
for i in 0..<(reps * 4) {
    t0 = now()
    let raw = try camera.captureRAW(mode: video, at: Double(i) / 30)
    let t1 = now()
    _ = try isp.process(raw.mosaic, whiteBalance: raw.metadata.whiteBalanceGains, fullRange: true)
    frames.append(now() - t0)
    raws.append(t1 - t0)
}
let cpuPerFrame = (cpu() - c0) / Double(reps * 4)
let wallPerFrame = (now() - w0) / Double(reps * 4)
if !videoOnly {
    print(
        String(
            format:
                "12 MP Bayer still: median %.1f ms handheld, %.1f ms on a tripod, over %d each (first, with the optical image render: %.0f ms)",
            median(stills) * 1000, median(tripodStills) * 1000, reps, coldStill * 1000))
}
print(
    String(
        format: "1920x1080 420f frame: median %.1f ms (raw %.1f ms + ISP %.1f ms) over %d; first %.0f ms", median(frames) * 1000,
        median(raws) * 1000, (median(frames) - median(raws)) * 1000, reps * 4, coldVideo * 1000))
print(
    String(
        format:
            "  budget at 30 fps 33.3 ms: wall %.0f%%, CPU %.1f ms per frame = %.0f%% of one core at 30 fps (%.0f%% of this machine's %d cores)",
        median(frames) / (1.0 / 30) * 100, cpuPerFrame * 1000, cpuPerFrame * 30 * 100,
        cpuPerFrame * 30 * 100 / Double(ProcessInfo.processInfo.activeProcessorCount), ProcessInfo.processInfo.activeProcessorCount))
_ = wallPerFrame

// Real time: a CaptureSession on the host clock streams 1920×1080 420f to a VideoDataOutput for
// `--session S` seconds; frames the camera had no time for show as gaps in sequence numbers.
if let i = args.firstIndex(of: "--session"), let seconds = Double(args[i + 1]) {
    let provider = try VirtualDeviceProvider(seed: 2)
    provider.backCamera.camera.motion = .handheld
    let session = CaptureSession()
    let output = VideoDataOutput()
    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        var first: Int64?
        var last: Int64 = 0
        func add(_ n: Int64) {
            lock.lock()
            count += 1
            if first == nil { first = n }
            last = n
            lock.unlock()
        }
    }
    let tally = Tally()
    output.setSampleBufferHandler(queue: DispatchQueue(label: "bench.frames")) { frame, _ in tally.add(frame.metadata.sequenceNumber) }
    let authorization = CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "benchmark"))
    session.beginConfiguration()
    try session.setSessionPreset(.hd1920x1080)
    try session.addInput(CaptureDeviceInput(device: provider.backCamera, authorization: authorization))
    try session.addOutput(output)
    try session.commitConfiguration()
    let c0 = cpu()
    try session.startRunning()
    let w0 = now()
    Thread.sleep(forTimeInterval: seconds)
    session.stopRunning()
    let wall = now() - w0
    let used = cpu() - c0
    let span = Int(tally.last - (tally.first ?? 0)) + 1
    print(
        String(
            format:
                "session, %@ for %.0f s on the host clock: %d frames delivered of %d ticks (%d dropped by the camera, %d by the output), %.1f fps; CPU %.0f%% of the machine's %d cores",
            provider.backCamera.activeFormat.description, seconds, tally.count, span,
            span - output.deliveredFrameCount - output.droppedFrameCount,
            output.droppedFrameCount, Double(tally.count) / wall, used / wall / Double(ProcessInfo.processInfo.activeProcessorCount) * 100,
            ProcessInfo.processInfo.activeProcessorCount))
}
