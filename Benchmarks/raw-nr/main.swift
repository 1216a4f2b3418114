import DaguerreCore
import DaguerreFormats
// raw-nr-bench: times raw noise reduction (DCT4-2S, SPEC X3) as RAWFilter's develop source runs
// it, on a synthetic noisy mosaic (ISO 1600-like: S = 1/1667, O = 9/1667²), best of N runs.
// See Benchmarks/NOISE_RESULTS.md.
//
//   raw-nr-bench [WIDTH HEIGHT [REPS]]      (default 6000 4000 3; all cores)
@_spi(Benchmarks) import DaguerreRAW
import Foundation

let args = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let width = args.count > 0 ? args[0] : 6000
let height = args.count > 1 ? args[1] : 4000
let reps = args.count > 2 ? args[2] : 3

do {
    var mosaic = try BayerImage(width: width, height: height, pattern: .rggb, bitsPerSample: 14)
    mosaic.blackLevel = [512, 512, 512, 512]
    mosaic.whiteLevel = 16383
    var state: UInt64 = 1600
    for i in 0..<(width * height) {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let u = Double(state >> 11) / Double(1 << 53)
        let x = 0.05 + 0.6 * Double(i % width) / Double(width)
        let noisy = x + (x / 1667 + 9 / (1667.0 * 1667.0)).squareRoot() * (u - 0.5) * 3.46
        mosaic.samples[i] = UInt16(max(0, min(16383, 512 + noisy * 15871)))
    }
    print("raw-nr-bench: \(width)×\(height), \(ProcessInfo.processInfo.activeProcessorCount) cores, best of \(reps)")
    for (name, chunks) in [("develop chunks", true), ("one full-frame window", false)] {
        var best = Double.infinity
        for _ in 0..<reps {
            best = min(best, try NoiseReductionBenchmark.run(mosaic, scale: 1 / 1667, offset: 9 / (1667.0 * 1667.0), developChunks: chunks))
        }
        print(String(format: "%@: stabilize + DCT4-2S %.3f s (%.1f ns/photosite)", name, best, best / Double(width * height) * 1e9))
    }
    let estimate = (0..<reps).map { _ in NoiseReductionBenchmark.estimate(mosaic) }.min() ?? 0
    print(String(format: "noise estimate of the whole mosaic: %.3f s", estimate))
} catch {
    FileHandle.standardError.write(Data("raw-nr-bench: \(error)\n".utf8))
    exit(1)
}
