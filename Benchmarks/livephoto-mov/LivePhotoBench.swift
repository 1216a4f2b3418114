import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import Foundation

/// Command-line options of livephoto-mov-bench.
struct BenchOptions {
    var reps = 5
    var frames = 45
    var width = 1440
    var height = 1080
    var preset = "ultrafast"
    var threads = 2
    var output = "/tmp/livephoto-mov-bench"
    var json = false
    var keep = false
    var convertOnly = false
    var result: String?
    var lazyFrames = false

    static let usage = """
        USAGE: livephoto-mov-bench [--reps N] [--frames N] [--size WxH] [--preset NAME] [--threads N] [--out DIR] [--json] [--result FILE] [--lazy-frames] [--keep] [--convert-only]

        Records a Live Photo movie N times (45 frames of 1440×1080 at 15 fps, about 7 Mbit/s, mono
        44.1 kHz PCM, still-image-time track, content identifier and four metadata items) and prints
        each run's encode+mux time and the median. Frames (a moving scene with sensor-like noise) are
        made before timing starts. --json prints the results as JSON; --result FILE also writes that
        JSON to FILE (daguerre-bench reads it). --convert-only times just the RGBA → Y'CbCr 4:2:0
        conversion. --lazy-frames makes each frame just before it is appended (only the recorder's
        calls are timed), so peak RSS is the recorder's own rather than 45 frames held in memory.
        """

    static func parse(_ args: [String]) throws -> BenchOptions {
        var o = BenchOptions()
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw BenchFailure("\(args[i - 1]) needs a value\n\n\(usage)") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--reps": o.reps = max(1, Int(try value()) ?? 5)
            case "--frames": o.frames = max(1, Int(try value()) ?? 45)
            case "--size":
                let parts = try value().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2 else { throw BenchFailure("--size needs WxH") }
                o.width = parts[0]
                o.height = parts[1]
            case "--preset": o.preset = try value()
            case "--threads": o.threads = Int(try value()) ?? 2
            case "--out": o.output = try value()
            case "--json": o.json = true
            case "--keep": o.keep = true
            case "--convert-only": o.convertOnly = true
            case "--result": o.result = try value()
            case "--lazy-frames": o.lazyFrames = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default: throw BenchFailure("unknown argument \(args[i])\n\n\(usage)")
            }
            i += 1
        }
        return o
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Makes the frames once, then times recordings.
struct LivePhotoBench {
    let o: BenchOptions
    init(_ o: BenchOptions) { self.o = o }

    /// A moving radial-and-linear gradient scene with per-pixel noise (σ about 2 levels, like a
    /// camera at daylight ISO), so the encoder meets realistic detail.
    func makeFrame(_ f: Int, seed: inout UInt32) throws -> PixelBuffer {
        var b = try PixelBuffer(width: o.width, height: o.height, format: .rgba8, colorSpace: .sRGB, alpha: .straight)
        let rb = b.bytesPerRow
        let w = o.width
        let h = o.height
        var state = seed
        b.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let cx = Float(w) * (0.3 + 0.4 * Float(f) / Float(max(1, o.frames)))
            let cy = Float(h) * 0.5
            for y in 0..<h {
                let row = p + y * rb
                for x in 0..<w {
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    let noise = Float(Int(state & 7) - 4) * 0.6
                    let dx = Float(x) - cx
                    let dy = Float(y) - cy
                    let d = (dx * dx + dy * dy).squareRoot() / Float(w)
                    let stripes = Float((x + 3 * f) / 24 % 2) * 18
                    row[4 * x] = UInt8(clamping: Int(200 - 160 * d + stripes + noise))
                    row[4 * x + 1] = UInt8(clamping: Int(60 + 120 * Float(y) / Float(h) + noise))
                    row[4 * x + 2] = UInt8(clamping: Int(40 + 150 * Float(x) / Float(w) - stripes + noise))
                    row[4 * x + 3] = 255
                }
            }
        }
        seed = state
        return b
    }

    func makeFrames() throws -> [PixelBuffer] {
        var seed: UInt32 = 0x2545_F491
        return try (0..<o.frames).map { try makeFrame($0, seed: &seed) }
    }

    /// Records one movie; `frame(i)` supplies the frames. Only the recorder's own calls are timed.
    func record(frameCount: Int, frame: (Int) throws -> PixelBuffer, audio: [Int16], to path: String) throws -> (
        seconds: Double, info: MovieFileInfo
    ) {
        let settings = MovieSettings(
            width: o.width, height: o.height, frameRate: 15, bitRate: 7_000_000, audio: .init(channels: 1),
            metadata: [
                MetadataItem(key: .author, value: "daguerre-bench"),
                MetadataItem(key: .locationISO6709, value: "+48.8584+002.2945+035.000/"),
                MetadataItem(key: .make, value: "Daguerre"), MetadataItem(key: .model, value: "Virtual Camera"),
            ],
            contentIdentifier: UUID().uuidString, stillImageTime: MediaTime(seconds: Double(frameCount) / 30),
            encoderPreset: o.preset, encoderThreads: o.threads)
        let perFrame = 44_100 / 15
        var elapsed: UInt64 = 0
        func timed<R>(_ body: () throws -> R) rethrows -> R {
            let start = DispatchTime.now().uptimeNanoseconds
            defer { elapsed += DispatchTime.now().uptimeNanoseconds - start }
            return try body()
        }
        let recorder = try timed { try MovieRecorder(destination: path, settings: settings) }
        for i in 0..<frameCount {
            let f = try frame(i)
            try timed { try recorder.append(frame: f, at: MediaTime(value: Int64(i) * 40, timescale: 600)) }
            let lo = min(audio.count, i * perFrame)
            let hi = min(audio.count, (i + 1) * perFrame)
            if hi > lo {
                let chunk = Array(audio[lo..<hi])
                try timed { try recorder.append(audio: chunk) }
            }
        }
        let info = try timed { try recorder.finish() }
        return (Double(elapsed) / 1e9, info)
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: o.output, withIntermediateDirectories: true)
        let frames = o.lazyFrames ? [] : try makeFrames()
        let audio = (0..<(o.frames * 44_100 / 15)).map { Int16(6000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
        if o.convertOnly {
            var yuv = try PlanarYCbCr420Buffer(width: o.width, height: o.height)
            let source = frames.isEmpty ? try makeFrames() : frames
            for rep in 0..<o.reps {
                let start = DispatchTime.now().uptimeNanoseconds
                for f in source { try YCbCrConversion.convert(f, into: &yuv) }
                print(
                    String(
                        format: "conversion run %d: %.1f ms for %d frames", rep + 1,
                        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, source.count))
            }
            return
        }
        var times: [Double] = []
        var last: MovieFileInfo?
        for rep in 0..<o.reps {
            let path = "\(o.output)/live-\(rep).mov"
            var seed: UInt32 = 0x2545_F491
            let (t, info) = try record(
                frameCount: o.frames, frame: { i in o.lazyFrames ? try makeFrame(i, seed: &seed) : frames[i] },
                audio: audio, to: path)
            times.append(t)
            last = info
            if !o.json {
                print(
                    String(
                        format: "run %d: %.3f s, %.2f MB, video %.2f Mbit/s", rep + 1, t, Double(info.byteCount) / 1e6,
                        Double(info.tracks.first?.dataBytes ?? 0) * 8 / info.duration.seconds / 1e6))
            }
            if !o.keep { try? FileManager.default.removeItem(atPath: path) }
        }
        let sorted = times.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let videoMbps = Double(last?.tracks.first?.dataBytes ?? 0) * 8 / (last?.duration.seconds ?? 1) / 1e6
        let obj: [String: Any] = [
            "runs": times, "median": median, "frames": o.frames, "width": o.width, "height": o.height,
            "preset": o.preset, "threads": o.threads, "bytes": last?.byteCount ?? 0, "videoMbps": videoMbps,
        ]
        let json = try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
        if let result = o.result { try json.write(to: URL(fileURLWithPath: result)) }
        if o.json {
            print(String(decoding: json, as: UTF8.self))
        } else {
            print(
                String(
                    format: "median of %d: %.3f s (min %.3f, max %.3f); %@ preset, %d threads", times.count, median,
                    sorted.first ?? 0, sorted.last ?? 0, o.preset, o.threads))
        }
    }
}
