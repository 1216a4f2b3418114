import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// DNG writer and reader, judged by LibRaw (rawpy, dcraw_emu), dcraw, darktable, RawTherapee
/// and exiftool (SPEC R1, R5, R6).
@Suite struct DNGTests {
    static func sampleDNG(_ pattern: BayerPattern, preview: Bool) throws -> DNGImage {
        var dng = DNGImage(raw: try SyntheticRaw.mosaic(pattern), uniqueCameraModel: "Daguerre Test Camera")
        dng.color.colorMatrix1 = [0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.05, 0.15, 0.6]
        dng.color.calibrationIlluminant1 = .d65
        dng.color.asShotNeutral = [0.5, 1, 0.7]
        dng.color.noiseProfile = [(2.0e-5, 1.0e-7)]
        var m = PhotoMetadata(make: "Daguerre", model: "Test Camera", software: "Daguerre tests")
        m.exposureTime = 1.0 / 60
        m.fNumber = 1.8
        m.iso = 100
        m.focalLength = 4.0
        m.focalLengthIn35mmFilm = 28
        m.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000)
        m.timeZoneOffset = 3600
        dng.metadata = m
        if preview {
            var p = try PixelBuffer(width: 300, height: 200, format: .rgb8, colorSpace: .sRGB, alpha: .straight)
            p.withUnsafeMutableBytes { b in for i in 0..<b.count { b[i] = UInt8(truncatingIfNeeded: i &* 7) } }
            dng.preview = p
        }
        return dng
    }

    @Test(
        "DNG round trip: our reader and rawpy give back the exact Bayer samples, for every CFA order",
        arguments: BayerPattern.allCases, [true, false])
    func roundTrip(pattern: BayerPattern, preview: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("\(pattern.fourCC)-\(preview ? "preview" : "nopreview").dng")
        let dng = try Self.sampleDNG(pattern, preview: preview)
        try DNGWriter.write(dng, to: path)
        SampleFiles.keep(path)

        let written = try #require(dng.mosaic)
        let back = try DNGReader.read(path: path)
        let sameSamples = back.mosaic?.samples == written.samples
        #expect(sameSamples)
        #expect(back.mosaic?.pattern == pattern)
        #expect(back.mosaic?.blackLevel == written.blackLevel)
        #expect(back.mosaic?.whiteLevel == written.whiteLevel)
        #expect(back.color.asShotNeutral == [0.5, 1, 0.7])
        #expect(back.metadata.iso == 100)
        #expect((back.preview != nil) == preview)

        let out = dir.path("rawpy.u16")
        let info = try Judge.python("dng_judge.py", ["raw", path, out])
        #expect(info["width"] as? Int == written.width)
        #expect(info["height"] as? Int == written.height)
        let judged = try Data(contentsOf: URL(fileURLWithPath: out)).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        let sameAsLibRaw = judged == written.samples  // a Bool, so a failure does not print 240 000 samples
        #expect(sameAsLibRaw, "LibRaw's raw_image differs from the samples written (\(judged.count) samples)")
        #expect(info["white_level"] as? Int == written.whiteLevel)

        try Self.expectRenderedByPeers(path, in: dir)
        let validation = try Judge.run("exiftool", ["-validate", "-warning", "-a", path])
        #expect(validation.trimmingCharacters(in: .whitespacesAndNewlines) == "Validate                        : OK", "\(validation)")
    }

    /// dcraw, dcraw_emu (LibRaw), darktable-cli and rawtherapee-cli each develop the file into an
    /// image of about the mosaic's size.
    static func expectRenderedByPeers(_ dng: String, in dir: TemporaryDirectory) throws {
        let work = dir.path("peers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let input = work + "/in.dng"
        try FileManager.default.copyItem(atPath: dng, toPath: input)
        var outputs: [(String, String)] = []
        try Judge.run("dcraw", ["-T", input])
        outputs.append(("dcraw", work + "/in.tiff"))
        try Judge.run("dcraw_emu", ["-T", input])
        outputs.append(("dcraw_emu", work + "/in.dng.tiff"))
        try Judge.run("darktable-cli", [input, work + "/dt.jpg", "--core", "--configdir", work + "/dtconf"])
        outputs.append(("darktable-cli", work + "/dt.jpg"))
        try Judge.run("rawtherapee-cli", ["-o", work + "/rt.jpg", "-Y", "-c", input])
        outputs.append(("rawtherapee-cli", work + "/rt.jpg"))
        let raw = try #require(try DNGReader.read(path: dng).mosaic)
        for (tool, file) in outputs {
            let info = try ImageReader.open(path: file).info
            #expect(
                abs(info.width - raw.width) <= 20 && abs(info.height - raw.height) <= 20,
                "\(tool) rendered \(info.width)×\(info.height) from a \(raw.width)×\(raw.height) mosaic")
        }
    }

    @Test("LibRaw reads our tiles at widths where one or two tiles span the image", arguments: [256, 512, 768])
    func libRawWidths(width: Int) throws {
        let dir = try TemporaryDirectory()
        let mosaic = try SyntheticRaw.mosaic(.rggb, width: width, height: 300)
        let dng = DNGImage(raw: mosaic, uniqueCameraModel: "Width test")
        let path = dir.path("w\(width).dng")
        try DNGWriter.write(dng, to: path)
        let out = dir.path("rawpy.u16")
        _ = try Judge.python("dng_judge.py", ["raw", path, out])
        let judged = try Data(contentsOf: URL(fileURLWithPath: out)).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        let same = judged == mosaic.samples
        #expect(same, "LibRaw's raw_image differs at width \(width) (\(judged.count) samples)")
    }

    @Test("DNG colour metadata: LibRaw develops a synthetic chart to its truth within mean ΔE2000 1.0")
    func colourMetadata() throws {
        let dir = try TemporaryDirectory()
        let chart = try SyntheticRaw.chart()
        let path = dir.path("chart.dng")
        try DNGWriter.write(chart.dng, to: path)
        SampleFiles.keep(path)
        let spec = dir.path("chart.json")
        try JSONSerialization.data(withJSONObject: chart.spec).write(to: URL(fileURLWithPath: spec))
        let result = try Judge.python("dng_judge.py", ["develop", path, spec])
        let mean = try #require(result["mean"] as? Double)
        print("DNG chart through LibRaw: mean ΔE2000 \(mean), max \(result["max"] ?? "?")")
        #expect(mean <= 1.0, "mean ΔE2000 \(mean), max \(result["max"] ?? "?")")
    }
}

/// Third-party DNGs and damaged files (SPEC R6: the reader is written for other tools' files too).
@Suite struct DNGReaderRobustnessTests {
    @Test(
        "LinearRaw DNGs (Adobe's lossy DNG of a Canon EOS 6D, the SDK's 3-component lossless fuzzer seed) read as LibRaw reads them",
        arguments: ["photoprism_canon_eos_6d.dng", "dngsdk_fuzzer_original.dng"])
    func linearRaw(name: String) throws {
        let path = Fixture.thirdParty.appendingPathComponent(name).path
        let dng = try DNGReader.read(path: path)
        let linear = try #require(dng.linearRaw, "a LinearRaw DNG reads as LinearRaw")
        #expect(dng.mosaic == nil && linear.samplesPerPixel == 3)
        let dir = try TemporaryDirectory()
        let out = dir.path("libraw.u16")
        let info = try Judge.python("dng_judge.py", ["raw", path, out])
        #expect(info["width"] as? Int == linear.width && info["height"] as? Int == linear.height)
        #expect(info["samples_per_pixel"] as? Int == 3)
        let judged = try Data(contentsOf: URL(fileURLWithPath: out)).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        // LibRaw returns 16-bit data after OpcodeList2's maps (the lossy file stores its
        // linearization as MapPolynomial there); do the same on ours, then compare.
        var normalized = linear.samples.enumerated().map { i, v in
            let p = i % 3
            return Float((Double(v) - linear.blackLevel[p]) / (Double(linear.whiteLevel[p]) - linear.blackLevel[p]))
        }
        for list in dng.opcodeLists where list.stage == .linearized {
            for op in list.opcodes where !op.apply(to: &normalized, width: linear.width, height: linear.height, channels: 3) {
                Issue.record("OpcodeList2 holds \(op.name), which is not applied")
            }
        }
        var worst = 0
        var differing = 0
        for (a, b) in zip(normalized, judged) {
            // LibRaw truncates to 16 bits; 0.01 covers Float's rounding (±0.004 at 65535).
            let d = abs(Int((Double(a) * 65535 + 0.01).rounded(.down)) - Int(b))
            worst = max(worst, d)
            if d != 0 { differing += 1 }
        }
        print(
            "\(name): \(linear.width)×\(linear.height)×3, white \(linear.whiteLevel), against LibRaw: \(differing) of \(judged.count) samples differ, worst by \(worst) in 65535"
        )
        // A difference of 1 in 65535 is the polynomial's evaluation order. A decoding difference
        // could not hide in it: one 8-bit step moves the 6D's curve by at least 2.008 (its
        // slope at 0 is 0.0078125, × 65535/255).
        #expect(judged.count == linear.samples.count && worst <= 1, "\(differing) samples differ, worst by \(worst)")
    }

    @Test("The DNG writer refuses LinearRaw images: it writes Bayer mosaics")
    func linearRawNotWritten() throws {
        let dng = try DNGReader.read(path: Fixture.thirdParty.appendingPathComponent("dngsdk_fuzzer_original.dng").path)
        let error = try #require(throws: DaguerreError.self) { _ = try DNGWriter.data(for: dng) }
        #expect(error.message.contains("LinearRaw"), "\(error)")
    }

    @Test("Other third-party DNGs read or are refused with a typed error")
    func others() throws {
        for name in ["exiftool_t_DNG.dng"] {
            do { _ = try DNGReader.read(path: Fixture.thirdParty.appendingPathComponent(name).path) } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test("A file's first bytes tell a DNG from another TIFF when IFD0 lies inside them, and say so when it does not (X6 routing)")
    func dngFromHead() throws {
        let dng = DNGImage(raw: try SyntheticRaw.mosaic(.rggb, width: 64, height: 48), uniqueCameraModel: "Head")
        let bytes = try DNGWriter.data(for: dng)
        #expect(DNGReader.isDNG(head: Array(bytes.prefix(4096))) == true)
        #expect(DNGReader.isDNG(head: Array(bytes.prefix(12))) == nil)  // IFD0 starts at 8 and runs on
        var image = TIFFDirectory()
        image[.imageWidth] = .longs([64])
        image[.imageLength] = .longs([48])
        var plainTIFF = TIFFSerializer.file([image], byteOrder: .bigEndian)
        #expect(DNGReader.isDNG(head: plainTIFF) == false)
        plainTIFF[0] = 0x89
        #expect(DNGReader.isDNG(head: plainTIFF) == false)  // not a TIFF at all
    }

    @Test(
        "An opcode list read from a file is written back byte for byte: each opcode's flags (optional, preview-skippable) and an unknown opcode's DNG version survive (R6)"
    )
    func opcodeListRoundTrip() throws {
        var original = DNGOpcodeList(
            stage: .linearized,
            opcodes: [
                .gainMap(DNGGainMap(top: 0, left: 0, bottom: 8, right: 8, pointsV: 2, pointsH: 2, gains: [1, 1.1, 1.2, 1.3])),
                .other(id: 4, dngVersion: 0x0104_0000, optional: true, parameters: [0, 0, 0, 7, 0, 0, 0, 1]),
            ])
        original.flags = [3, 1]  // the gain map optional and preview-skippable
        let bytes = original.encoded()
        let back = try DNGOpcodeList(stage: .linearized, parsing: bytes)
        #expect(back.flags == [3, 1])
        #expect(back.encoded() == bytes)
        #expect(back == original)
        // Version of the unknown opcode (bytes 4…7 of its header) as read.
        let second = 4 + 16 + (bytes.count - 4 - 2 * 16 - 8)
        #expect(Array(bytes[(second + 4)..<(second + 8)]) == [1, 4, 0, 0])
        // Flags of an opcode the caller adds: 0, or `.other`'s optional bit.
        var added = back
        added.opcodes.append(.other(id: 6, dngVersion: 0x0103_0000, optional: true, parameters: []))
        #expect(added.flags(at: 2) == 1)
    }

    @Test("Truncated and corrupted DNGs are typed errors, never crashes")
    func hostile() throws {
        var dng = DNGImage(raw: try SyntheticRaw.mosaic(.rggb, width: 300, height: 260), uniqueCameraModel: "Hostile")
        dng.opcodeLists = [
            DNGOpcodeList(
                stage: .linearized,
                opcodes: [
                    .gainMap(
                        DNGGainMap(
                            top: 0, left: 0, bottom: 260, right: 300,
                            pointsV: 2, pointsH: 2, gains: [1, 1.1, 1.2, 1.3]))
                ])
        ]
        var p = try PixelBuffer(width: 40, height: 30, format: .rgb8)
        p.withUnsafeMutableBytes { $0[0] = 1 }
        dng.preview = p
        let good = try DNGWriter.data(for: dng)
        let dir = try TemporaryDirectory()
        // Small files kept as fuzzing seeds (fuzz/corpus-dng).
        var tiny = dng
        tiny.rawData = .mosaic(try SyntheticRaw.mosaic(.grbg, width: 96, height: 64))
        tiny.opcodeLists[0].opcodes.append(
            .warpRectilinear(DNGWarpRectilinear(planes: [.init(radial: [1, -0.01, 0, 0], tangential: [0, 0])])))
        try DNGWriter.write(tiny, to: dir.path("tiny-opcodes.dng"))
        SampleFiles.keep(dir.path("tiny-opcodes.dng"))
        try DNGWriter.write(tiny, to: dir.path("tiny-uncompressed.dng"), compression: .none)
        SampleFiles.keep(dir.path("tiny-uncompressed.dng"))
        let tinyBack = try DNGReader.read(path: dir.path("tiny-uncompressed.dng"))
        #expect(tinyBack.mosaic?.samples == tiny.mosaic?.samples)
        #expect(tinyBack.opcodeLists == tiny.opcodeLists)
        let back = try DNGReader.read(bytes: good)
        #expect(back.mosaic?.samples == dng.mosaic?.samples)
        #expect(back.opcodeLists == dng.opcodeLists)
        for n in stride(from: 0, to: good.count, by: max(1, good.count / 400)) {
            #expect(throws: DaguerreError.self) { _ = try DNGReader.read(bytes: Array(good.prefix(n))) }
        }
        var rng = SeededRandom(seed: 5)
        for _ in 0..<400 {
            var b = good
            for _ in 0..<6 { b[Int.random(in: 0..<min(b.count, 4096), using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            _ = try? DNGReader.read(bytes: b)
        }
        // A hostile size is refused before allocating.
        var huge = TIFFDirectory()
        huge[.dngVersion] = .bytes([1, 4, 0, 0])
        huge[.newSubFileType] = .longs([0])
        huge[.imageWidth] = .longs([4_000_000_000])
        huge[.imageLength] = .longs([4_000_000_000])
        huge[.photometricInterpretation] = .shorts([32803])
        #expect(throws: DaguerreError.self) { _ = try DNGReader.read(bytes: TIFFSerializer.file([huge], byteOrder: .littleEndian)) }
        // An IFD loop is refused.
        var loop = TIFFSerializer.file([TIFFDirectory()], byteOrder: .littleEndian)
        loop[12] = 8  // IFD0's next pointer points back at IFD0
        #expect(throws: DaguerreError.self) { _ = try TIFFStructureReader(bytes: loop).tree() }
    }
}

/// The opcodes a developer applies (SPEC R6): checked against hand-computed values.
/// DNGs laid out in strips, as tools other than ours write them (TIFF 6.0 §3).
@Suite struct DNGStripTests {
    @Test(
        "An uncompressed strip DNG whose last strip is short (tifffile, 7-row strips), in either byte order, reads as LibRaw reads it",
        arguments: ["strips", "strips-big-endian"])
    func shortLastStrip(command: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("strips.dng")
        let out = dir.path("libraw.u16")
        let made = try Judge.python("dng_judge.py", [command, path])
        #expect(made["strips"] as? Int == 7 && made["last_strip_bytes"] as? Int == 3 * 60 * 2, "\(made)")
        let mosaic = try #require(try DNGReader.read(path: path).mosaic)
        _ = try Judge.python("dng_judge.py", ["raw", path, out])
        let judged = try Data(contentsOf: URL(fileURLWithPath: out)).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(mosaic.width == 60 && mosaic.height == 45)
        #expect(mosaic.samples == judged)
    }
}

/// ActiveArea offsets: DNG counts CFAPattern and BlackLevel from the ActiveArea's top-left.
@Suite struct DNGActiveAreaTests {
    /// LibRaw's colour of stored photosite (x, y), from the judge's first visible 2×2.
    static func libRawColor(_ info: [String: Any], x: Int, y: Int) throws -> Int {
        let top = try #require(info["top_margin"] as? Int)
        let left = try #require(info["left_margin"] as? Int)
        let colors = try #require(info["visible_colors"] as? [[Int]])
        let c = colors[(y - top) & 1][(x - left) & 1]
        return c == 3 ? 1 : c
    }

    @Test(
        "A DNG whose ActiveArea starts on an odd row and column (tifffile) reads with LibRaw's colours",
        arguments: ["1,1", "0,1", "1,0", "2,2"])
    func thirdParty(origin: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("aa.dng")
        _ = try Judge.python("dng_judge.py", ["strips", path, origin])
        let mosaic = try #require(try DNGReader.read(path: path).mosaic)
        let info = try Judge.python("dng_judge.py", ["raw", path, dir.path("raw.u16")])
        for (x, y) in [(4, 4), (5, 4), (4, 5), (5, 5)] {
            #expect(
                mosaic.pattern.color(x: x, y: y) == (try Self.libRawColor(info, x: x, y: y)),
                "ActiveArea at \(origin), photosite (\(x), \(y))")
        }
    }

    @Test(
        "Our writer counts CFAPattern and BlackLevel from an odd ActiveArea: LibRaw agrees on the colours and our reader gives back the mosaic's own"
    )
    func roundTrip() throws {
        var mosaic = try BayerImage(width: 40, height: 30, pattern: .rggb, bitsPerSample: 14)
        mosaic.blackLevel = [500, 510, 520, 530]
        for i in mosaic.samples.indices { mosaic.samples[i] = UInt16(600 + (i * 37) % 9000) }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre ActiveArea Test")
        dng.activeArea = IntRect(x: 1, y: 3, width: 38, height: 26)
        dng.defaultCrop = DNGCrop(x: 2, y: 2, width: 34, height: 22)
        let dir = try TemporaryDirectory()
        let path = dir.path("odd-active-area.dng")
        try DNGWriter.write(dng, to: path)
        SampleFiles.keep(path)
        let back = try #require(try DNGReader.read(path: path).mosaic)
        #expect(back.pattern == .rggb && back.blackLevel == mosaic.blackLevel && back.samples == mosaic.samples)
        let info = try Judge.python("dng_judge.py", ["raw", path, dir.path("raw.u16")])
        for (x, y) in [(4, 4), (5, 4), (4, 5), (5, 5)] {
            #expect(mosaic.pattern.color(x: x, y: y) == (try Self.libRawColor(info, x: x, y: y)), "photosite (\(x), \(y))")
        }
    }

    @Test("BayerPattern.shifted moves the origin of the order; per-position values move with it")
    func shift() {
        #expect(BayerPattern.rggb.shifted(x: 1, y: 0) == .grbg && BayerPattern.rggb.shifted(x: 0, y: 1) == .gbrg)
        #expect(BayerPattern.rggb.shifted(x: 1, y: 1) == .bggr && BayerPattern.gbrg.shifted(x: -1, y: 3) == .grbg)
        for p in BayerPattern.allCases {
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-3, 2)] {
                let q = p.shifted(x: dx, y: dy)
                for y in 0..<2 { for x in 0..<2 { #expect(q.color(x: x, y: y) == p.color(x: x + dx, y: y + dy)) } }
            }
        }
        #expect(BayerPattern.shift([1, 2, 3, 4], x: 1, y: 0) == [2, 1, 4, 3])
    }
}

@Suite struct DNGOpcodeTests {
    @Test("Point-wise opcodes applied band by band (a streaming develop) equal the whole-image application, pitches and areas included")
    func bands() {
        let (w, h) = (7, 11)
        let image = (0..<(w * h * 3)).map { Float(($0 * 37) % 101) / 100 }
        let ops: [DNGOpcode] = [
            .gainMap(
                DNGGainMap(
                    top: 1, left: 0, bottom: 10, right: 7, rowPitch: 3, colPitch: 2, pointsV: 3, pointsH: 2, gains: [1, 2, 1.5, 0.5, 3, 1])),
            .mapPolynomial(
                DNGMapPolynomial(
                    area: DNGOpcodeArea(top: 2, left: 1, bottom: 11, right: 6, plane: 1, planes: 2, rowPitch: 2),
                    coefficients: [0.1, 0.9, 0.2])),
        ]
        var whole = image
        for op in ops { op.apply(to: &whole, width: w, height: h, channels: 3) }
        var banded: [Float] = []
        for start in stride(from: 0, to: h, by: 4) {
            let rows = start..<min(h, start + 4)
            var band = Array(image[rows.lowerBound * w * 3..<rows.upperBound * w * 3])
            for op in ops { op.apply(to: &band, width: w, height: h, channels: 3, rows: rows) }
            banded += band
        }
        #expect(banded == whole)
        var warped = image
        #expect(
            !DNGOpcode.warpRectilinear(DNGWarpRectilinear(planes: [.init(radial: [1, 0.1, 0, 0], tangential: [0, 0])]))
                .apply(to: &warped, width: w, height: h, channels: 3, rows: 0..<4), "a warp is never applied to a band")
    }

    @Test("GainMap interpolates its grid bilinearly at pixel centres, within its area and pitch")
    func gainMap() {
        // Gains 1 at the left edge, 3 at the right, on a 2×2 grid over a 4×2 image.
        let map = DNGGainMap(top: 0, left: 0, bottom: 2, right: 4, pointsV: 2, pointsH: 2, gains: [1, 3, 1, 3])
        var plane = [Float](repeating: 1, count: 8)
        map.apply(to: &plane, width: 4, height: 2)
        // Pixel centres at x = 0.125, 0.375, 0.625, 0.875 of the width: gain 1 + 2x.
        #expect(plane.prefix(4).map { ($0 * 1000).rounded() / 1000 } == [1.25, 1.75, 2.25, 2.75])
        // Row pitch 2 and column pitch 2 touch only (0,0), (0,2).
        var map2 = map
        map2.area.rowPitch = 2
        map2.area.colPitch = 2
        var p2 = [Float](repeating: 1, count: 8)
        map2.apply(to: &p2, width: 4, height: 2)
        #expect(p2[1] == 1 && p2[3] == 1 && p2[4] == 1 && p2[0] == 1.25)
    }

    @Test(
        "GainMap's row-wise evaluation (apply, multiplyRow) equals the per-sample gain(yN:xN:mapPlane:) over the area's samples bit for bit: planes, pitches, offsets, bands and windows"
    )
    func gainMapRowsMatchSamples() {
        let (w, h, channels) = (13, 9, 3)
        var map = DNGGainMap(
            top: 1, left: 2, bottom: 8, right: 12, rowPitch: 2, colPitch: 3, pointsV: 3, pointsH: 4,
            gains: (0..<24).map { 1 + Float($0 % 7) * 0.13 })
        map.mapPlanes = 2
        map.area.plane = 1
        map.area.planes = 2
        map.originH = 0.1
        map.spacingH = 0.27
        let image = (0..<(w * h * channels)).map { Float(($0 * 53) % 97) / 96 }
        for (rows, columns) in [(0..<h, 0..<w), (3..<7, 4..<11)] {
            // The band and window of the image, as a streaming develop holds it.
            let window = rows.flatMap { r in columns.flatMap { c in image[((r * w + c) * channels)..<((r * w + c + 1) * channels)] } }
            var reference = window
            var applied = window
            map.area.forEachSample(width: w, height: h, channels: channels, rows: rows, columns: columns) { i, mapPlane in
                let pixel = i / channels
                let yN = (Double(rows.lowerBound + pixel / columns.count) + 0.5) / Double(h)
                let xN = (Double(columns.lowerBound + pixel % columns.count) + 0.5) / Double(w)
                reference[i] *= map.gain(yN: yN, xN: xN, mapPlane: mapPlane)
            }
            map.apply(to: &applied, width: w, height: h, channels: channels, rows: rows, columns: columns)
            #expect(reference != window, "the map touches rows \(rows) columns \(columns)")
            #expect(applied.map(\.bitPattern) == reference.map(\.bitPattern), "rows \(rows) columns \(columns)")
        }
    }

    @Test("MapPolynomial evaluates its coefficients and clamps to 0...1; MapTable interpolates its entries; both keep to their plane")
    func maps() {
        let area = DNGOpcodeArea(top: 0, left: 0, bottom: 1, right: 2, plane: 1, planes: 1)
        let cubic = DNGMapPolynomial(area: area, coefficients: [0, 0.5, 0, 1])  // x/2 + x³
        #expect(cubic.value(at: 0.5) == 0.375 && cubic.value(at: 1) == 1 && cubic.value(at: -1) == 0)
        var px: [Float] = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]  // 2 pixels × 3 planes
        cubic.apply(to: &px, width: 2, height: 1, channels: 3)
        #expect(px == [0.5, 0.375, 0.5, 0.5, 0.375, 0.5])
        let table = DNGMapTable(area: DNGOpcodeArea(top: 0, left: 0, bottom: 1, right: 2), table: [0, 65535, 65535])
        // Entry 0 → 0, entry 1 → 65535: input 0.5/65535 lies halfway between.
        #expect(abs(table.value(at: 0.5 / 65535) - 0.5) < 1e-9 && table.value(at: 1) == 1)
    }

    @Test("WarpRectilinear: identity coefficients keep the image; a barrel term moves the corners inward")
    func warp() {
        let w = 9
        let h = 7
        let image = (0..<(w * h)).map { Float($0) }
        let identity = DNGWarpRectilinear(planes: [.init(radial: [1, 0, 0, 0], tangential: [0, 0])])
        #expect(identity.apply(to: image, width: w, height: h, channels: 1) == image)
        let barrel = DNGWarpRectilinear(planes: [.init(radial: [0.9, 0, 0, 0], tangential: [0, 0])])
        let out = barrel.apply(to: image, width: w, height: h, channels: 1)
        #expect(out[(h / 2) * w + w / 2] == image[(h / 2) * w + w / 2], "the centre stays")
        #expect(out[0] > image[0], "the corner samples from further inside")
    }

    @Test("Opcode lists round-trip through their big-endian encoding, unknown opcodes kept as they are")
    func listRoundTrip() throws {
        let list = DNGOpcodeList(
            stage: .demosaiced,
            opcodes: [
                .warpRectilinear(
                    DNGWarpRectilinear(
                        planes: [.init(radial: [1, -0.02, 0.001, 0], tangential: [0.0001, 0])], centerX: 0.49, centerY: 0.51)),
                .other(id: 4, dngVersion: 0x0103_0000, optional: true, parameters: [0, 0, 0, 1, 0, 0, 0, 0]),
            ])
        let back = try DNGOpcodeList(stage: .demosaiced, parsing: list.encoded())
        #expect(back.opcodes.count == 2)
        #expect(back.opcodes[0] == list.opcodes[0])
        #expect(back.opcodes[1].name == "FixBadPixelsConstant")
    }
}
