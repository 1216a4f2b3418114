import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreRAW

/// Fujifilm X-Trans mosaics (X2, X6): the 6×6 pattern in DNG and from LibRaw, the X-Trans
/// demosaic by the L protocol with the X-Trans pattern against LibRaw's Markesteijn side by side,
/// and the pipeline's stages on X-Trans.
@Suite(.timeLimit(.minutes(15))) struct XTransTests {
    /// Kodak crops are mirrored outward by this many pixels before sampling: LibRaw's X-Trans
    /// demosaic refuses images under 512 pixels a side, and both sides demosaic the same mosaic.
    static let padding = 12

    /// The linear-light X-Trans mosaic of an 8-bit sRGB image mirrored outward by `padding`
    /// (numpy's "reflect": the edge pixel not repeated), as a 16-bit DNG whose camera space is
    /// linear sRGB, developed over its whole area.
    static func mosaicDNG(_ png: String, pattern: XTransPattern = .standard) throws -> (dng: DNGImage, truth: PixelBuffer) {
        let truth = try ImageReader.readAll(path: png)
        let pad = padding
        let w = truth.width + 2 * pad
        let h = truth.height + 2 * pad
        var mosaic = try BayerImage(width: w, height: h, pattern: .rggb, bitsPerSample: 16)
        mosaic.xTrans = pattern
        mosaic.whiteLevel = 65535
        let decode = (0..<256).map { SRGBCurve.decode(Double($0) / 255) }
        func reflect(_ v: Int, _ n: Int) -> Int { v < 0 ? -v : v >= n ? 2 * (n - 1) - v : v }
        truth.withUnsafeBytes { raw in
            let ch = truth.format.channels
            for y in 0..<h {
                let sy = reflect(y - pad, truth.height)
                for x in 0..<w {
                    let sx = reflect(x - pad, truth.width)
                    let c = pattern.color(x: x, y: y)
                    mosaic.samples[y * w + x] = UInt16((decode[Int(raw[sy * truth.bytesPerRow + sx * ch + c])] * 65535).rounded())
                }
            }
        }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre linear sRGB X-Trans test camera")
        dng.color.colorMatrix1 = (Primaries.srgb.rgbToXYZ.inverse ?? .identity).m  // XYZ → linear sRGB
        dng.color.calibrationIlluminant1 = .d65
        dng.color.asShotNeutral = [1, 1, 1]
        dng.defaultCrop = DNGCrop(x: 0, y: 0, width: Double(w), height: Double(h))
        return (dng, truth)
    }

    /// Colour PSNR of `developed`'s region at (offset, offset), `truth`'s size, against `truth`,
    /// with a 10-pixel border left out (the L protocol's score on a padded mosaic).
    static func cpsnr(_ developed: PixelBuffer, offset: Int, _ truth: PixelBuffer, border: Int = 10) -> Double {
        var se = 0.0
        var n = 0.0
        developed.withUnsafeBytes { pa in
            truth.withUnsafeBytes { pb in
                for y in border..<(truth.height - border) {
                    for x in border..<(truth.width - border) {
                        for c in 0..<3 {
                            let d =
                                Double(pa[(y + offset) * developed.bytesPerRow + (x + offset) * developed.format.channels + c])
                                - Double(pb[y * truth.bytesPerRow + x * truth.format.channels + c])
                            se += d * d
                            n += 1
                        }
                    }
                }
            }
        }
        return 10 * log10(255 * 255 / max(se / n, 1e-12))
    }

    // MARK: The pattern

    @Test("X-Trans layouts are recognized from any origin and symmetry; other 6×6 and 2×2 patterns are not")
    func pattern() {
        let p = XTransPattern.standard
        #expect(p.cfaPattern.filter { $0 == 1 }.count == 20)
        #expect(p.cfaPattern.filter { $0 == 0 }.count == 8)
        for dy in 0..<6 {
            for dx in 0..<6 {
                let s = p.shifted(x: dx, y: dy)
                #expect(XTransPattern(cfaPattern: s.cfaPattern) == s)
                #expect(s.color(x: 1, y: 2) == p.color(x: 1 + dx, y: 2 + dy))
            }
        }
        #expect(p.color(x: -1, y: -7) == p.color(x: 5, y: 5))
        var swapped = p.cfaPattern
        swapped.swapAt(0, 2)  // a green and a red trade places: no longer X-Trans
        #expect(XTransPattern(cfaPattern: swapped) == nil)
        #expect(XTransPattern(cfaPattern: [0, 1, 1, 2]) == nil)
        // Every red and blue photosite has a green neighbour in some direction within three.
        let tables = XTransDemosaic.Tables(p)
        for pos in 0..<36 where tables.color[pos] != 1 {
            #expect(tables.green[pos].contains { $0.plus != 0 || $0.minus != 0 })
            #expect(tables.difference[pos].allSatisfy { $0.count >= 2 } || tables.difference[pos].contains { $0.isEmpty })
        }
    }

    @Test(
        "An X-Trans mosaic round-trips through our DNG writer and reader (CFARepeatPatternDim 6×6), also with an ActiveArea off the repeat")
    func dngRoundTrip() throws {
        let dir = try TemporaryDirectory()
        var mosaic = try BayerImage(width: 60, height: 48, pattern: .rggb, bitsPerSample: 14)
        mosaic.xTrans = XTransPattern.standard.shifted(x: 2, y: 3)
        for i in mosaic.samples.indices { mosaic.samples[i] = UInt16((i * 37) % 16000) }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "X-Trans round trip")
        dng.activeArea = IntRect(x: 1, y: 4, width: 56, height: 40)
        let path = dir.path("x.dng")
        for compression in [DNGCompression.none, .losslessJPEG] {
            try DNGWriter.write(dng, to: path, compression: compression)
            let back = try DNGReader.open(path: path)
            #expect(back.mosaicLayout?.xTrans == mosaic.xTrans)
            let readMosaic = try RAWFilter(dng: back).dng.mosaic
            #expect(readMosaic?.samples == mosaic.samples)
            #expect(readMosaic?.xTrans == mosaic.xTrans)
        }
    }

    @Test("A 2×2 CFA of other colours and a 6×6 pattern that is not X-Trans are refused with errors naming the layout")
    func otherLayoutsRefused() throws {
        let dir = try TemporaryDirectory()
        let mosaic = try BayerImage(width: 32, height: 32, pattern: .rggb, bitsPerSample: 14)
        let path = dir.path("cmyg.dng")
        try DNGWriter.write(DNGImage(raw: mosaic, uniqueCameraModel: "CMYG"), to: path, compression: .none)
        // Rewrite the 2×2 CFAPattern and CFAPlaneColor in place: cyan, magenta, yellow, green.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let patterns = Self.find([0, 1, 1, 2], in: bytes)
        let planes = Self.find([0, 1, 2], in: bytes)
        #expect(!patterns.isEmpty && !planes.isEmpty)
        for p in planes { bytes.replaceSubrange(p..<(p + 3), with: [3, 4, 5]) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try RAWFilter(url: URL(fileURLWithPath: path))
        } throws: { error in
            "\(error)".contains("cyan") && "\(error)".contains("magenta") && "\(error)".contains("yellow")
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard haystack.count >= needle.count else { return [] }
        return (0...(haystack.count - needle.count)).filter { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    // MARK: Quality (the L protocol with the X-Trans pattern)

    @Test(
        "Kodak24, L protocol with the X-Trans pattern: RAWFilter's mean CPSNR above LibRaw's best X-Trans method (Markesteijn 1- and 3-pass) measured side by side; LibRaw reads our 6×6 DNGs"
    )
    func kodak24() async throws {
        let result = try await onOwnThread { try Self.measureKodak24() }
        let mean = result.ours.reduce(0, +) / Double(result.ours.count)
        let draft = result.draft.reduce(0, +) / Double(result.draft.count)
        print("Kodak24 X-Trans L protocol, mean CPSNR: RAWFilter \(mean) dB, draft \(draft) dB; LibRaw \(result.libraw)")
        print("per image (ours): \(result.ours.map { ($0 * 100).rounded() / 100 })")
        print("per image (LibRaw best): \(result.librawBest.map { ($0 * 100).rounded() / 100 })")
        #expect(result.ours.count == 24)
        #expect(result.pattern == XTransPattern.standard.cfaPattern.map(Int.init))
        let best = result.libraw.values.max() ?? .infinity
        #expect(mean > best)
        #expect(draft > 30)
    }

    static func measureKodak24() throws -> (
        ours: [Double], draft: [Double], libraw: [String: Double], librawBest: [Double], pattern: [Int]
    ) {
        let dir = try TemporaryDirectory()
        let ctx = try Context(options: .init(workingFormat: .rgbaf))
        var ours: [Double] = []
        var draft: [Double] = []
        var pairs: [[String]] = []
        for i in 1...24 {
            let png = Judge.testdata.appendingPathComponent(String(format: "kodak24/kodim%02d.png", i)).path
            let (dng, truth) = try Self.mosaicDNG(png)
            let path = dir.path(String(format: "kodim%02d.dng", i))
            try DNGWriter.write(dng, to: path, compression: .none)
            pairs.append([path, png])
            // Developed from the file (our reader, the streamed develop), noise reduction at its
            // default: version 5 estimates the noise, and the scans' film grain reads as a little
            // (36.94 dB here; version 4, which left X-Trans noise alone, 37.11).
            for isDraft in [false, true] {
                var raw = try RAWFilter(url: URL(fileURLWithPath: path))
                raw.isDraftModeEnabled = isDraft
                let out = try ctx.createBuffer(try raw.outputImage(), format: .rgb8, colorSpace: .sRGB)
                let score = Self.cpsnr(out, offset: padding, truth)
                if isDraft { draft.append(score) } else { ours.append(score) }
            }
        }
        let spec = dir.path("spec.json")
        // LibRaw: PPG is its 1-pass Markesteijn for X-Trans, AHD (and every better method) its
        // 3-pass; LINEAR and VNG for reference.
        let methods = ["LINEAR", "VNG", "PPG", "AHD"]
        try JSONSerialization.data(withJSONObject: ["pairs": pairs, "methods": methods, "offset": padding] as [String: Any])
            .write(to: URL(fileURLWithPath: spec))
        let judged = try Judge.python("demosaic_judge.py", [spec])
        var libraw: [String: Double] = [:]
        var perImage: [String: [Double]] = [:]
        for m in methods {
            guard let entry = judged[m] as? [String: Any], let mean = entry["mean"] as? Double, let per = entry["per_image"] as? [Double]
            else {
                throw Judge.Failure(description: "demosaic_judge.py gave no \(m) result: \(judged)")
            }
            libraw[m] = mean
            perImage[m] = per
        }
        let bestMethod = libraw.max { $0.value < $1.value }?.key ?? "AHD"
        let pattern = (judged["raw_pattern"] as? [[Int]])?.flatMap { $0 } ?? []
        return (ours, draft, libraw, perImage[bestMethod] ?? [], pattern)
    }

    // MARK: The pipeline on X-Trans

    /// A small X-Trans scene with a clipped highlight: a grey ramp, a saturated disc.
    static func clippedScene(width: Int = 96, height: Int = 72) throws -> DNGImage {
        var mosaic = try BayerImage(width: width, height: height, pattern: .rggb, bitsPerSample: 14)
        mosaic.xTrans = .standard
        mosaic.blackLevel = [512, 512, 512, 512]
        mosaic.whiteLevel = 16383
        let gains = [0.5, 1.0, 0.7]
        for y in 0..<height {
            for x in 0..<width {
                let c = mosaic.layout.color(x: x, y: y)
                let dx = Double(x - width / 2)
                let dy = Double(y - height / 2)
                let v = dx * dx + dy * dy < 100 ? 3.0 : Double(x) / Double(width) * 0.6
                mosaic.samples[y * width + x] = UInt16(min(16383, 512 + v * gains[c] * 15871))
            }
        }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "X-Trans clipped scene")
        dng.color.colorMatrix1 = (Primaries.srgb.rgbToXYZ.inverse ?? .identity).m
        dng.color.calibrationIlluminant1 = .d65
        dng.color.asShotNeutral = gains
        return dng
    }

    @Test("Highlight recovery on X-Trans: a clipped disc develops neutral, not coloured; draft mode and half scale develop too")
    func highlights() throws {
        let dng = try Self.clippedScene()
        var raw = try RAWFilter(dng: dng)
        let full = try LinearPixels(try raw.outputImage(), context: try LinearPixels.floatContext())
        let centre = full[x: full.width / 2, y: full.height / 2]
        #expect(centre.min() >= 0.99)
        #expect(abs(centre.x - centre.y) < 0.02 && abs(centre.z - centre.y) < 0.02)
        // Amount 0 clips to white: neutral, and darker than what amount 1 rebuilds.
        raw.highlightRecoveryAmount = 0
        let clipped = try LinearPixels(try raw.outputImage(), context: try LinearPixels.floatContext())
        let white = clipped[x: clipped.width / 2, y: clipped.height / 2]
        #expect(abs(white.x - white.y) < 0.02 && abs(white.z - white.y) < 0.02)
        #expect(white.y < centre.y - 0.1)
        // The ramp: grey, rising left to right.
        let left = full.mean(x: 18..<24, y: 8..<14)
        let right = full.mean(x: 66..<72, y: 8..<14)
        #expect(right.y > left.y)
        #expect(abs(left.x - left.y) < 0.01 && abs(left.z - left.y) < 0.01)
        raw.highlightRecoveryAmount = 1
        raw.isDraftModeEnabled = true
        let draft = try LinearPixels(try raw.outputImage(), context: try LinearPixels.floatContext())
        #expect(abs(draft.mean(x: 66..<72, y: 8..<14).y - right.y) < 0.02)
        raw.isDraftModeEnabled = false
        raw.scaleFactor = 0.5
        let half = try LinearPixels(try raw.outputImage())
        #expect(half.width == 48)
    }

    @Test(
        "In pipeline version 4, raw noise reduction asked for on an X-Trans mosaic without a NoiseProfile is a typed error naming X-Trans and the version that estimates one; its default leaves it out (the default version estimates the noise)"
    )
    func noiseReductionRefused() throws {
        var raw = try RAWFilter(dng: try Self.clippedScene())
        raw.luminanceNoiseReductionAmount = 0.8
        _ = try raw.outputImage()
        raw.decoderVersion = "4"
        raw.luminanceNoiseReductionAmount = RAWFilter.defaultLuminanceNoiseReductionAmount
        _ = try raw.outputImage()
        raw.luminanceNoiseReductionAmount = 0.8
        #expect {
            _ = try raw.outputImage()
        } throws: { error in
            "\(error)".contains("X-Trans") && "\(error)".contains("decoderVersion \"\(PipelineVersion.default.name)\"")
        }
    }
}
