// live-edit-bench: times Live Photo editing (SPEC E6, E7) in one process, release build. A pair
// (by default made here: a 4032×3024 JPEG still and a 3 s 1440×1080 H.264 movie at 15 fps, a
// Live Photo's 45 frames (SPEC L2), with mono 44.1 kHz sound, synthetic detailed content written by LivePhotoPair; or any pair given
// with --still and --movie) is edited by a three-filter frame processor (ExposureAdjust, a
// GaussianBlur whose radius scales with renderScale, a vignette placed by the frame's extent),
// then, alternating, saved at full size (saveLivePhoto) and previewed at 640 px
// (prepareLivePhotoForPlayback). Prints each run, the medians, CPU seconds and the peak
// resident set; --json prints the results as JSON. Goals: save ≤ 3 s, preview ≤ 0.5 s.
//
//   swift build --package-path Benchmarks -c release $(scripts/swift-flags) --product live-edit-bench
//   Benchmarks/.build/release/live-edit-bench --reps 5
//   Benchmarks/.build/release/live-edit-bench --reps 5 --fps 30 --json     # twice a Live Photo's frames
//   Benchmarks/.build/release/live-edit-bench --still IMG.JPG --movie IMG.MOV --reps 5
import BenchmarkMeasures
import DaguerreCore
import DaguerreImage
import DaguerreLivePhoto
import DaguerreMovie
import Foundation

struct Options {
    var reps = 5
    /// A Live Photo movie's rate (SPEC L2: 45 frames over 3 s).
    var fps = 15
    var seconds = 3.0
    var stillSize = (4032, 3024)
    var movieSize = (1440, 1080)
    var still: String?
    var movie: String?
    var work = "/tmp/live-edit-bench"
    var json = false
    var only: Set<String> = ["save", "preview"]
    var previewSize = 640.0
    /// The saved pair's format: jpeg (JPEG + H.264) or heic (HEIC + HEVC).
    var format = "jpeg"
    /// Makes the input pair HEIC + HEVC (today's iPhones), converted from the JPEG + H.264 one.
    var heicInput = false

    static let usage = """
        USAGE: live-edit-bench [--reps N] [--fps N] [--seconds S] [--still-size WxH] [--movie-size WxH]
                               [--still PATH --movie PATH] [--work DIR] [--only save|preview] [--preview-size PX]
                               [--format jpeg|heic] [--heic-input] [--json]

        Edits a Live Photo with a three-filter chain (ExposureAdjust +0.3 EV, GaussianBlur of 8 px
        of the full-size still × renderScale, a vignette from the frame's extent) and times, run by
        run alternating, saveLivePhoto (full size, JPEG + H.264 or --format) and prepareLivePhotoForPlayback at
        PX (default 640) pixels. Without --still and --movie the pair is made in --work: a
        --still-size JPEG (default 4032x3024) and a --seconds (3) movie of --movie-size
        (1440x1080) at --fps (15, a Live Photo's rate) frames a second; with --heic-input that pair is then saved once,
        unedited, as HEIC + HEVC, and the HEIC pair is the input. --format heic saves HEIC + HEVC.
        """

    static func parse(_ args: [String]) throws -> Options {
        var o = Options()
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw Failure("\(args[i - 1]) needs a value\n\n\(usage)") }
            return args[i]
        }
        func size() throws -> (Int, Int) {
            let parts = try value().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 16, parts[1] >= 16 else { throw Failure("\(args[i - 1]) needs WxH") }
            return (parts[0], parts[1])
        }
        while i < args.count {
            switch args[i] {
            case "--reps": o.reps = max(1, Int(try value()) ?? 5)
            case "--fps": o.fps = max(1, min(60, Int(try value()) ?? 15))
            case "--seconds": o.seconds = max(0.2, Double(try value()) ?? 3)
            case "--still-size": o.stillSize = try size()
            case "--movie-size": o.movieSize = try size()
            case "--still": o.still = try value()
            case "--movie": o.movie = try value()
            case "--work": o.work = try value()
            case "--json": o.json = true
            case "--only": o.only = Set(try value().split(separator: ",").map(String.init))
            case "--preview-size": o.previewSize = max(16, Double(try value()) ?? 640)
            case "--format":
                o.format = try value()
                guard ["jpeg", "heic"].contains(o.format) else { throw Failure("--format is jpeg or heic") }
            case "--heic-input": o.heicInput = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default: throw Failure("unknown argument \(args[i])\n\n\(usage)")
            }
            i += 1
        }
        guard (o.still == nil) == (o.movie == nil) else { throw Failure("--still and --movie go together") }
        return o
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A detailed synthetic picture: a moving radial and linear gradient, stripes, and per-pixel
/// noise (σ about 2 levels), so that JPEG and x264 meet camera-like detail.
func makePicture(width: Int, height: Int, phase: Double, seed: inout UInt32) throws -> PixelBuffer {
    try syntheticFrame(
        width: width, height: height, centre: Float(0.3 + 0.4 * phase), stripeWidth: width / 60,
        stripeShift: Int(phase * Double(width) / 20), alpha: .premultiplied, seed: &seed)
}

/// Writes the benchmark's pair with LivePhotoPair (our JPEG and movie writers): the still at
/// the middle of the movie.
func makePair(_ o: Options) throws -> (still: String, movie: String) {
    try FileManager.default.createDirectory(atPath: o.work, withIntermediateDirectories: true)
    let tag = "\(o.stillSize.0)x\(o.stillSize.1)-\(o.movieSize.0)x\(o.movieSize.1)-\(o.fps)fps-\(o.seconds)s"
    let still = "\(o.work)/pair-\(tag).JPG"
    let movie = "\(o.work)/pair-\(tag).MOV"
    if (try? LivePhotoPair.read(still: still, movie: movie)) != nil { return (still, movie) }
    let frames = Int((o.seconds * Double(o.fps)).rounded())
    let timescale = Int64(600)
    let step = timescale / Int64(o.fps)
    var seed: UInt32 = 0x2545_F491
    var photo = SampleBuffer(pixels: try makePicture(width: o.stillSize.0, height: o.stillSize.1, phase: 0.5, seed: &seed))
    photo.photoMetadata.make = "Daguerre"
    photo.photoMetadata.model = "live-edit-bench"
    var settings = MovieSettings(
        width: o.movieSize.0, height: o.movieSize.1, frameRate: o.fps, bitRate: 7_000_000, audio: .init(sampleRate: 44_100, channels: 1))
    settings.stillImageTime = MediaTime(value: Int64(frames / 2) * step, timescale: Int32(timescale))
    let tone = (0..<Int(o.seconds * 44_100)).map { Int16(6000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
    let start = now()
    _ = try LivePhotoPair.write(still: photo, preview: nil, stillPath: still, moviePath: movie, movie: settings) {
        (recorder) throws(DaguerreError) in
        for i in 0..<frames {
            let frame: PixelBuffer
            do {
                frame = try makePicture(
                    width: o.movieSize.0, height: o.movieSize.1, phase: Double(i) / Double(max(1, frames - 1)), seed: &seed)
            } catch let e as DaguerreError { throw e } catch { throw .processorFailed(name: "benchmark frames", reason: "\(error)") }
            try recorder.append(frame: frame, at: MediaTime(value: Int64(i) * step, timescale: Int32(timescale)))
        }
        try recorder.append(audio: tone)
    }
    FileHandle.standardError.write(Data(String(format: "made the pair in %.1f s: %@, %@\n", now() - start, still, movie).utf8))
    return (still, movie)
}

/// The JPEG + H.264 pair saved once, unedited, as HEIC + HEVC (kept in --work for later runs:
/// a save writes both files or neither, so both there means the pair is whole).
func makeHEICPair(from pair: (still: String, movie: String)) async throws -> (still: String, movie: String) {
    let base = (pair.still as NSString).deletingPathExtension
    let still = base + ".HEIC"
    let movie = base + "-hevc.MOV"
    if FileManager.default.fileExists(atPath: still) && FileManager.default.fileExists(atPath: movie) { return (still, movie) }
    let input = ContentEditingInput(still: URL(fileURLWithPath: pair.still), movie: URL(fileURLWithPath: pair.movie))
    let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
    let start = now()
    try await context.saveLivePhoto(
        to: ContentEditingOutput(contentEditingInput: input, still: URL(fileURLWithPath: still), movie: URL(fileURLWithPath: movie)))
    FileHandle.standardError.write(Data(String(format: "made the HEIC + HEVC pair in %.1f s: %@, %@\n", now() - start, still, movie).utf8))
    return (still, movie)
}

/// The three-filter chain: exposure, a blur scaled by renderScale, a vignette from the extent.
let chain: LivePhotoFrameProcessor = { (frame) throws(DaguerreError) -> Image in
    let extent = frame.image.extent
    let exposed = try frame.image.applyingFilter("ExposureAdjust", parameters: ["inputEV": .number(0.3)])
    let blurred = try exposed.clampedToExtent()
        .applyingFilter("GaussianBlur", parameters: ["inputRadius": .number(8 * frame.renderScale)]).cropped(to: extent)
    let reach = (extent.width * extent.width + extent.height * extent.height).squareRoot() / 2
    let vignette = try RadialGradient(
        center: [extent.midX, extent.midY], radius0: reach * 0.5, radius1: reach, color0: .clear,
        color1: Color(red: 0, green: 0, blue: 0, alpha: 0.5)
    ).outputImage().cropped(to: extent)
    return vignette.composited(over: blurred)
}

/// One operation's figures for --json: wall seconds (median, min, max, every run) and the median CPU seconds.
func stats(_ wall: [Double], cpu: [Double]) -> [String: Any] {
    ["median": median(wall), "min": wall.min() ?? 0, "max": wall.max() ?? 0, "runs": wall, "cpuMedian": median(cpu)]
}

do {
    let o = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    var (stillPath, moviePath) = try o.still.map { ($0, o.movie ?? "") } ?? makePair(o)
    if o.heicInput && o.still == nil { (stillPath, moviePath) = try await makeHEICPair(from: (stillPath, moviePath)) }
    let input = ContentEditingInput(still: URL(fileURLWithPath: stillPath), movie: URL(fileURLWithPath: moviePath))
    let openStart = now()
    let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
    let openSeconds = now() - openStart
    context.frameProcessor = chain
    let reader = try MovieReader(path: moviePath)
    let frames = reader.tracks.first { $0.mediaType == .video }?.sampleCount ?? 0
    let e = context.fullSizeImage.extent
    let describe = String(
        format: "%.0f×%.0f still, %.0f×%.0f movie of %d frames over %.2f s", e.width, e.height, context.movieSize.width,
        context.movieSize.height, frames, context.duration.seconds)
    if !o.json { print("live-edit-bench: \(describe); opened in \(String(format: "%.3f", openSeconds)) s") }
    let outDir = "\(o.work)/out"
    try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
    var save: [Double] = []
    var saveCPU: [Double] = []
    var preview: [Double] = []
    var previewCPU: [Double] = []
    for rep in 0..<o.reps {
        if o.only.contains("save") {
            let still = URL(fileURLWithPath: "\(outDir)/IMG.\(o.format == "heic" ? "HEIC" : "JPG")")
            let movie = URL(fileURLWithPath: "\(outDir)/IMG.MOV")
            try? FileManager.default.removeItem(at: still)
            try? FileManager.default.removeItem(at: movie)
            let output = ContentEditingOutput(contentEditingInput: input, still: still, movie: movie)
            let (c0, t0) = (cpu(), now())
            try await context.saveLivePhoto(to: output)
            save.append(now() - t0)
            saveCPU.append(cpu() - c0)
            if !o.json {
                print(String(format: "run %d save: %.3f s (CPU %.2f s), peak RSS %.0f MiB", rep + 1, save.last!, saveCPU.last!, peakMiB()))
            }
        }
        if o.only.contains("preview") {
            let (c0, t0) = (cpu(), now())
            let p = try await context.prepareLivePhotoForPlayback(targetSize: Size(width: o.previewSize, height: o.previewSize))
            preview.append(now() - t0)
            previewCPU.append(cpu() - c0)
            if !o.json {
                print(
                    String(
                        format: "run %d preview: %.3f s (CPU %.2f s), %.0f×%.0f", rep + 1, preview.last!, previewCPU.last!, p.size.width,
                        p.size.height))
            }
        }
    }
    let peak = peakMiB()
    let cores = ProcessInfo.processInfo.activeProcessorCount
    if o.json {
        var result: [String: Any] = [
            "still": stillPath, "movie": moviePath, "stillWidth": e.width, "stillHeight": e.height,
            "movieWidth": context.movieSize.width, "movieHeight": context.movieSize.height, "frames": frames,
            "duration": context.duration.seconds, "openSeconds": openSeconds, "reps": o.reps, "cores": cores, "peakRSSMiB": peak,
            "previewTarget": o.previewSize, "format": o.format,
        ]
        if !save.isEmpty { result["save"] = stats(save, cpu: saveCPU) }
        if !preview.isEmpty { result["preview"] = stats(preview, cpu: previewCPU) }
        let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    } else {
        if !save.isEmpty {
            print(
                String(
                    format: "save: median %.3f s (min %.3f, max %.3f), CPU %.2f s over %d runs; goal ≤ 3 s", median(save), save.min()!,
                    save.max()!, median(saveCPU), save.count))
        }
        if !preview.isEmpty {
            print(
                String(
                    format: "preview at %.0f px: median %.3f s (min %.3f, max %.3f), CPU %.2f s; goal ≤ 0.5 s", o.previewSize,
                    median(preview), preview.min()!, preview.max()!, median(previewCPU)))
        }
        print(String(format: "peak RSS %.0f MiB; %d cores", peak, cores))
    }
} catch {
    FileHandle.standardError.write(Data("live-edit-bench: \(error)\n".utf8))
    exit(1)
}
