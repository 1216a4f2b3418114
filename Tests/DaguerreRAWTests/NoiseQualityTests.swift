import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreRAW

/// Noise reduction quality by the N protocol of the project's noise research ("Noise"
/// must-hold; SPEC X3), measured by Tests/judges/noise_judge.py: it makes the DNGs (Kodak crops
/// through a Poisson–Gaussian sensor at ISO 1600 ≈ 300 e⁻ and ISO 3200 ≈ 150 e⁻ at 18 % grey,
/// 3 e⁻ read noise, noisy and noise-free), RAWFilter develops them here with its defaults
/// (pipeline version 3: DCT4-2S then LMMSE-GW), and the judge scores our renders and LibRaw's
/// (rawpy) side by side: PSNR of each noisy render against the same developer's noise-free
/// render and against the scene, and slanted-edge MTF50 with noise reduction on and off.
///
/// The CI run is a subset: the crop rows 0–500 × columns 0–1000 of the 2000×1500 frame (kodim01
/// and kodim02, harder than the whole frame: the research measured 38.59 / 35.86 dB vs clean
/// there against 39.26 / 36.57 on the frame) and the 4:1 edge with 8 noise seeds per ISO.
/// `DAGUERRE_NOISE_PROTOCOL=full` runs the whole protocol (the frame; the 4:1 edge with 16 seeds
/// and the low-contrast edge with 64; LibRaw's 72-setting grid per ISO) and prints the figures
/// (Benchmarks/NOISE_RESULTS.md records them). `DAGUERRE_NOISE_PROTOCOL=controls` runs the CI
/// subset with Core Image's fine controls set one by one instead (figures in the same file).
@Suite(.timeLimit(.minutes(60))) struct NoiseQualityTests {
    static var full: Bool { ProcessInfo.processInfo.environment["DAGUERRE_NOISE_PROTOCOL"] == "full" }
    static var controls: Bool { ProcessInfo.processInfo.environment["DAGUERRE_NOISE_PROTOCOL"] == "controls" }

    /// Develops `dng` with RAWFilter (defaults, or `amount`, then `configure`) and writes linear
    /// sRGB floats: int32 width, int32 height, then RGB rows.
    static func develop(
        _ dng: DNGImage, amount: Double? = nil, configure: (inout RAWFilter) -> Void = { _ in },
        to path: String, context: Context
    ) throws {
        var raw = try RAWFilter(dng: dng)
        if let amount { raw.luminanceNoiseReductionAmount = amount }
        configure(&raw)
        let buffer = try context.createBuffer(try raw.outputImage(), format: .rgbf, colorSpace: .extendedLinearSRGB)
        var data = Data()
        for v in [Int32(buffer.width), Int32(buffer.height)] { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        buffer.withUnsafeBytes { raw in
            for y in 0..<buffer.height {
                data.append(contentsOf: raw[(y * buffer.bytesPerRow)..<(y * buffer.bytesPerRow + buffer.width * 12)])
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test(
        "N protocol: RAWFilter's noisy renders ≥ 37.8 dB (ISO 1600) and ≥ 35.2 dB (ISO 3200) against its noise-free renders, above LibRaw's best against the scene, measured side by side; MTF50 of the 4:1 edge kept with noise reduction on"
    )
    func nProtocol() async throws {
        // Off the concurrency pool: this develops the protocol's DNGs and waits for the judge,
        // minutes on 2 cores (onOwnThread).
        let scored = try await onOwnThread { try Self.measureNProtocol() }
        let result = try #require(try JSONSerialization.jsonObject(with: scored) as? [String: Any])
        let psnr = try #require(result["psnr"] as? [String: [String: Double]])
        func figure(_ key: String, _ column: String) throws -> Double { try #require(psnr[key]?[column], "no \(key) \(column)") }
        for (iso, goalClean, issueTruth) in [(1600, 37.8, 33.46), (3200, 35.2, 32.08)] {
            let clean = try figure("ours \(iso)", "vs_clean")
            let truth = try figure("ours \(iso)", "vs_truth")
            let off = try figure("ours \(iso) off", "vs_clean")
            #expect(clean >= goalClean, "ISO \(iso): \(clean) dB vs clean")
            #expect(clean > off + 1, "ISO \(iso): noise reduction gains \(clean - off) dB")
            let libraw = psnr.filter { $0.key.hasPrefix("libraw \(iso) ") }.compactMap { $0.value["vs_truth"] }.max() ?? .infinity
            #expect(truth > libraw, "ISO \(iso): \(truth) dB vs truth, LibRaw's best here \(libraw)")
            if Self.full { #expect(truth > issueTruth, "ISO \(iso): \(truth) dB vs truth, the issue's LibRaw figure \(issueTruth)") }
            // From the estimate instead of the file's profile: still well above no noise reduction.
            #expect(try figure("ours \(iso) estimated", "vs_clean") > off + 0.5)
        }
        let mtf = try #require(result["mtf50"] as? [String: [String: Double]])
        let noiseFree = try #require(mtf["4:1 0 ours, NR"]?["mtf50"])
        for iso in [1600, 3200] {
            let on = try #require(mtf["4:1 \(iso) ours, NR"]?["mtf50"])
            let off = try #require(mtf["4:1 \(iso) ours, no NR"]?["mtf50"])
            #expect(
                on >= 0.95 * noiseFree && on >= off - 0.01,
                "4:1 edge, ISO \(iso): MTF50 \(on) with NR, \(off) without, \(noiseFree) noise-free")
        }
    }

    /// Makes the protocol's DNGs, develops them, and returns the judge's scores (JSON).
    static func measureNProtocol() throws -> Data {
        let dir = try TemporaryDirectory("noise-protocol")
        let make =
            Self.full
            ? ["make", dir.path("data"), "--edges", "4:1,low", "--seeds", "16", "--low-seeds", "64"]
            : ["make", dir.path("data"), "--crop", "0", "500", "0", "1000", "--edges", "4:1", "--seeds", "8"]
        var spec = try Judge.python("noise_judge.py", make)
        let context = try Context(options: .init(workingFormat: .rgbaf))
        let scene = try Judge.need(spec["scene"] as? [String: String], "the judge's scene list")
        var ours: [String: String] = [:]
        for (name, path) in scene.sorted(by: { $0.key < $1.key }) {
            let dng = try DNGReader.read(path: path)
            let out = dir.path("\(name).f32")
            try Self.develop(dng, to: out, context: context)
            ours[name] = out
            guard name.hasSuffix("noisy") else { continue }
            // The same file without its NoiseProfile: noise reduction from the estimate.
            var unprofiled = dng
            unprofiled.color.noiseProfile = []
            try Self.develop(unprofiled, to: dir.path("\(name)_estimated.f32"), context: context)
            ours["\(name)_estimated"] = dir.path("\(name)_estimated.f32")
            try Self.develop(dng, amount: 0, to: dir.path("\(name)_off.f32"), context: context)
            ours["\(name)_off"] = dir.path("\(name)_off.f32")
            _ = try Judge.need(dng.mosaic, "a Bayer mosaic in \(path)")
            let estimate = try RAWFilter(dng: unprofiled).noiseProfile()
            let given = try Judge.need(CFANoiseProfile(dng: dng.color.noiseProfile, cfaPattern: [0, 1, 1, 2]), "a NoiseProfile in \(path)")
            print(
                "\(name): estimated σ at 18 % grey / profile's: \(estimate.planes.map { ($0.sigma(at: 0.18) / given.planes[0].sigma(at: 0.18) * 1000).rounded() / 1000 })"
            )
        }
        var charts: [String: [String: String]] = [:]
        for chart in try Judge.need(spec["charts"] as? [[String: Any]], "the judge's charts") {
            let path = try Judge.need(chart["dng"] as? String, "a chart DNG")
            let dng = try DNGReader.read(path: path)
            let stem = (path as NSString).lastPathComponent
            try Self.develop(dng, to: dir.path("\(stem).on.f32"), context: context)
            try Self.develop(dng, amount: 0, to: dir.path("\(stem).off.f32"), context: context)
            charts[path] = ["ours, NR": dir.path("\(stem).on.f32"), "ours, no NR": dir.path("\(stem).off.f32")]
        }
        spec["ours"] = ours
        spec["ours_charts"] = charts
        spec["libraw"] = Self.full ? "full" : "issue"
        let specPath = dir.path("spec.json")
        try JSONSerialization.data(withJSONObject: spec, options: [.sortedKeys]).write(to: URL(fileURLWithPath: specPath))
        let result = try Judge.python("noise_judge.py", ["score", specPath])
        let printed = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys])
        print("N protocol (\(Self.full ? "full" : "CI subset")):\n" + String(decoding: printed, as: UTF8.self))
        return printed
    }

    @Test(
        "By noise level (4 800 to 150 e⁻ at 18 % grey; the CI subset's crop, or the frame with DAGUERRE_NOISE_PROTOCOL=full): driven by the file's NoiseProfile, the default develop never scores more than 0.02 dB below noise reduction off against the noise-free render, and gains more the noisier the file; from an estimate it gains at the noisiest level (the table printed shows where it loses)"
    )
    func byNoiseLevel() async throws {
        let scored = try await onOwnThread { try Self.measureLevels() }
        var rows = ["| e⁻ at 18 % grey | NR off | default, file's NoiseProfile | default, estimated |", "| ---: | ---: | ---: | ---: |"]
        var gains: [Double] = []
        for level in scored.keys.sorted(by: { Int($0) ?? 0 > Int($1) ?? 0 }) {
            let row = try #require(scored[level])
            let (off, stated, unstated) = (try #require(row["off"]), try #require(row["stated"]), try #require(row["unstated"]))
            rows.append(
                String(format: "| %@ | %.2f | %.2f (%+.2f) | %.2f (%+.2f) |", level, off, stated, stated - off, unstated, unstated - off))
            #expect(stated >= off - 0.02, "\(level) e⁻, NoiseProfile stated: \(stated) dB against \(off) without noise reduction")
            gains.append(stated - off)
        }
        print("N protocol by noise level (PSNR vs the noise-free render, dB):\n" + rows.joined(separator: "\n"))
        #expect(gains.count == 6 && zip(gains, gains.dropFirst()).allSatisfy { $0 < $1 }, "gains by level, least noisy first: \(gains)")
        let noisiest = try #require(scored["150"])
        #expect(try #require(noisiest["unstated"]) > (try #require(noisiest["off"])) + 1.5)
    }

    /// Makes the frame (the CI subset's crop unless the whole protocol runs) at each of the
    /// judge's noise levels, develops it (noise-free at amount 0;
    /// noisy at defaults with and without its NoiseProfile, and at amount 0) and returns the
    /// judge's PSNR of each noisy render against the noise-free one, by level.
    static func measureLevels() throws -> [String: [String: Double]] {
        let dir = try TemporaryDirectory("noise-levels")
        let crop = Self.full ? [] : ["--crop", "0", "500", "0", "1000"]
        let grainFree = ProcessInfo.processInfo.environment["DAGUERRE_NOISE_SCENE"] == "grain-free" ? ["--grain-free"] : []
        let made = try Judge.python("noise_judge.py", ["levels", dir.path("data")] + crop + grainFree)
        let levels = try Judge.need(made["levels"] as? [String: [String: String]], "the judge's levels")
        let context = try Context(options: .init(workingFormat: .rgbaf))
        var renders: [String: [String: String]] = [:]
        for (level, files) in levels {
            var paths: [String: String] = [:]
            for (name, key, amount) in [
                ("clean", "clean", 0.0), ("stated", "stated", 0.5), ("unstated", "unstated", 0.5), ("off", "stated", 0),
            ] {
                let out = dir.path("\(level)_\(name).f32")
                try Self.develop(
                    try DNGReader.read(path: try Judge.need(files[key], "\(level) \(key)")), amount: amount, to: out, context: context)
                paths[name] = out
            }
            renders[level] = paths
        }
        let specPath = dir.path("levels.json")
        try JSONSerialization.data(withJSONObject: ["renders": renders], options: [.sortedKeys]).write(to: URL(fileURLWithPath: specPath))
        let scored = try Judge.python("noise_judge.py", ["score-levels", specPath])
        return try Judge.need(scored as? [String: [String: Double]], "the judge's scores")
    }

    /// The fine controls on the CI subset (opt-in: about 10 minutes on 2 cores).
    static var controlSettings: [(name: String, control: WritableKeyPath<RAWFilter, Double>, value: Double)] {
        [
            ("detail 0.5", \.noiseReductionDetailAmount, 0.5), ("detail 1", \.noiseReductionDetailAmount, 1),
            ("contrast 0.5", \.noiseReductionContrastAmount, 0.5), ("contrast 1", \.noiseReductionContrastAmount, 1),
            ("sharpness 0.5", \.noiseReductionSharpnessAmount, 0.5), ("sharpness 1", \.noiseReductionSharpnessAmount, 1),
        ]
    }

    @Test(
        "N protocol with the fine controls (opt-in): detail and contrast cost under 1.5 dB at 1; sharpness raises both edges' MTF50 (PSNR falls by design: sharpening departs from the scene)",
        .enabled(if: NoiseQualityTests.controls))
    func nProtocolControls() throws {
        let dir = try TemporaryDirectory("noise-controls")
        var spec = try Judge.python(
            "noise_judge.py",
            [
                "make", dir.path("data"), "--crop", "0", "500", "0", "1000", "--edges", "4:1,low",
                "--seeds", "8", "--low-seeds", "16",
            ])
        let context = try Context(options: .init(workingFormat: .rgbaf))
        var ours: [String: String] = [:]
        for (name, path) in try #require(spec["scene"] as? [String: String]) {
            let dng = try DNGReader.read(path: path)
            try Self.develop(dng, to: dir.path("\(name).f32"), context: context)
            ours[name] = dir.path("\(name).f32")
            guard name.hasSuffix("noisy") else { continue }
            for (setting, control, value) in Self.controlSettings {
                let out = dir.path("\(name)_\(setting.replacingOccurrences(of: " ", with: "_")).f32")
                try Self.develop(dng, configure: { $0[keyPath: control] = value }, to: out, context: context)
                ours["\(name)_\(setting)"] = out
            }
        }
        var charts: [String: [String: String]] = [:]
        for chart in try #require(spec["charts"] as? [[String: Any]]) {
            let path = try #require(chart["dng"] as? String)
            let dng = try DNGReader.read(path: path)
            let stem = (path as NSString).lastPathComponent
            var renders: [String: String] = [:]
            for (setting, control, value) in [("NR", \RAWFilter.noiseReductionDetailAmount, 0)] + Self.controlSettings {
                let out = dir.path("\(stem).\(setting.replacingOccurrences(of: " ", with: "_")).f32")
                try Self.develop(dng, configure: { $0[keyPath: control] = value }, to: out, context: context)
                renders["ours, \(setting)"] = out
            }
            charts[path] = renders
        }
        spec["ours"] = ours
        spec["ours_charts"] = charts
        spec["libraw"] = "issue"
        let specPath = dir.path("spec.json")
        try JSONSerialization.data(withJSONObject: spec, options: [.sortedKeys]).write(to: URL(fileURLWithPath: specPath))
        let result = try Judge.python("noise_judge.py", ["score", specPath])
        let psnr = try #require(result["psnr"] as? [String: [String: Double]])
        let mtf = try #require(result["mtf50"] as? [String: [String: Double]])
        for key in psnr.keys.sorted() where key.hasPrefix("ours") { print("PSNR \(key): \(psnr[key] ?? [:])") }
        for key in mtf.keys.sorted() where key.contains("ours") { print("MTF50 \(key): \(mtf[key] ?? [:])") }
        for iso in [1600, 3200] {
            let plain = try #require(psnr["ours \(iso)"]?["vs_truth"])
            for setting in ["detail 1", "contrast 1"] {
                let value = try #require(psnr["ours \(iso) \(setting)"]?["vs_truth"])
                #expect(value > plain - 1.5, "ISO \(iso), \(setting): \(value) dB vs truth, defaults \(plain)")
            }
            for edge in ["4:1", "low"] {
                let base = try #require(mtf["\(edge) \(iso) ours, NR"]?["mtf50"])
                let half = try #require(mtf["\(edge) \(iso) ours, sharpness 0.5"]?["mtf50"])
                let full = try #require(mtf["\(edge) \(iso) ours, sharpness 1"]?["mtf50"])
                #expect(base < half && half < full, "\(edge) edge, ISO \(iso): MTF50 \(base) → \(half) → \(full)")
            }
        }
    }
}
