// Times the burst merge of still-image stabilization (SPEC P13): a burst of 8 frames of the
// virtual back camera at 12 MP (the studio scene at 5 lux, hand-held, 1/15 s each) is rendered
// once, then merged `--reps` times; prints every run, the median and the merged grey patch's
// SNR against one frame's. Peak RSS from /usr/bin/time (the 8 frames alone are 195 MB). Release:
//   swift build --package-path Benchmarks -c release $(scripts/swift-flags) --product burst-merge-bench
//   /usr/bin/time -v Benchmarks/.build/release/burst-merge-bench --reps 7
import DaguerreCore
import DaguerreRAW
import DaguerreVirtualCamera
import Foundation

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// Mean over standard deviation of the green photosites of the middle 60 % of chart patch `index`.
func greenSNR(_ m: BayerImage, patch index: Int) -> Double {
    let box = StudioScene().chartPatchBox(index)
    func inner(_ r: ClosedRange<Double>, _ size: Int) -> Range<Int> {
        let c = (r.lowerBound + r.upperBound) / 2 * Double(size)
        let h = (r.upperBound - r.lowerBound) / 2 * Double(size) * 0.6
        return Int(c - h)..<Int(c + h)
    }
    var values: [Double] = []
    for y in inner(box.v, m.height) {
        for x in inner(box.u, m.width) where m.pattern.color(x: x, y: y) == 1 {
            values.append(Double(m.samples[y * m.width + x]) - m.blackLevel[(y & 1) * 2 + (x & 1)])
        }
    }
    let mean = values.reduce(0, +) / Double(values.count)
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    return mean / variance.squareRoot()
}

/// A line of /proc/self/status in MB (VmRSS now, VmHWM the peak so far).
func memory(_ key: String) -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

let args = CommandLine.arguments
let reps = args.firstIndex(of: "--reps").flatMap { Int(args[$0 + 1]) } ?? 7
let count = args.firstIndex(of: "--frames").flatMap { Int(args[$0 + 1]) } ?? 8
let estimate = args.contains("--estimate-noise")

do {
    let camera = VirtualCamera(profile: .back, seed: 3)
    camera.lux = 5
    camera.motion = .handheld
    camera.isStabilizationEnabled = false
    let mode = camera.profile.modes[1]
    let duration = 1.0 / 15
    var t0 = now()
    var frames: [BayerImage] = []
    var profile: [(scale: Double, offset: Double)] = []
    for i in 0..<count {
        let f = try camera.captureStill(
            mode: mode, at: 0.2 + Double(i) * duration, exposure: ExposureSettings(duration: duration, iso: 400),
            whiteBalanceGains: [2, 1, 1.6])
        if i == 0 { profile = camera.calibration(for: f).noiseProfile }
        frames.append(f.mosaic)
    }
    print(String(format: "rendered %d frames of %d×%d in %.2f s", count, mode.width, mode.height, now() - t0))
    let before = memory("VmRSS")
    // Resets the peak (VmHWM) to the resident size now, so the peak after is the merges' own.
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let merge = BurstMerge()
    var times: [Double] = []
    var merged = frames[0]
    for _ in 0..<reps {
        t0 = now()
        merged = try merge.merge(frames, reference: 0, noise: estimate ? nil : profile)
        times.append(now() - t0)
        print(String(format: "merge: %.3f s", times[times.count - 1]))
    }
    let median = times.sorted()[times.count / 2]
    print(
        String(
            format: "burst-merge-bench: %d × %d×%d, %d cores: median %.3f s (min %.3f, max %.3f) over %d runs%@", count, mode.width,
            mode.height,
            ProcessInfo.processInfo.activeProcessorCount, median, times.min() ?? 0, times.max() ?? 0, reps,
            estimate ? ", noise estimated" : ""))
    print(
        String(
            format: "memory: %.0f MB resident before the merges (frames, camera caches), peak %.0f MB during them (the merge adds %.0f MB)",
            before, memory("VmHWM"), memory("VmHWM") - before))
    for patch in [20, 21] {
        let single = greenSNR(frames[0], patch: patch)
        let fused = greenSNR(merged, patch: patch)
        print(
            String(
                format: "patch %d: SNR one frame %.2f dB, merged %.2f dB (gain %.2f dB)", patch, 20 * log10(single), 20 * log10(fused),
                20 * log10(fused / single)))
    }
} catch {
    FileHandle.standardError.write(Data("burst-merge-bench: \(error)\n".utf8))
    exit(1)
}
