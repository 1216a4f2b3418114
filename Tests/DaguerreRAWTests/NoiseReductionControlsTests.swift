import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreRAW

/// Core Image's fine noise-reduction controls in RAWFilter (SPEC X1, X3): detail and
/// contrast as the noise DCT4-2S assumes per DCT coefficient, sharpness as
/// NoiseReductionSharpening after the demosaic. Each is measured on what it is for, on noisy
/// synthetic mosaics with the research's ISO 1600-like sensor (1667 e⁻ at white, 3 e⁻ read noise).
@Suite struct NoiseReductionControlsTests {
    static let electrons = 1667.0, grey = 0.18

    /// Two faint patterns on 18 % grey, the same in every colour, each near the noise level:
    /// a fine one (period 16/3 photosites both ways, 3/8 cycles per plane sample: the 4×4 DCT's
    /// u = v = 3, which detail controls) and a coarse one (period 16 photosites across, 1/8
    /// cycles per plane sample: u = 1, v = 0, which contrast controls).
    static func fine(_ x: Int, _ y: Int) -> Double { cos(2 * Double.pi * 3 / 16 * Double(x)) * cos(2 * Double.pi * 3 / 16 * Double(y)) }
    static func coarse(_ x: Int, _ y: Int) -> Double { cos(2 * Double.pi / 16 * Double(x)) }

    /// The patterned mosaic (256×256) with amplitudes in units of the noise σ at 18 % grey.
    static func patterned(fineAmplitude: Double = 1.2, coarseAmplitude: Double = 0.8) throws -> (BayerImage, NoiseModel, Double, Double) {
        let sigma = NoiseModel(scale: 1 / electrons, offset: 9 / (electrons * electrons)).sigma(at: grey)
        let (af, ac) = (fineAmplitude * sigma, coarseAmplitude * sigma)
        let (mosaic, model) = try NoiseScenes.mosaic(width: 256, height: 256, electrons: electrons, seed: 5) { x, y, _ in
            grey + af * fine(x, y) + ac * coarse(x, y)
        }
        return (mosaic, model, af, ac)
    }

    /// The mosaic denoised by DCT4-2S (amount 1) with `controls`, linearized.
    static func denoised(_ mosaic: BayerImage, _ model: NoiseModel, _ controls: NoiseReductionControls) throws -> [Float] {
        var x = NoiseScenes.linear(mosaic)
        let nr = try MosaicNoiseReduction(maxWidth: mosaic.width, maxHeight: mosaic.height, workers: 2)
        x.withUnsafeMutableBufferPointer { b in
            nr.denoise(
                MosaicWindow(x: 0, y: 0, width: mosaic.width, height: mosaic.height, stride: mosaic.width, samples: b.baseAddress!),
                profile: CFANoiseProfile(uniform: model), amount: 1, noiseScales: controls.coefficientNoiseScales)
        }
        return x
    }

    /// The share of `pattern` (amplitude `amplitude` in the scene) that `x` holds: the
    /// least-squares projection of x − 18 % onto the pattern (1: all of it, 0: none).
    static func kept(_ x: [Float], width: Int, _ pattern: (Int, Int) -> Double, amplitude: Double) -> Double {
        var dot = 0.0
        var norm = 0.0
        for (i, v) in x.enumerated() {
            let p = pattern(i % width, i / width)
            dot += (Double(v) - grey) * p
            norm += p * p
        }
        return dot / norm / amplitude
    }

    /// The standard deviation of what noise reduction removed (noisy − denoised).
    static func removed(_ x: [Float], from noisy: [Float]) -> Double {
        let d = zip(noisy, x).map { Double($0) - Double($1) }
        let mean = d.reduce(0, +) / Double(d.count)
        return (d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(d.count)).squareRoot()
    }

    @Test(
        "The defaults are DCT4-2S as specified: every coefficient's noise scale is exactly 1 (x·1 = x, so the denoiser and version 3's golden develop in RAWDevelopTests are bit-identical to before the controls)"
    )
    func defaultsAreBitIdentical() throws {
        let controls = try NoiseReductionControls(sharpness: 0, contrast: 0, detail: 0)
        #expect(controls.isNeutral && controls == NoiseReductionControls())
        #expect(controls.coefficientNoiseScales == SIMD16<Float>(repeating: 1) && controls.sourceKey.isEmpty)
    }

    /// Denoises the patterned scene with the controls at 0, 0.5 and 1: the share of the fine and
    /// of the coarse pattern kept, and the σ removed, at each.
    static func sweep(_ controls: (Double) throws -> NoiseReductionControls) throws -> (fine: [Double], coarse: [Double], removed: [Double])
    {
        let (mosaic, model, af, ac) = try patterned()
        let noisy = NoiseScenes.linear(mosaic)
        var fineKept: [Double] = []
        var coarseKept: [Double] = []
        var removed: [Double] = []
        for amount in [0.0, 0.5, 1] {
            let x = try denoised(mosaic, model, try controls(amount))
            fineKept.append(kept(x, width: 256, fine, amplitude: af))
            coarseKept.append(kept(x, width: 256, coarse, amplitude: ac))
            removed.append(Self.removed(x, from: noisy))
        }
        return (fineKept, coarseKept, removed)
    }

    @Test(
        "Detail keeps fine texture: a fine pattern at 1.2 σ keeps more of its amplitude at detail 0.5 and more again at 1, and less is removed; the coarse pattern moves less"
    )
    func detail() throws {
        let (fineKept, coarseKept, removed) = try Self.sweep { try NoiseReductionControls(sharpness: 0, contrast: 0, detail: $0) }
        print("detail 0 / 0.5 / 1: fine pattern kept \(fineKept), coarse kept \(coarseKept), σ removed \(removed)")
        #expect(fineKept[0] < fineKept[1] && fineKept[1] < fineKept[2], "fine pattern kept: \(fineKept)")
        #expect(fineKept[2] - fineKept[0] > 0.15, "detail 1 keeps \(fineKept[2] - fineKept[0]) more of the fine pattern")
        #expect(removed[0] > removed[1] && removed[1] > removed[2], "σ removed: \(removed)")
        #expect(abs(coarseKept[2] - coarseKept[0]) < (fineKept[2] - fineKept[0]) / 2, "coarse pattern: \(coarseKept)")
    }

    @Test(
        "Contrast keeps faint coarse shading: a coarse pattern at 0.8 σ keeps more of its amplitude at contrast 0.5 and more again at 1, and less is removed; the fine pattern moves less"
    )
    func contrast() throws {
        let (fineKept, coarseKept, removed) = try Self.sweep { try NoiseReductionControls(sharpness: 0, contrast: $0, detail: 0) }
        print("contrast 0 / 0.5 / 1: coarse pattern kept \(coarseKept), fine kept \(fineKept), σ removed \(removed)")
        #expect(coarseKept[0] < coarseKept[1] && coarseKept[1] < coarseKept[2], "coarse pattern kept: \(coarseKept)")
        #expect(coarseKept[2] - coarseKept[0] > 0.15, "contrast 1 keeps \(coarseKept[2] - coarseKept[0]) more of the coarse pattern")
        #expect(removed[0] > removed[1] && removed[1] > removed[2], "σ removed: \(removed)")
        #expect(abs(fineKept[2] - fineKept[0]) < (coarseKept[2] - coarseKept[0]) / 2, "fine pattern: \(fineKept)")
    }

    /// A noisy DNG of a slanted (5°) neutral edge from `lo` to `hi` across the middle of a
    /// 256×256 mosaic (each photosite's bright share integrated across the edge), unity white
    /// balance, with its NoiseProfile.
    static let slant = 5 * Double.pi / 180
    static func edgeX(_ y: Double) -> Double { 128 + tan(slant) * (y - 128) }
    static func edgeDNG(lo: Double, hi: Double, seed: UInt64 = 11) throws -> DNGImage {
        let (mosaic, model) = try NoiseScenes.mosaic(width: 256, height: 256, electrons: electrons, seed: seed) { x, y, _ in
            lo + (hi - lo) * min(max(Double(x) + 1 - edgeX(Double(y) + 0.5), 0), 1)
        }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre NR Controls Test Camera")
        dng.color.colorMatrix1 = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        dng.color.calibrationIlluminant1 = .d65
        dng.color.asShotNeutral = [1, 1, 1]
        dng.color.noiseProfile = [(model.scale, model.offset)]
        return dng
    }

    /// The edge's 10–90 % rise in pixels (ESF of linear luminance binned at ¼ pixel by distance
    /// from the known edge line, rows 16..<240), its overshoot above the bright level (share of
    /// the step), and the luminance noise σ of the flat areas relative to their levels.
    static func edgeFigures(_ raw: RAWFilter) throws -> (rise: Double, overshoot: Double, noise: Double) {
        let pixels = try LinearPixels(try raw.outputImage(), context: try LinearPixels.floatContext())
        var sums = [Double](repeating: 0, count: 4 * 24)
        var counts = [Double](repeating: 0, count: 4 * 24)
        var flat: [(sum: Double, squares: Double, n: Double)] = [(0, 0, 0), (0, 0, 0)]
        for y in 16..<240 {
            for x in 16..<240 {
                let luma = pixels.luma(x: x, y: y)
                let d = (Double(x) + 0.5 - edgeX(Double(y) + 0.5)) * cos(slant)
                if abs(d) < 12 {
                    let bin = Int(((d + 12) * 4).rounded(.down))
                    sums[bin] += luma
                    counts[bin] += 1
                } else if abs(d) > 24 {
                    let side = d < 0 ? 0 : 1
                    flat[side].sum += luma
                    flat[side].squares += luma * luma
                    flat[side].n += 1
                }
            }
        }
        let esf = zip(sums, counts).map { $0 / max($1, 1) }
        let low = esf[0..<16].reduce(0, +) / 16
        let high = esf[(esf.count - 16)...].reduce(0, +) / 16
        let levels = esf.map { ($0 - low) / (high - low) }
        func crossing(_ level: Double) -> Double {
            for i in 1..<levels.count where levels[i - 1] < level && levels[i] >= level {
                return (Double(i - 1) + (level - levels[i - 1]) / (levels[i] - levels[i - 1])) / 4
            }
            return .nan
        }
        let noise = flat.map { f in ((f.squares / f.n - (f.sum / f.n) * (f.sum / f.n)).squareRoot()) / (f.sum / f.n) }
        return (crossing(0.9) - crossing(0.1), (levels.max() ?? 1) - 1, (noise[0] + noise[1]) / 2)
    }

    @Test(
        "Sharpness gives back edge sharpness noise reduction took: the low-contrast edge's 10–90 % rise shortens at 0.5 and again at 1, while the flat areas' noise grows by under 10 %"
    )
    func sharpness() throws {
        let dng = try Self.edgeDNG(lo: 0.15, hi: 0.20)
        var raw = try RAWFilter(dng: dng)
        raw.luminanceNoiseReductionAmount = 0
        let off = try Self.edgeFigures(raw)
        raw.luminanceNoiseReductionAmount = RAWFilter.defaultLuminanceNoiseReductionAmount
        var figures: [(rise: Double, overshoot: Double, noise: Double)] = []
        for amount in [0.0, 0.5, 1] {
            raw.noiseReductionSharpnessAmount = amount
            figures.append(try Self.edgeFigures(raw))
        }
        print("low-contrast edge (0.15/0.20), 10–90 % rise px / overshoot / relative noise: NR off \(off); sharpness 0, 0.5, 1: \(figures)")
        #expect(figures[0].noise < off.noise / 2, "noise reduction works here: \(figures[0].noise) vs \(off.noise)")
        #expect(figures[0].rise > figures[1].rise && figures[1].rise > figures[2].rise, "rise: \(figures.map(\.rise))")
        #expect(figures[2].rise < 0.85 * figures[0].rise, "sharpness 1 shortens the rise \(figures[0].rise) → \(figures[2].rise)")
        #expect(figures[2].noise < 1.1 * figures[0].noise, "flat-area noise \(figures[0].noise) → \(figures[2].noise)")
        // Nothing to give back without noise reduction: the stage is left out.
        raw.luminanceNoiseReductionAmount = 0
        let withSharpness = try RAWDevelopTests.fingerprint(try raw.outputImage())
        raw.noiseReductionSharpnessAmount = 0
        #expect(try RAWDevelopTests.fingerprint(try raw.outputImage()) == withSharpness)
    }

    @Test(
        "The luminance noise model carries the raw one through white balance and the camera matrix: a flat grey develop without noise reduction has the luminance variance it predicts, within 20 %"
    )
    func luminanceNoise() throws {
        let (mosaic, model) = try NoiseScenes.mosaic(width: 128, height: 128, electrons: Self.electrons, seed: 8) { _, _, c in
            [0.12, 0.2, 0.15][c]
        }
        var dng = try RAWDevelopTests.fixedDNG()
        dng.rawData = .mosaic(mosaic)
        dng.color.asShotNeutral = [0.6, 1, 0.75]
        dng.color.baselineExposure = 0
        dng.color.noiseProfile = [(model.scale, model.offset)]
        var raw = try RAWFilter(dng: dng)
        raw.luminanceNoiseReductionAmount = 0
        let pixels = try LinearPixels(try raw.outputImage(), context: try LinearPixels.floatContext())
        var sum = 0.0
        var squares = 0.0
        var n = 0.0
        for y in 16..<112 {
            for x in 16..<112 {
                let luma = pixels.luma(x: x, y: y)
                sum += luma
                squares += luma * luma
                n += 1
            }
        }
        let mean = sum / n
        let variance = squares / n - mean * mean
        let white = ColorTemperature.xy(temperature: raw.neutralTemperature, tint: raw.neutralTint)
        let settingsMatrix = raw.colorModel.cameraToWorking(white: white, working: raw.workingSpace)
        let neutral = raw.colorModel.xyzToCamera(white: white) * Primaries.xyz(white)
        let predicted = NoiseReductionSharpening.luminanceNoise(
            profile: CFANoiseProfile(uniform: model), cfaPattern: mosaic.pattern.cfaPattern,
            matrix: settingsMatrix, neutral: neutral)
        let ratio = variance / (predicted.scale * mean + predicted.offset)
        print("flat grey luminance \(mean): variance measured / predicted \(ratio)")
        #expect(abs(ratio - 1) < 0.2, "measured \(variance), predicted \(predicted.scale * mean + predicted.offset)")
    }

    @Test(
        "Out-of-range and non-finite amounts are refused with a typed error naming the control; versions 1 and 2 accept only 0; by key, non-finite values are refused"
    )
    func validation() throws {
        let base = try RAWFilter(dng: try RAWDevelopTests.noisyFixedDNG())
        let setters: [(String, WritableKeyPath<RAWFilter, Double>)] = [
            ("noiseReductionSharpnessAmount", \.noiseReductionSharpnessAmount),
            ("noiseReductionContrastAmount", \.noiseReductionContrastAmount),
            ("noiseReductionDetailAmount", \.noiseReductionDetailAmount),
        ]
        for (name, path) in setters {
            for bad in [-0.1, 1.5, .nan, .infinity, -.infinity] {
                var raw = base
                raw[keyPath: path] = bad
                let error = try #require(throws: DaguerreError.self) { _ = try raw.outputImage() }
                guard case .invalidArgument = error else {
                    Issue.record("\(name) \(bad): \(error)")
                    continue
                }
                #expect(error.message.contains(name), "\(error.message)")
            }
            for version in ["1", "2"] {
                var raw = base
                raw.decoderVersion = version
                raw[keyPath: path] = 0.5
                let error = try #require(throws: DaguerreError.self) { _ = try raw.outputImage() }
                guard case .unsupported = error else {
                    Issue.record("version \(version), \(name): \(error)")
                    continue
                }
                raw[keyPath: path] = 0
                _ = try raw.outputImage()
            }
            var raw = base
            raw[keyPath: path] = 1
            _ = try raw.outputImage()
        }
        var raw = base
        for key in ["inputNoiseReductionSharpnessAmount", "inputNoiseReductionContrastAmount", "inputNoiseReductionDetailAmount"] {
            #expect(throws: DaguerreError.self) { try raw.setValue(.nan, forKey: key) }
            try raw.setValue(0.25, forKey: key)
            #expect(try raw.value(forKey: key) == 0.25)
        }
    }

    @Test(
        "Detail and contrast reach the develop: the same context renders different pixels when they change (the develop key carries them), and the sidecar and its apply carry all three"
    )
    func reachTheDevelop() throws {
        let dng = try Self.edgeDNG(lo: 0.15, hi: 0.20)
        let context = try Context(options: .init(workingFormat: .rgbaf))
        func render(_ change: (inout RAWFilter) -> Void) throws -> [UInt8] {
            var raw = try RAWFilter(dng: dng)
            change(&raw)
            let b = try context.createBuffer(try raw.outputImage(), format: .rgbaf, colorSpace: .extendedLinearSRGB)
            return b.withUnsafeBytes { Array($0) }
        }
        let plain = try render { _ in }
        #expect(try render { $0.noiseReductionDetailAmount = 0.5 } != plain)
        #expect(try render { $0.noiseReductionContrastAmount = 0.5 } != plain)
        #expect(try render { _ in } == plain)
        let saved = try RAWAdjustments(["noiseReductionSharpness": 0.2, "noiseReductionContrast": 0.3, "noiseReductionDetail": 0.4])
        let decoded = try JSONDecoder().decode(RAWAdjustments.self, from: try JSONEncoder().encode(saved))
        #expect(decoded == saved)
        var raw = try RAWFilter(dng: dng)
        decoded.apply(to: &raw)
        #expect(
            raw.noiseReductionSharpnessAmount == 0.2 && raw.noiseReductionContrastAmount == 0.3 && raw.noiseReductionDetailAmount == 0.4)
    }
}
