import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreTestSupport
import DaguerreVirtualCamera
import Foundation
import Testing

@testable import DaguerreRAW

/// Development versions (X5), sidecars and the `develop` command.
@Suite struct RAWDevelopTests {
    /// The 16-bit sRGB rendering of a developed image: what the golden checksums are taken of.
    static func rendering(_ image: Image) throws -> PixelBuffer {
        try Context().createBuffer(image, format: .rgba16, colorSpace: .sRGB)
    }

    /// SHA-256 (as ``DigestBuilder`` prints it) of the 16-bit sRGB rendering of a developed image.
    static func fingerprint(_ image: Image) throws -> String { fingerprint(try rendering(image)) }

    static func fingerprint(_ buffer: PixelBuffer) -> String {
        var d = DigestBuilder("raw-fingerprint")
        buffer.withUnsafeBytes { d.add(bytes: $0) }
        return d.finish().description
    }

    /// The checksum of `image`'s rendering, after checking that rendering against its reference
    /// image (`Tests/reference/<reference>.png`, the same 16-bit RGBA samples), which shows what
    /// the golden checksum stands for; a render that differs is written out for a person to see.
    static func fingerprint(_ image: Image, reference: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let buffer = try rendering(image)
        let problem = ReferenceImages.compare(buffer, with: reference)
        #expect(problem == nil, "\(problem ?? "")", sourceLocation: sourceLocation)
        return fingerprint(buffer)
    }

    /// A fixed DNG made from formulas only (not from the virtual camera, whose physics may
    /// change): a 14-bit RGGB mosaic of smooth colour ramps and sharp bars, with two colour
    /// matrices and a tungsten-ish as-shot neutral.
    static func fixedDNG() throws -> DNGImage {
        let (w, h) = (192, 128)
        var mosaic = try BayerImage(width: w, height: h, pattern: .rggb, bitsPerSample: 14)
        mosaic.blackLevel = [512, 512, 512, 512]
        mosaic.whiteLevel = 16383
        for y in 0..<h {
            for x in 0..<w {
                let u = Double(x) / Double(w)
                let v = Double(y) / Double(h)
                let bars = (x / 6) % 2 == 0 ? 0.15 : 0.0
                let rgb = [0.1 + 0.7 * u + bars, 0.2 + 0.5 * v + bars, 0.6 - 0.4 * u * v + bars]
                mosaic.samples[y * w + x] = UInt16(512 + rgb[mosaic.pattern.color(x: x, y: y)] * 0.8 * (16383 - 512))
            }
        }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre Fixed Test Camera")
        dng.color.colorMatrix1 = [1.06, -0.35, -0.11, -0.45, 1.35, 0.12, -0.06, 0.19, 0.61]
        dng.color.calibrationIlluminant1 = .standardA
        dng.color.colorMatrix2 = [0.82, -0.26, -0.07, -0.41, 1.21, 0.23, -0.08, 0.19, 0.67]
        dng.color.calibrationIlluminant2 = .d65
        dng.color.asShotNeutral = [0.62, 1, 0.55]
        dng.color.baselineExposure = 0.25
        return dng
    }

    @Test(
        "Pipeline versions 1 (bilinear) and 2 (LMMSE-GW) are pinned: a fixed DNG develops to the same pixels (golden checksums, X5); unknown versions are refused"
    )
    func versionOneIsPinned() throws {
        var raw = try RAWFilter(dng: try Self.fixedDNG())
        raw.decoderVersion = "1"
        let print1 = try Self.fingerprint(try raw.outputImage(), reference: "raw-develop-v1")
        // Recorded when version 1 was first built; a change here means version 1's pixels moved.
        #expect(print1 == Self.golden, "version 1 now renders \(print1)")
        raw.decoderVersion = "2"
        let print2 = try Self.fingerprint(try raw.outputImage(), reference: "raw-develop-v2")
        #expect(print2 == Self.golden2, "version 2 now renders \(print2)")
        raw.decoderVersion = "0"
        #expect(throws: DaguerreError.self) { _ = try raw.outputImage() }
    }
    static let golden = "0xb2f1de95a644a95f"
    static let golden2 = "0xf07bad278ed9a492"

    /// The fixed DNG with noise from formulas too: signal-dependent noise of variance S·x + O
    /// (ISO 1600-like: S = 1/1667, O = 9/1667²) made from sums of twelve SplitMix64 uniforms,
    /// and the matching NoiseProfile.
    static func noisyFixedDNG() throws -> DNGImage {
        var dng = try fixedDNG()
        var mosaic = try #require(dng.mosaic)
        let (s, o) = (1 / 1667.0, 9 / (1667.0 * 1667.0))
        let range = Double(16383 - 512)
        var rng = SeededRandom(seed: 1600)
        for i in 0..<mosaic.samples.count {
            let x = (Double(mosaic.samples[i]) - 512) / range
            var sum = -6.0
            for _ in 0..<12 { sum += Double(rng.next() >> 11) / Double(1 << 53) }
            let noisy = x + (s * x + o).squareRoot() * sum
            mosaic.samples[i] = UInt16(max(0, min(16383, (512 + noisy * range).rounded())))
        }
        dng.rawData = .mosaic(mosaic)
        dng.color.noiseProfile = [(s, o)]
        return dng
    }

    @Test(
        "Pipeline version 3 (DCT4-2S noise reduction, then LMMSE-GW) is pinned on a noisy fixed DNG with a NoiseProfile; with noise reduction at 0, or on a noise-free file, it renders exactly as version 2; versions 1 and 2 refuse other amounts"
    )
    func versionThreeIsPinned() throws {
        var raw = try RAWFilter(dng: try Self.noisyFixedDNG())
        raw.decoderVersion = "3"
        #expect(raw.luminanceNoiseReductionAmount == 0.5)
        let print3 = try Self.fingerprint(try raw.outputImage(), reference: "raw-develop-v3-noisy")
        #expect(print3 == Self.golden3, "version 3 now renders \(print3)")
        raw.decoderVersion = "2"
        let print2 = try Self.fingerprint(try raw.outputImage())
        #expect(print2 != print3, "noise reduction changed nothing")
        raw.luminanceNoiseReductionAmount = 0.8
        #expect(throws: DaguerreError.self) { _ = try raw.outputImage() }
        raw.luminanceNoiseReductionAmount = 0
        #expect(try Self.fingerprint(try raw.outputImage()) == print2)
        raw.decoderVersion = "3"
        #expect(try Self.fingerprint(try raw.outputImage()) == print2, "amount 0 must show the raw noise exactly as version 2")
        raw.luminanceNoiseReductionAmount = 1.5
        #expect(throws: DaguerreError.self) { _ = try raw.outputImage() }
        // No NoiseProfile and no noise: the estimate is negligible, so version 3 is version 2.
        var clean = try RAWFilter(dng: try Self.fixedDNG())
        clean.decoderVersion = "3"
        #expect(try Self.fingerprint(try clean.outputImage()) == Self.golden2)
        #expect(!(try clean.noiseProfile()).hasNoise)
        clean.isDraftModeEnabled = true
        _ = try clean.outputImage()
    }
    static let golden3 = "0x7184e419d3df6ce"

    @Test(
        "Pipeline version 4 (DCT4-2S at block step 2, LMMSE-GW in the power-2.5 domain) is pinned on the noisy fixed DNG, and version 5 (which adds the X-Trans noise estimate) renders this Bayer file bit for bit as version 4; 4 is not version 3, and differs from it by less than 1 % of the level (the residual noise here is about 1 %)"
    )
    func versionFourIsPinned() throws {
        var raw = try RAWFilter(dng: try Self.noisyFixedDNG())
        #expect(raw.decoderVersion == "7")
        raw.decoderVersion = "5"
        #expect(try Self.fingerprint(try raw.outputImage()) == Self.golden4, "version 5 on a Bayer file")
        raw.decoderVersion = "4"
        let image4 = try raw.outputImage()
        let print4 = try Self.fingerprint(image4, reference: "raw-develop-v4-noisy")
        #expect(print4 == Self.golden4, "version 4 now renders \(print4)")
        raw.decoderVersion = "3"
        let image3 = try raw.outputImage()
        #expect(try Self.fingerprint(image3) != print4)
        // The same develop up to the noise the two leave (ISO 1600-like, σ ≈ 1.7 % at half scale
        // before noise reduction): mean absolute difference of linear values.
        let context = try LinearPixels.floatContext()
        let a = try LinearPixels(image4, context: context)
        let b = try LinearPixels(image3, context: context)
        let difference = a.meanAbsoluteDifference(b)
        let level = b.mean
        #expect(difference < 0.01 * level, "mean |v4 − v3| \(difference) at mean level \(level)")
        // Noise reduction off shows the raw noise in version 4 too.
        raw.decoderVersion = "4"
        raw.luminanceNoiseReductionAmount = 0
        #expect(try Self.fingerprint(try raw.outputImage()) != print4)
    }
    static let golden4 = "0x64d92ea465bc7240"

    /// The noisy fixed DNG's scene and noise through the X-Trans filter, without a NoiseProfile
    /// (as LibRaw reads a Fujifilm RAF).
    static func noisyFixedXTransDNG() throws -> DNGImage {
        var dng = try noisyFixedDNG()
        let clean = try #require(try fixedDNG().mosaic)
        var mosaic = try #require(dng.mosaic)
        mosaic.xTrans = .standard
        // Each photosite takes its X-Trans colour's value from the clean Bayer scene's 2×2 cell,
        // with the noise the Bayer one got.
        let w = mosaic.width
        for y in 0..<mosaic.height {
            for x in 0..<w {
                let c = XTransPattern.standard.color(x: x, y: y)
                let cell = (0..<4).first { clean.pattern.color(x: (x & ~1) + $0 % 2, y: (y & ~1) + $0 / 2) == c } ?? 0
                let source = Int(clean.samples[((y & ~1) + cell / 2) * w + (x & ~1) + cell % 2])
                let noise = Int(mosaic.samples[y * w + x]) - Int(clean.samples[y * w + x])
                mosaic.samples[y * w + x] = UInt16(max(0, min(16383, source + noise)))
            }
        }
        dng.rawData = .mosaic(mosaic)
        dng.color.noiseProfile = []
        return dng
    }

    @Test(
        "Pipeline version 5 is pinned on a noisy fixed X-Trans DNG without a NoiseProfile (its noise estimated and reduced), and versions 6 and 7 (the default) render it bit for bit the same; version 4 renders it without noise reduction, as version 5 does at amount 0"
    )
    func versionFiveIsPinned() throws {
        var raw = try RAWFilter(dng: try Self.noisyFixedXTransDNG())
        #expect(raw.decoderVersion == "7")
        #expect(try Self.fingerprint(try raw.outputImage()) == Self.golden5XTrans, "version 7 on an X-Trans file")
        raw.decoderVersion = "6"
        #expect(try Self.fingerprint(try raw.outputImage()) == Self.golden5XTrans, "version 6 on an X-Trans file")
        raw.decoderVersion = "5"
        let print5 = try Self.fingerprint(try raw.outputImage(), reference: "raw-develop-v5-xtrans-noisy")
        #expect(print5 == Self.golden5XTrans, "version 5 now renders \(print5)")
        raw.decoderVersion = "4"
        let print4 = try Self.fingerprint(try raw.outputImage())
        #expect(print4 != print5, "version 4 estimated the X-Trans noise")
        raw.decoderVersion = "5"
        raw.luminanceNoiseReductionAmount = 0
        #expect(try Self.fingerprint(try raw.outputImage()) == print4)
    }
    static let golden5XTrans = "0xf076214e2e604275"

    /// A DNG without a NoiseProfile whose photosites hold fine texture as well as noise: 16
    /// bands of flat grey from 1.5 % to 77 % of white, each with white texture of 4 % of its level
    /// (the same in every colour, as film grain is), seen by a sensor with 6 000 e⁻ at white; and
    /// that sensor's noise.
    static func texturedDNG() throws -> (DNGImage, NoiseModel) {
        let (w, h) = (512, 384)
        let grain = NoiseScenes.grain(width: w, height: h, seed: 6)
        let (mosaic, truth) = try NoiseScenes.mosaic(width: w, height: h, electrons: 6000, seed: 60) { x, y, _ in
            0.015 * pow(1.3, Double(x / 32)) * (1 + 0.04 * grain[y * w + x])
        }
        var dng = try fixedDNG()
        dng.rawData = .mosaic(mosaic)
        return (dng, truth)
    }

    @Test(
        "Pipeline version 6 is pinned on a DNG without a NoiseProfile whose flattest blocks hold texture as well as noise: its estimate leaves the texture out (within 20 % of the true σ at 18 % grey, where version 5's counts it), so it develops differently from version 5, which is pinned there too; a Bayer file with a NoiseProfile develops as in version 5"
    )
    func versionSixIsPinned() throws {
        let (dng, truth) = try Self.texturedDNG()
        var raw = try RAWFilter(dng: dng)
        raw.decoderVersion = "6"
        let six = try raw.noiseProfile(try PipelineVersion.named("6"))
        let five = try raw.noiseProfile(try PipelineVersion.named("5"))
        // 6 000 e⁻ at white: σ at 18 % grey is about 0.0055, the texture's 0.0072 more.
        let t = truth.sigma(at: 0.18)
        #expect(six.planes.allSatisfy { abs($0.sigma(at: 0.18) / t - 1) < 0.2 }, "v6 \(six.planes.map { $0.sigma(at: 0.18) }), truth \(t)")
        #expect(five.planes.allSatisfy { $0.sigma(at: 0.18) > 1.2 * t }, "v5 \(five.planes.map { $0.sigma(at: 0.18) }), truth \(t)")
        let crop = Rect(x: 192, y: 128, width: 128, height: 128)
        let print6 = try Self.fingerprint(try raw.outputImage().cropped(to: crop), reference: "raw-develop-v6-textured")
        #expect(print6 == Self.golden6Textured, "version 6 now renders \(print6)")
        raw.decoderVersion = "5"
        let print5 = try Self.fingerprint(try raw.outputImage().cropped(to: crop), reference: "raw-develop-v5-textured")
        #expect(print5 == Self.golden5Textured, "version 5 now renders \(print5)")
        #expect(print5 != print6)
        var profiled = try RAWFilter(dng: try Self.noisyFixedDNG())
        profiled.decoderVersion = "6"
        #expect(try Self.fingerprint(try profiled.outputImage()) == Self.golden4, "version 6 on a Bayer file with a NoiseProfile")
        profiled.decoderVersion = "5"
        #expect(try Self.fingerprint(try profiled.outputImage()) == Self.golden4)
    }
    static let golden5Textured = "0xdd7408f4b3ebdd32"
    static let golden6Textured = "0xbf7a6480e3b84719"

    @Test(
        "Pipeline version 7 (the default) is pinned on the noisy fixed DNG and on the textured DNG without a NoiseProfile: its Bayer noise reduction takes the Wiener stage's pilot from the four planes together, so it renders differently from version 6, and nearer the noise-free develop on the noisy fixed DNG; its noise estimate is version 6's"
    )
    func versionSevenIsPinned() throws {
        var raw = try RAWFilter(dng: try Self.noisyFixedDNG())
        #expect(raw.decoderVersion == "7" && RAWFilter.supportedDecoderVersions.last == "7")
        let image7 = try raw.outputImage()
        let print7 = try Self.fingerprint(image7, reference: "raw-develop-v7-noisy")
        #expect(print7 == Self.golden7, "version 7 now renders \(print7)")
        #expect(print7 != Self.golden4)
        raw.decoderVersion = "6"
        let image6 = try raw.outputImage()
        #expect(try Self.fingerprint(image6) == Self.golden4)
        // Against the develop of the same DNG without its noise (versions 7 and 6 agree there:
        // no noise, no noise reduction), in linear values.
        let clean = try RAWFilter(dng: try Self.fixedDNG()).outputImage()
        let context = try LinearPixels.floatContext()
        let truth = try LinearPixels(clean, context: context)
        let error7 = try LinearPixels(image7, context: context).meanAbsoluteDifference(truth)
        let error6 = try LinearPixels(image6, context: context).meanAbsoluteDifference(truth)
        #expect(error7 < error6, "mean |v7 − clean| \(error7), mean |v6 − clean| \(error6)")
        let (dng, _) = try Self.texturedDNG()
        var textured = try RAWFilter(dng: dng)
        #expect(try textured.noiseProfile() == (try textured.noiseProfile(try PipelineVersion.named("6"))))
        let crop = Rect(x: 192, y: 128, width: 128, height: 128)
        let textured7 = try Self.fingerprint(try textured.outputImage().cropped(to: crop), reference: "raw-develop-v7-textured")
        #expect(textured7 == Self.golden7Textured, "version 7 now renders \(textured7)")
        #expect(textured7 != Self.golden6Textured)
        textured.decoderVersion = "6"
        #expect(try Self.fingerprint(try textured.outputImage().cropped(to: crop)) == Self.golden6Textured)
    }
    static let golden7 = "0x6302a0a5e2d0ac60"
    static let golden7Textured = "0xbd88ed77dcbbcd59"

    @Test(
        "Versions 3, 4 and 7 render any region exactly as the same region of the whole image (noise reduction windows, chunks and column ranges)",
        arguments: ["3", "4", "7"])
    func regionsMatchWholeImage(version: String) throws {
        let (w, h) = (240, 600)
        var mosaic = try BayerImage(width: w, height: h, pattern: .grbg, bitsPerSample: 14)
        mosaic.blackLevel = [512, 520, 516, 512]
        mosaic.whiteLevel = 16383
        var rng = SeededRandom(seed: 9)
        for y in 0..<h {
            for x in 0..<w {
                let v = 0.05 + 0.5 * Double((x / 20 + y / 30) % 4) / 4 + 0.2 * Double(y) / Double(h)
                let noise = (Double(rng.next() >> 11) / Double(1 << 53) - 0.5) * 0.06 * v.squareRoot()
                mosaic.samples[y * w + x] = UInt16(max(0, min(16383, 512 + (v + noise) * 15871)))
            }
        }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre Fixed Test Camera")
        dng.color.asShotNeutral = [0.6, 1, 0.7]
        dng.color.noiseProfile = [(0.03 * 0.03 / 12, 1e-7)]
        dng.defaultCrop = DNGCrop(x: 6, y: 10, width: 226, height: 570)
        var raw = try RAWFilter(dng: dng)
        raw.decoderVersion = version
        let image = try raw.outputImage()
        let context = try LinearPixels.floatContext()
        let whole = try LinearPixels(image, context: context)
        for rect in [
            Rect(x: 37, y: 301, width: 100, height: 150), Rect(x: 0, y: 0, width: 226, height: 40),
            Rect(x: 150, y: 500, width: 76, height: 70),
        ] {
            let differ = whole.differences(try LinearPixels(image, context: context, bounds: rect), atX: Int(rect.minX), y: Int(rect.minY))
            #expect(differ == 0, "\(rect): \(differ) values differ from the whole render")
        }
    }

    @Test("Sidecar adjustments round-trip and apply; the command line overrides them")
    func sidecars() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("chart.dng")
        try DNGWriter.write(try RAWColorTests.chartDNG(.d65, width: 128, height: 96), to: path)
        let saved = try RAWAdjustments([
            "decoderVersion": "3", "exposure": 0.7, "temperature": 5200, "tint": 4, "noiseReductionSharpness": 0.1,
            "noiseReductionContrast": 0.2, "noiseReductionDetail": 0.3, "contrast": 0.3, "sharpness": 0.5,
        ])
        try saved.writeSidecar(for: path)
        #expect(try RAWAdjustments.sidecar(for: path) == saved)
        var raw = try RAWFilter(url: URL(fileURLWithPath: path))
        try RAWAdjustments.sidecar(for: path)?.apply(to: &raw)
        // The edit keeps the pipeline version it was made with (X5).
        #expect(raw.decoderVersion == "3")
        #expect(raw.exposure == 0.7 && raw.neutralTemperature == 5200 && raw.neutralTint == 4)
        #expect(raw.contrastAmount == 0.3 && raw.sharpnessAmount == 0.5 && raw.boostAmount == 0)
        #expect(
            raw.noiseReductionSharpnessAmount == 0.1 && raw.noiseReductionContrastAmount == 0.2 && raw.noiseReductionDetailAmount == 0.3)
        try RAWAdjustments(["exposure": -1]).apply(to: &raw)
        #expect(raw.exposure == -1 && raw.neutralTemperature == 5200 && raw.decoderVersion == "3")
        // A sidecar written before the field existed still reads (the default version then).
        try Data(#"{"exposure": 0.25}"#.utf8).write(to: URL(fileURLWithPath: RAWAdjustments.sidecarPath(for: path)))
        #expect(try RAWAdjustments.sidecar(for: path) == RAWAdjustments(["exposure": 0.25]))
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: RAWAdjustments.sidecarPath(for: path)))
        #expect(throws: DaguerreError.self) { _ = try RAWAdjustments.sidecar(for: path) }
    }
}

/// The seed's spelling (505): options read and set by Core Image's key names.
@Suite struct RAWFilterKeyTests {
    @Test(
        "Every RAW option is declared once and reachable everywhere: a unique key, sidecar field and flag; set by key, by sidecar and by flag to the same property; out-of-range values refused when rendering"
    )
    func optionTable() throws {
        let options = RAWFilter.options
        #expect(
            Set(options.map(\.key)).count == options.count && Set(options.map(\.sidecarName)).count == options.count
                && Set(options.map(\.flag)).count == options.count)
        #expect(RAWFilter.option(named: "inputVibranceAmount")?.sidecarName == "vibrance")
        #expect(RAWFilter.option(named: "saturation")?.key == "inputSaturationAmount")
        let dng = try RAWDevelopTests.fixedDNG()
        for option in options {
            guard case .number = option.value else { continue }
            var byKey = try RAWFilter(dng: dng)
            var bySidecar = byKey
            var byFlag = byKey
            let v = option.key == "inputScaleFactor" ? 0.5 : 0.25
            try byKey.setValue(v, forKey: option.key)
            #expect(try byKey.value(forKey: option.key) == v, "\(option.key)")
            try RAWAdjustments([option.sidecarName: .number(v)]).apply(to: &bySidecar)
            try RAWAdjustments([option.flag: .text("\(v)")]).apply(to: &byFlag)
            #expect(option.number(in: bySidecar) == v && option.number(in: byFlag) == v, "\(option.sidecarName), --\(option.flag)")
            #expect(throws: DaguerreError.self, "\(option.key) nan") { try byKey.setValue(Double.nan, forKey: option.key) }
        }
        var raw = try RAWFilter(dng: dng)
        try raw.setValue(0.3, forKey: "inputVibranceAmount")
        try raw.setValue(-0.2, forKey: "inputSaturationAmount")
        #expect(raw.vibranceAmount == 0.3 && raw.saturationAmount == -0.2)
        try raw.setValue(2, forKey: "inputLuminanceNoiseReductionAmount")
        #expect(throws: DaguerreError.self, "noise reduction above 1") { _ = try raw.outputImage() }
        try raw.setValue(0, forKey: "inputScaleFactor")
        #expect(throws: DaguerreError.self, "scale 0") { _ = try raw.outputImage() }
        try raw.setValue("3", forKey: "inputDecoderVersion")
        #expect(try raw.decoderVersion == "3" && raw.string(forKey: "inputDecoderVersion") == "3")
        #expect(throws: DaguerreError.self, "a version by number") { try raw.setValue(3, forKey: "inputDecoderVersion") }
        #expect(throws: DaguerreError.self, "an unknown sidecar field") { _ = try RAWAdjustments(["exposur": 1]) }
    }

    @Test("value(forKey:) and setValue(_:forKey:) reach the typed options; unknown keys and non-finite values are refused")
    func keys() throws {
        var raw = try RAWFilter(dng: try RAWDevelopTests.fixedDNG())
        #expect(try raw.value(forKey: "inputLuminanceNoiseReductionAmount") == 0.5)
        try raw.setValue(0.5, forKey: "inputEV")
        #expect(raw.exposure == 0.5)
        try raw.setValue(5000, forKey: "inputNeutralTemperature")
        #expect(try raw.value(forKey: "inputNeutralTemperature") == 5000)
        let x = try raw.value(forKey: "inputNeutralChromaticityX")
        try raw.setValue(x, forKey: "inputNeutralChromaticityX")
        #expect(abs(raw.neutralTemperature - 5000) < 25, "\(raw.neutralTemperature)")
        #expect(throws: DaguerreError.self) { try raw.setValue(1, forKey: "inputBogus") }
        #expect(throws: DaguerreError.self) { try raw.setValue(.nan, forKey: "inputEV") }
        _ = try raw.outputImage()
    }
}
