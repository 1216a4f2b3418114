// raw-bench: the in-process half of the RAW benchmark (SPEC X7). `make-dng` writes the
// benchmark's Bayer DNG from the virtual camera at any sensor size (the whole-process runs are
// daguerre-bench's `raw` scenario), or with `--xtrans` the virtual X-Trans camera's; `make-xtrans-dng` an X-Trans DNG of the Kodak photographs
// (the `rawxtrans` scenario); `make-kodak-dng` a Bayer DNG of them in uncompressed strips,
// without a NoiseProfile (the `rawkodak` scenario); `draft` times interactive draft re-renders after a
// parameter change, the way an editor's slider drives them; `develop` times full-size develops
// in one process, for A/B comparisons of the pipeline's kernels on a noisy host (the minimum
// over many repetitions moves far less than one whole-process run). See Benchmarks/README.md.
import Daguerre
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("raw-bench: \(message)\n".utf8))
    exit(64)
}

func value(_ name: String, in args: [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// The studio scene, shot by the virtual back camera with its sensor resized: auto-exposure
/// settles on a binned stream first, then one full-size raw still becomes the DNG.
/// `push` (EV) multiplies the raw samples before writing, clipping at the white level: a DNG
/// with blown highlights, for the draft's highlight path.
func makeDNG(width w: Int, height h: Int, lux: Double, push: Double, xTrans: Bool, output: String) throws {
    var profile = xTrans ? VirtualCameraProfile.xTrans : VirtualCameraProfile.back
    profile.sensor.width = w
    profile.sensor.height = h
    let stream = SensorReadoutMode(width: w / 4 / 2 * 2, height: h / 4 / 2 * 2, maxFrameRate: 30)
    profile.modes = [stream, SensorReadoutMode(width: w, height: h, maxFrameRate: 5)]
    let camera = VirtualCamera(profile: profile, seed: 5)
    camera.lux = lux
    for i in 0..<15 { _ = try camera.captureRAW(mode: stream, at: Double(i) / 30) }
    let frame = try camera.captureRAW(mode: profile.modes[1], at: 0.5)
    var dng = camera.dngImage(for: frame)
    if push != 0, case .mosaic(var mosaic) = dng.rawData {
        let black = mosaic.blackLevel
        let white = Double(mosaic.whiteLevel)
        let gain = pow(2, push)
        for y in 0..<mosaic.height {
            for x in 0..<mosaic.width {
                let b = black[xTrans ? 0 : (y & 1) * 2 + (x & 1)]
                let i = y * mosaic.width + x
                mosaic.samples[i] = UInt16(min(white, b + (Double(mosaic.samples[i]) - b) * gain).rounded())
            }
        }
        dng.rawData = .mosaic(mosaic)
    }
    try DNGWriter.write(dng, to: output)
    let m = frame.metadata
    print(String(format: "%@: %d×%d %@, 1/%.0f s, ISO %.0f", output, w, h, xTrans ? "X-Trans" : "Bayer", 1 / m.exposureDuration, m.iso))
}

/// A DNG of real photographs: the Kodak crops (500×500) tiled across the sensor (linear light;
/// 6000×4000 is 12×8 crops), sampled through the X-Trans filter or an RGGB Bayer one, with a
/// sensor's Poisson-Gaussian noise (variance 0.8·signal + 16 in codes, a fixed seed), 14-bit
/// codes over a black level of 1024, camera space linear sRGB, no NoiseProfile (noise
/// reduction estimates it), lossless JPEG tiles or uncompressed strips.
func makeKodakDNG(
    width w: Int, height h: Int, xTrans: Bool, compression: DNGCompression, kodak: String, output: String
) throws {
    let crops = try (1...24).map { try ImageReader.readAll(path: String(format: "%@/kodim%02d.png", kodak, $0)) }
    let tile = crops[0].width
    let across = (w + tile - 1) / tile
    var mosaic = try BayerImage(width: w, height: h, pattern: .rggb, bitsPerSample: 14)
    if xTrans { mosaic.xTrans = .standard }
    mosaic.blackLevel = [1024, 1024, 1024, 1024]
    mosaic.whiteLevel = 16383
    let decode = (0..<256).map { (code: Int) -> Double in
        let v = Double(code) / 255
        return (v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)) * 15359 * 0.9
    }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func gaussian() -> Double {
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) + 0.5) / 9_007_199_254_740_992
        }
        return (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
    }
    for y in 0..<h {
        for x in 0..<w {
            let crop = crops[((y / tile) * across + x / tile) % crops.count]
            let c = xTrans ? XTransPattern.standard.color(x: x, y: y) : BayerPattern.rggb.color(x: x, y: y)
            let code = crop.withUnsafeBytes { $0[(y % tile) * crop.bytesPerRow + (x % tile) * crop.format.channels + c] }
            let signal = decode[Int(code)]
            let noisy = signal + gaussian() * (0.8 * signal + 16).squareRoot()
            mosaic.samples[y * w + x] = UInt16(min(16383, max(0, 1024 + noisy.rounded())))
        }
    }
    var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre \(xTrans ? "X-Trans" : "Bayer") benchmark (linear sRGB)")
    dng.color.colorMatrix1 = (Primaries.srgb.rgbToXYZ.inverse ?? .identity).m
    dng.color.calibrationIlluminant1 = .d65
    dng.color.asShotNeutral = [1, 1, 1]
    try DNGWriter.write(dng, to: output, compression: compression)
    print("\(output): \(w)×\(h) \(xTrans ? "X-Trans" : "Bayer"), Kodak crops tiled")
}

/// Median time of a draft render at `longEdge` pixels after changing exposure, then after
/// changing white balance, each into an sRGB 8-bit buffer (what a viewer shows).
func draft(dng path: String, longEdge: Double, reps: Int) throws {
    var raw = try RAWFilter(url: URL(fileURLWithPath: path))
    raw.isDraftModeEnabled = true
    raw.scaleFactor = min(1, longEdge / Double(max(raw.nativeSize.width, raw.nativeSize.height)))
    let context = try Context()
    func render() throws -> Double {
        let t = Date()
        _ = try context.createBuffer(try raw.outputImage(), format: .rgba8, colorSpace: .sRGB)
        return Date().timeIntervalSince(t)
    }
    let first = try render()
    var exposure: [Double] = []
    var balance: [Double] = []
    for i in 0..<reps {
        raw.exposure = Double(i % 3) * 0.25 + 0.1
        exposure.append(try render())
    }
    let temperature = raw.neutralTemperature
    for i in 0..<reps {
        raw.neutralTemperature = temperature + Double(i + 1) * 50
        balance.append(try render())
    }
    let image = try raw.outputImage()
    print(
        String(
            format:
                "draft %@ at %.0f px (%.0f×%.0f): first render %.0f ms; after an exposure change median %.1f ms (min %.1f); after a white-balance change median %.1f ms (min %.1f); %d reps",
            path, longEdge, image.extent.width, image.extent.height, first * 1000, median(exposure) * 1000, (exposure.min() ?? 0) * 1000,
            median(balance) * 1000, (balance.min() ?? 0) * 1000, reps))
}

/// Process CPU seconds (user + system) so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Full-size develops at default settings into an sRGB RGB8 buffer (what a JPEG encoder is
/// fed), `reps` times after one warm-up: the minimum and median wall and CPU time (the develop
/// and the engine's conversion, without file encoding), and the time the first recipe took
/// (for a file without a NoiseProfile, the noise estimate).
func develop(dng path: String, reps: Int) throws {
    let raw = try RAWFilter(url: URL(fileURLWithPath: path))
    let context = try Context()
    // The first recipe reads what the develop needs before any row: for a file without a
    // NoiseProfile, the noise estimate (made once per filter).
    let (t0, c0) = (Date(), cpuSeconds())
    _ = try raw.outputImage()
    let (recipeWall, recipeCPU) = (Date().timeIntervalSince(t0), cpuSeconds() - c0)
    var wall: [Double] = []
    var cpu: [Double] = []
    for i in 0...reps {
        let (t, c) = (Date(), cpuSeconds())
        _ = try context.createBuffer(try raw.outputImage(), format: .rgb8, colorSpace: .sRGB)
        if i > 0 {
            wall.append(Date().timeIntervalSince(t))
            cpu.append(cpuSeconds() - c)
        }
    }
    func ms(_ t: Double) -> String { String(format: "%.1f ms", t * 1000) }
    print(
        "develop \(path) (\(Int(raw.nativeSize.width))×\(Int(raw.nativeSize.height))), \(reps) reps: wall min \(ms(wall.min() ?? 0)), "
            + "median \(ms(median(wall))); CPU min \(ms(cpu.min() ?? 0)), median \(ms(median(cpu))); "
            + "first recipe (noise estimate if any) \(ms(recipeWall)), CPU \(ms(recipeCPU))")
}

/// `--kodak DIR`, or the repository's Kodak crops.
func kodakDirectory(_ args: [String]) -> String {
    value("--kodak", in: args)
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/Resources/kodak24")
        .standardized.path
}

let args = Array(CommandLine.arguments.dropFirst())
do {
    switch args.first {
    case "make-dng":
        guard let w = value("--width", in: args).flatMap(Int.init), let h = value("--height", in: args).flatMap(Int.init),
            let out = value("--out", in: args), w >= 64, h >= 64, w % 2 == 0, h % 2 == 0
        else {
            fail("usage: raw-bench make-dng --width W --height H --out FILE.dng [--lux L] [--push EV] [--xtrans]   (even W, H ≥ 64)")
        }
        try makeDNG(
            width: w, height: h, lux: value("--lux", in: args).flatMap(Double.init) ?? 300,
            push: value("--push", in: args).flatMap(Double.init) ?? 0, xTrans: args.contains("--xtrans"), output: out)
    case "make-xtrans-dng":
        guard let w = value("--width", in: args).flatMap(Int.init), let h = value("--height", in: args).flatMap(Int.init),
            let out = value("--out", in: args), w >= 64, h >= 64
        else {
            fail("usage: raw-bench make-xtrans-dng --width W --height H --out FILE.dng [--kodak DIR]   (W, H ≥ 64)")
        }
        try makeKodakDNG(width: w, height: h, xTrans: true, compression: .losslessJPEG, kodak: kodakDirectory(args), output: out)
    case "make-kodak-dng":
        guard let w = value("--width", in: args).flatMap(Int.init), let h = value("--height", in: args).flatMap(Int.init),
            let out = value("--out", in: args), w >= 64, h >= 64, w % 2 == 0, h % 2 == 0
        else {
            fail("usage: raw-bench make-kodak-dng --width W --height H --out FILE.dng [--kodak DIR]   (even W, H ≥ 64)")
        }
        try makeKodakDNG(width: w, height: h, xTrans: false, compression: .noneInStrips, kodak: kodakDirectory(args), output: out)
    case "draft":
        guard let dng = value("--dng", in: args) else { fail("usage: raw-bench draft --dng FILE.dng [--long-edge 2048] [--reps 9]") }
        try draft(
            dng: dng, longEdge: value("--long-edge", in: args).flatMap(Double.init) ?? 2048,
            reps: value("--reps", in: args).flatMap(Int.init) ?? 9)
    case "develop":
        guard let dng = value("--dng", in: args) else { fail("usage: raw-bench develop --dng FILE.dng [--reps 9]") }
        try develop(dng: dng, reps: max(1, value("--reps", in: args).flatMap(Int.init) ?? 9))
    default:
        fail("usage: raw-bench make-dng … | make-xtrans-dng … | make-kodak-dng … | draft … | develop …")
    }
} catch {
    fail("\(error)")
}
