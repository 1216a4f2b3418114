// daguerre-formats-bench: in-process timings of the file writers and readers (SPEC R1, L2):
// a 12 MP DNG written and read back, with LibRaw (rawpy) reading the same file for comparison.
// Release build: swift build --package-path Benchmarks -c release $(scripts/swift-flags) --product daguerre-formats-bench
import DaguerreCore
import DaguerreFormats
import Foundation

func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
func peakRSSMiB() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_maxrss) / 1024
}

/// A 4032×3024 14-bit Bayer frame of a smooth scene with shot and read noise, like a phone's.
func scene12MP() throws -> DNGImage {
    let w = 4032
    let h = 3024
    var raw = try BayerImage(width: w, height: h, pattern: .rggb, bitsPerSample: 14)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func noise() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let u1 = Double((state >> 11) & 0xFFFFF) / 1048576 + 1e-9
        let u2 = Double((state >> 33) & 0xFFFFF) / 1048576
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
    raw.samples.withUnsafeMutableBufferPointer { s in
        for y in 0..<h {
            for x in 0..<w {
                let c = raw.pattern.color(x: x, y: y)
                let signal = 2000 + 1500 * sin(Double(x) / 300) * cos(Double(y) / 200) + Double(c) * 800
                let v = 528 + signal + noise() * (signal / 4 + 9).squareRoot()
                s[y * w + x] = UInt16(max(0, min(16383, v)))
            }
        }
    }
    raw.blackLevel = [528, 528, 528, 528]
    raw.whiteLevel = 16383
    var dng = DNGImage(raw: raw, uniqueCameraModel: "Daguerre Benchmark")
    dng.color.asShotNeutral = [0.5, 1, 0.7]
    return dng
}

let args = CommandLine.arguments
let reps = args.firstIndex(of: "--reps").flatMap { Int(args[$0 + 1]) } ?? 7
let work = args.firstIndex(of: "--work").map { args[$0 + 1] } ?? "/tmp/daguerre-formats-bench"
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
let path = work + "/bench-12mp.dng"

let dng = try scene12MP()
var writes: [Double] = []
var reads: [Double] = []
for _ in 0..<reps {
    let t0 = now()
    try DNGWriter.write(dng, to: path)
    let t1 = now()
    let back = try DNGReader.read(path: path)
    let t2 = now()
    precondition(back.rawData == dng.rawData, "round trip differs")
    writes.append(t1 - t0)
    reads.append(t2 - t1)
}
let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
print(String(format: "DNG 4032x3024 14-bit, lossless JPEG tiles, %d reps, %d cores", reps, ProcessInfo.processInfo.activeProcessorCount))
print(
    String(
        format: "  write median %.1f ms (min %.1f)   read median %.1f ms (min %.1f)", median(writes) * 1000, writes.min()! * 1000,
        median(reads) * 1000, reads.min()! * 1000))
print(
    String(
        format: "  file %.1f MB (%.2f bits/photosite), peak RSS %.0f MiB", Double(size) / 1e6, Double(size * 8) / Double(4032 * 3024),
        peakRSSMiB()))

// The peer: LibRaw (through rawpy) opening and unpacking the same file, timed inside Python.
let script = """
    import rawpy, time, statistics
    t = []
    for _ in range(\(reps)):
        a = time.perf_counter()
        with rawpy.imread('\(path)') as r:
            _ = r.raw_image.copy()
        t.append(time.perf_counter() - a)
    print('%.1f' % (statistics.median(t) * 1000))
    """
let p = Process()
p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
p.arguments = ["python3", "-c", script]
let pipe = Pipe()
p.standardOutput = pipe
if (try? p.run()) != nil {
    p.waitUntilExit()
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
    if let ms = Double(out) {
        print(
            String(format: "  LibRaw (rawpy) read of the same file: median %.1f ms; daguerre/LibRaw = %.2f", ms, median(reads) * 1000 / ms))
    }
}
