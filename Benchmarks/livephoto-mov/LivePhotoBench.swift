import BenchmarkMeasures
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
    var encoders: [H264EncoderChoice] = [.x264]
    var source = "synthetic"
    var psnr = false

    static let usage = """
        USAGE: livephoto-mov-bench [--reps N] [--frames N] [--size WxH] [--preset NAME] [--threads N] [--out DIR] [--json] [--result FILE] [--lazy-frames] [--keep] [--convert-only]
                                   [--encoder x264|openh264|both] [--source synthetic|kodak] [--psnr]

        Records a Live Photo movie N times (45 frames of 1440×1080 at 15 fps, about 7 Mbit/s, mono
        44.1 kHz PCM, still-image-time track, content identifier and four metadata items) and prints
        each run's encode+mux time and the median. Frames (a moving scene with sensor-like noise) are
        made before timing starts. --json prints the results as JSON; --result FILE also writes that
        JSON to FILE (daguerre-bench reads it). --convert-only times just the RGBA → Y'CbCr 4:2:0
        conversion. --lazy-frames makes each frame just before it is appended (only the recorder's
        calls are timed), so peak RSS is the recorder's own rather than 45 frames held in memory.
        --encoder both records the same frames with x264 and OpenH264, alternating run by run.
        --source kodak pans over six Kodak photographs (Tests/Resources/kodak24, 8 rows a frame)
        instead of the synthetic scene. --psnr decodes each encoder's last movie with H264Decoder
        and prints its PSNR against the RGBA frames fed in (RGB, and luma Y' = BT.709 of both),
        beside the 4:2:0 round trip without encoding (the ceiling).
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
            case "--encoder":
                let name = try value()
                switch name {
                case "x264": o.encoders = [.x264]
                case "openh264": o.encoders = [.openH264]
                case "both": o.encoders = [.x264, .openH264]
                default: throw BenchFailure("--encoder takes x264, openh264 or both, not \(name)")
                }
            case "--source":
                o.source = try value()
                guard ["synthetic", "kodak"].contains(o.source) else { throw BenchFailure("--source takes synthetic or kodak") }
            case "--psnr": o.psnr = true
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
    /// For `--source kodak`: the photographs tiled into one tall picture that the frames pan over.
    let photographs: PixelBuffer?

    init(_ o: BenchOptions) throws {
        self.o = o
        photographs = o.source == "kodak" ? try Self.tilePhotographs(width: o.width, height: o.height + 8 * o.frames) : nil
    }

    /// Six Kodak photographs (caps, motorbikes, windows, a river, rafting, parrots) at their
    /// 768×512, tiled in rows over `width × height`.
    static func tilePhotographs(width: Int, height: Int) throws -> PixelBuffer {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Resources/kodak24")
        let numbers = [3, 5, 8, 13, 14, 23]
        var tall = try PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: .sRGB, alpha: .straight)
        let (cellW, cellH) = (768, 512)
        let columns = (width + cellW - 1) / cellW
        let rows = (height + cellH - 1) / cellH
        let rb = tall.bytesPerRow
        for cell in 0..<(columns * rows) {
            let path = folder.appendingPathComponent(String(format: "kodim%02d.png", numbers[cell % numbers.count])).path
            let photo = try ImageReader.readAll(path: path)
            let n = photo.format.channels
            let (x0, y0) = (cell % columns * cellW, cell / columns * cellH)
            tall.withUnsafeMutableBytes { raw in
                photo.withUnsafeBytes { src in
                    for y in 0..<min(cellH, photo.height, height - y0) {
                        for x in 0..<min(cellW, photo.width, width - x0) {
                            let out = (y0 + y) * rb + 4 * (x0 + x)
                            let i = y * photo.bytesPerRow + n * x
                            raw[out] = src[i]
                            raw[out + 1] = src[i + 1]
                            raw[out + 2] = src[i + 2]
                            raw[out + 3] = 255
                        }
                    }
                }
            }
        }
        return tall
    }

    /// Frame `f`: the synthetic scene, or the window 8·f rows down the photographs.
    func makeFrame(_ f: Int, seed: inout UInt32) throws -> PixelBuffer {
        guard let photographs else { return try makeSyntheticFrame(f, seed: &seed) }
        var b = try PixelBuffer(width: o.width, height: o.height, format: .rgba8, colorSpace: .sRGB, alpha: .straight)
        let rb = b.bytesPerRow
        b.withUnsafeMutableBytes { raw in
            photographs.withUnsafeBytes { src in
                for y in 0..<o.height {
                    (raw.baseAddress! + y * rb).copyMemory(
                        from: src.baseAddress! + (y + 8 * f) * photographs.bytesPerRow, byteCount: 4 * o.width)
                }
            }
        }
        return b
    }

    /// A moving radial-and-linear gradient scene with per-pixel noise (σ about 2 levels, like a
    /// camera at daylight ISO), so the encoder meets realistic detail.
    func makeSyntheticFrame(_ f: Int, seed: inout UInt32) throws -> PixelBuffer {
        try syntheticFrame(
            width: o.width, height: o.height, centre: 0.3 + 0.4 * Float(f) / Float(max(1, o.frames)), stripeWidth: 24,
            stripeShift: 3 * f, alpha: .straight, seed: &seed)
    }

    func makeFrames() throws -> [PixelBuffer] {
        var seed: UInt32 = 0x2545_F491
        return try (0..<o.frames).map { try makeFrame($0, seed: &seed) }
    }

    /// Records one movie; `frame(i)` supplies the frames. Only the recorder's own calls are timed.
    func record(
        encoder: H264EncoderChoice, frameCount: Int, frame: (Int) throws -> PixelBuffer, audio: [Int16], to path: String
    ) throws -> (
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
            encoder: encoder, encoderPreset: o.preset, encoderThreads: o.threads)
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
        // The encoders alternate run by run, so a busy spell of the shared machine hits both.
        var times: [H264EncoderChoice: [Double]] = [:]
        var last: [H264EncoderChoice: (path: String, info: MovieFileInfo)] = [:]
        for rep in 0..<o.reps {
            for encoder in o.encoders {
                let path = "\(o.output)/live-\(encoder.rawValue)-\(rep).mov"
                var seed: UInt32 = 0x2545_F491
                let (t, info) = try record(
                    encoder: encoder, frameCount: o.frames, frame: { i in o.lazyFrames ? try makeFrame(i, seed: &seed) : frames[i] },
                    audio: audio, to: path)
                times[encoder, default: []].append(t)
                if let previous = last[encoder], !o.keep { try? FileManager.default.removeItem(atPath: previous.path) }
                last[encoder] = (path, info)
                if !o.json {
                    print(
                        String(
                            format: "run %d %@: %.3f s, %.2f MB, video %.2f Mbit/s", rep + 1, encoder.rawValue, t,
                            Double(info.byteCount) / 1e6, Self.videoMbps(info)))
                }
            }
        }
        let ceiling = o.psnr ? try roundTripPSNR(frames) : nil
        var results: [[String: Any]] = []
        for encoder in o.encoders {
            let sorted = (times[encoder] ?? []).sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let info = last[encoder]?.info
            var obj: [String: Any] = [
                "encoder": encoder.rawValue, "runs": sorted, "median": median, "frames": o.frames, "width": o.width, "height": o.height,
                "preset": o.preset, "threads": o.threads, "bytes": info?.byteCount ?? 0, "videoMbps": info.map(Self.videoMbps) ?? 0,
                "source": o.source,
            ]
            var quality = ""
            if let path = last[encoder]?.path, o.psnr {
                let p = try decodedPSNR(path, frames: frames)
                obj["psnrRGB"] = p.rgb
                obj["psnrLuma"] = p.luma
                quality = String(format: "; PSNR RGB %.2f dB, Y' %.2f dB (min over frames %.2f, %.2f)", p.rgb, p.luma, p.minRGB, p.minLuma)
            }
            if let path = last[encoder]?.path, !o.keep { try? FileManager.default.removeItem(atPath: path) }
            results.append(obj)
            if !o.json {
                print(
                    String(
                        format: "%@: median of %d: %.3f s (min %.3f, max %.3f), video %.2f Mbit/s%@; %@ preset, %d threads",
                        encoder.rawValue, sorted.count, median, sorted.first ?? 0, sorted.last ?? 0, info.map(Self.videoMbps) ?? 0,
                        quality, encoder == .x264 ? o.preset : "no", o.threads))
            }
        }
        if let ceiling, !o.json {
            print(
                String(format: "4:2:0 round trip without encoding (the ceiling): PSNR RGB %.2f dB, Y' %.2f dB", ceiling.rgb, ceiling.luma))
        }
        // The first encoder's figures at the top level (what daguerre-bench reads), all under "encoders".
        var top = results.first ?? [:]
        top["encoders"] = results
        if let ceiling { top["psnrRoundTripRGB"] = ceiling.rgb }
        let json = try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys])
        if let result = o.result { try json.write(to: URL(fileURLWithPath: result)) }
        if o.json { print(String(decoding: json, as: UTF8.self)) }
    }

    static func videoMbps(_ info: MovieFileInfo) -> Double {
        Double(info.tracks.first?.dataBytes ?? 0) * 8 / info.duration.seconds / 1e6
    }

    /// The frames fed in, in order (made again one at a time with `--lazy-frames`).
    func forEachInputFrame(_ frames: [PixelBuffer], _ body: (Int, PixelBuffer) throws -> Void) throws {
        var seed: UInt32 = 0x2545_F491
        for i in 0..<o.frames { try body(i, o.lazyFrames ? try makeFrame(i, seed: &seed) : frames[i]) }
    }

    /// PSNR of the movie at `path`, decoded by H264Decoder, against the frames fed in: the mean
    /// squared error over every frame's RGB, and over its luma (BT.709 weights of R'G'B').
    func decodedPSNR(_ path: String, frames: [PixelBuffer]) throws -> (rgb: Double, luma: Double, minRGB: Double, minLuma: Double) {
        let movie = try MovieReader(path: path)
        guard let track = movie.tracks.first(where: { $0.mediaType == .video }) else { throw BenchFailure("\(path) has no video") }
        var decoded: [PixelBuffer] = []
        try movie.decodeFrames(track: track.id, range: 0..<track.sampleCount) { (_, f) throws(DaguerreError) in decoded.append(f) }
        guard decoded.count == o.frames else { throw BenchFailure("\(path): \(decoded.count) frames decoded, \(o.frames) fed in") }
        var total = ErrorSums()
        var worst = (rgb: Double.infinity, luma: Double.infinity)
        try forEachInputFrame(frames) { i, input in
            let e = ErrorSums(decoded[i], input)
            total.add(e)
            worst = (min(worst.rgb, e.rgbPSNR), min(worst.luma, e.lumaPSNR))
        }
        return (total.rgbPSNR, total.lumaPSNR, worst.rgb, worst.luma)
    }

    /// PSNR of the frames converted to Y'CbCr 4:2:0 and back, without encoding: what chroma
    /// subsampling and rounding alone cost.
    func roundTripPSNR(_ frames: [PixelBuffer]) throws -> (rgb: Double, luma: Double) {
        var total = ErrorSums()
        try forEachInputFrame(frames) { _, input in
            total.add(ErrorSums(try YCbCrConversion.makeRGBA(from: try YCbCrConversion.makeYCbCr420(from: input)), input))
        }
        return (total.rgbPSNR, total.lumaPSNR)
    }
}
