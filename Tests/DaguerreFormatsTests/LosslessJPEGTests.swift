import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// Sample images for the lossless JPEG tests: interleaved UInt16, `width * components` per row.
private enum Samples {
    /// Uniform noise over the whole range (differences of every category, 16 included at 16 bits).
    static func noise(_ count: Int, precision: Int, seed: UInt64) -> [UInt16] {
        var rng = SeededRandom(seed: seed)
        let mask = UInt64((1 << precision) - 1)
        return (0..<count).map { _ in UInt16(rng.next() & mask) }
    }

    /// A smooth diagonal ramp with a little noise, different per component.
    static func gradient(width: Int, height: Int, components: Int, precision: Int, seed: UInt64) -> [UInt16] {
        var rng = SeededRandom(seed: seed)
        let top = Double((1 << precision) - 1)
        var out: [UInt16] = []
        out.reserveCapacity(width * height * components)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<components {
                    let t = (Double(x) / Double(max(1, width - 1)) * 0.6 + Double(y) / Double(max(1, height - 1)) * 0.3 + Double(c) * 0.03)
                    let v = t * top * 0.95 + Double(rng.next() % 3)
                    out.append(UInt16(min(top, max(0, v.rounded()))))
                }
            }
        }
        return out
    }

    /// A 14-bit Bayer-like mosaic (RGGB): a smooth scene per colour plus shot noise that grows
    /// with the signal, the way a sensor's raw data looks to a predictor.
    static func bayer(width: Int, height: Int, seed: UInt64) -> [UInt16] {
        var rng = SeededRandom(seed: seed)
        var out = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let colour = (y & 1) * 2 + (x & 1)  // 0 R, 1 and 2 G, 3 B
                let gain = [0.55, 1.0, 1.0, 0.7][colour]
                let fx = Double(x) / Double(width)
                let fy = Double(y) / Double(height)
                let scene = 0.25 + 0.2 * sin(fx * 9 + fy * 4) * cos(fy * 7) + 0.25 * fx * fy
                let signal = 512 + scene * gain * 14_000
                // Box–Muller noise with sigma = sqrt(signal / 2) (about 1.5 e−/DN) plus read noise.
                let u1 = max(1e-12, Double(rng.next() >> 11) / Double(1 << 53))
                let u2 = Double(rng.next() >> 11) / Double(1 << 53)
                let gauss = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
                let v = signal + gauss * ((signal / 2).squareRoot() + 3)
                out[y * width + x] = UInt16(min(16383, max(0, v.rounded())))
            }
        }
        return out
    }
}

/// Encodes a tight array (or a window of one, with `rowStride`).
private func encode(
    _ samples: [UInt16], offset: Int = 0, rowStride: Int? = nil, width: Int, height: Int, components: Int,
    precision: Int, predictor: Int = 1, pointTransform: Int = 0, restartRows: Int = 0,
    tablePerComponent: Bool = false
) throws -> [UInt8] {
    try samples.withUnsafeBufferPointer {
        try LosslessJPEGEncoder.encode(
            samples: $0.baseAddress! + offset, rowStride: rowStride ?? width * components, width: width,
            height: height, components: components, precision: precision, predictor: predictor,
            pointTransform: pointTransform, restartRows: restartRows, tablePerComponent: tablePerComponent)
    }
}

/// Decodes into a tight array.
private func decode(_ bytes: [UInt8], legacyDifference16: Bool = false) throws -> (LosslessJPEGHeader, [UInt16]) {
    let header = try bytes.withUnsafeBytes { (raw) throws(DaguerreError) in try LosslessJPEG.readHeader(raw) }
    let count = header.samplesPerRow * header.height
    var out = [UInt16](repeating: 0xDEAD, count: count)
    let decoded = try bytes.withUnsafeBytes { (raw) throws(DaguerreError) in
        try out.withUnsafeMutableBufferPointer { (dst) throws(DaguerreError) in
            try LosslessJPEG.decode(
                raw, into: dst.baseAddress!, rowStride: header.samplesPerRow, capacity: count,
                legacyDifference16: legacyDifference16)
        }
    }
    #expect(decoded == header)
    return (header, out)
}

/// Decodes two streams with the paired decoder (``LosslessJPEGDecoder``'s lockstep path for
/// scans of one shape), each into a tight array with a guard zone after it that must stay intact.
private func decodePair(_ first: [UInt8], _ second: [UInt8]) -> Result<([UInt16], [UInt16]), DaguerreError> {
    func capacity(_ bytes: [UInt8]) -> Int {
        let header = try? bytes.withUnsafeBytes { (raw) throws(DaguerreError) in try LosslessJPEG.readHeader(raw) }
        return header.map { $0.samplesPerRow * $0.height } ?? 64
    }
    let (n1, n2) = (capacity(first), capacity(second))
    var out1 = [UInt16](repeating: 0x5A5A, count: n1 + 64)
    var out2 = [UInt16](repeating: 0x5A5A, count: n2 + 64)
    let result = first.withUnsafeBytes { raw1 in
        second.withUnsafeBytes { raw2 in
            out1.withUnsafeMutableBufferPointer { d1 in
                out2.withUnsafeMutableBufferPointer { d2 in
                    Result { () throws(DaguerreError) in
                        let s1 = try LosslessJPEGStream(raw1)
                        let s2 = try LosslessJPEGStream(raw2)
                        try LosslessJPEGDecoder.decode(
                            s1, raw1, into: d1.baseAddress!, rowStride: s1.header.samplesPerRow, capacity: n1,
                            s2, raw2, into: d2.baseAddress!, rowStride: s2.header.samplesPerRow, capacity: n2,
                            legacyDifference16: false)
                    }
                }
            }
        }
    }
    #expect(out1[n1...].allSatisfy { $0 == 0x5A5A } && out2[n2...].allSatisfy { $0 == 0x5A5A }, "wrote past the capacity")
    return result.map { (Array(out1.prefix(n1)), Array(out2.prefix(n2))) }
}

/// How many samples differ (an #expect on whole arrays would print them all on failure).
private func differing(_ a: [UInt16], _ b: [UInt16]) -> Int {
    guard a.count == b.count else { return max(a.count, b.count) }
    return zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
}

/// Offset of the first marker `code` (FF code) in a stream we wrote, after SOI.
private func markerOffset(_ bytes: [UInt8], _ code: UInt8) -> Int? {
    (2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == code }
}

@Suite("Lossless JPEG (SOF3) for DNG")
struct LosslessJPEGTests {
    @Test(
        "Bit-exact round trips: every predictor, precision and component count, odd sizes, noise and gradients",
        arguments: 1...7, [8, 12, 14, 16])
    func roundTrip(predictor: Int, precision: Int) throws {
        for components in 1...4 {
            for (width, height) in [(1, 1), (13, 7), (37, 29)] {
                let count = width * height * components
                let seed = UInt64(predictor * 1000 + precision * 10 + components)
                let images = [
                    ("noise", Samples.noise(count, precision: precision, seed: seed)),
                    ("gradient", Samples.gradient(width: width, height: height, components: components, precision: precision, seed: seed)),
                ]
                for (kind, samples) in images {
                    let bytes = try encode(
                        samples, width: width, height: height, components: components, precision: precision, predictor: predictor)
                    let (header, back) = try decode(bytes)
                    #expect(
                        header
                            == LosslessJPEGHeader(
                                width: width, height: height, components: components, precision: precision, predictor: predictor))
                    #expect(differing(back, samples) == 0, "\(kind) P\(predictor) \(precision)-bit \(components)c \(width)×\(height)")
                }
            }
        }
    }

    @Test("The full-difference table agrees with the short-code lookup on every 12-bit window, and holds every difference that fits")
    func fullDifferenceTable() {
        let histograms: [[Int]] = [
            [5, 40, 90, 200, 400, 800, 900, 600, 300, 120, 40, 10, 4, 2, 1, 1, 1],  // a raw photo's categories
            [Int](repeating: 1, count: 17),  // flat: long codes
            [1000, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],  // almost only zeros
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 500, 400, 300, 200, 100, 50, 7],  // only big categories
        ]
        let bits = LosslessJPEGDecodingTable.fullBits
        for histogram in histograms {
            let decoding = LosslessJPEGDecodingTable(LosslessJPEGHuffmanTable.optimal(frequencies: histogram))
            var mismatches = 0
            var fitting = 0
            for w in 0..<(1 << bits) {
                let window = UInt64(w) << (64 - bits)
                let entry = decoding.lookup.withUnsafeBufferPointer { LosslessJPEGDecoder.entry(window, $0.baseAddress!) }
                let fits = LosslessJPEGDecoder.isFast(entry) && entry & 63 <= bits
                let full = decoding.full[w]
                if fits {
                    fitting += 1
                    if full != LosslessJPEGDecoder.fastDifference(window, entry) << 8 | Int32(entry & 63) { mismatches += 1 }
                } else if full != 0 {
                    mismatches += 1
                }
            }
            #expect(mismatches == 0, "histogram \(histogram)")
            if histogram[0] == 5 { #expect(fitting > (1 << bits) / 2, "most windows of a photo's table decode in one lookup") }
        }
    }

    @Test(
        "Two tiles decoded in lockstep equal each decoded alone (every predictor, 1 and 2 components, point transform, per-component tables); other shapes fall back",
        arguments: 1...7)
    func pairedScans(predictor: Int) throws {
        for components in [1, 2] {
            for (width, height, pt) in [(1, 1, 0), (13, 7, 0), (64, 33, 2)] {
                let count = width * height * components
                let seed = UInt64(predictor * 100 + components * 10 + pt)
                let a = Samples.gradient(width: width, height: height, components: components, precision: 14, seed: seed)
                let b = Samples.noise(count, precision: 14, seed: seed + 1)
                let bytesA = try encode(
                    a, width: width, height: height, components: components, precision: 14, predictor: predictor, pointTransform: pt)
                let bytesB = try encode(
                    b, width: width, height: height, components: components, precision: 14, predictor: predictor,
                    pointTransform: pt, tablePerComponent: true)
                let (backA, backB) = try decodePair(bytesA, bytesB).get()
                #expect(differing(backA, try decode(bytesA).1) == 0, "P\(predictor) \(components)c \(width)×\(height) Pt \(pt)")
                #expect(differing(backB, try decode(bytesB).1) == 0, "P\(predictor) \(components)c \(width)×\(height) Pt \(pt)")
            }
        }
        // Shapes that cannot go in lockstep: another size, three components, restart intervals.
        let small = Samples.noise(10 * 4 * 2, precision: 12, seed: 5)
        let other = Samples.noise(11 * 5 * 3, precision: 12, seed: 6)
        let bytesSmall = try encode(small, width: 10, height: 4, components: 2, precision: 12, predictor: predictor)
        let bytesOther = try encode(other, width: 11, height: 5, components: 3, precision: 12, predictor: predictor, restartRows: 2)
        let (backSmall, backOther) = try decodePair(bytesSmall, bytesOther).get()
        #expect(differing(backSmall, small) == 0 && differing(backOther, other) == 0)
    }

    @Test("The difference 32768 (SSSS = 16, no extra bits) and full-range 16-bit noise")
    func sixteenBitDifferences() throws {
        // Alternating 0 and 32768: every difference after the first is ±32768 ≡ 32768.
        let alternating: [UInt16] = (0..<64 * 9).map { (i: Int) -> UInt16 in (i / 2 + i / 64) % 2 == 0 ? 0 : 32768 }
        for predictor in 1...7 {
            let bytes = try encode(alternating, width: 32, height: 9, components: 2, precision: 16, predictor: predictor)
            #expect(differing(try decode(bytes).1, alternating) == 0, "predictor \(predictor)")
        }
        let noise = Samples.noise(300 * 200, precision: 16, seed: 99)
        let bytes = try encode(noise, width: 300, height: 200, components: 1, precision: 16)
        #expect(differing(try decode(bytes).1, noise) == 0)
    }

    @Test("The DNG two-component trick: Bayer tiles encoded in place (row stride > tile) and decoded in place")
    func bayerTiles() throws {
        let width = 600
        let height = 520
        let tile = 256
        let image = Samples.bayer(width: width, height: height, seed: 5)
        var rebuilt = [UInt16](repeating: 0xBEEF, count: width * height)
        // The tiles that fit, plus the bottom-right corner region as a partial-size frame.
        let tiles = [
            (0, 0, tile, tile), (256, 0, tile, tile), (0, 256, tile, tile), (256, 256, tile, tile),
            (512, 256, 88, 264), (0, 512, 512, 8),
        ]
        for (x, y, w, h) in tiles {
            let bytes = try encode(image, offset: y * width + x, rowStride: width, width: w / 2, height: h, components: 2, precision: 14)
            let header = try bytes.withUnsafeBytes { (raw) throws(DaguerreError) in
                try rebuilt.withUnsafeMutableBufferPointer { (dst) throws(DaguerreError) in
                    // The capacity is what is left of the image from the tile's first sample.
                    try LosslessJPEG.decode(
                        raw, into: dst.baseAddress! + y * width + x, rowStride: width, capacity: width * height - (y * width + x))
                }
            }
            #expect(header.width == w / 2 && header.components == 2 && header.height == h && header.precision == 14)
        }
        // Every tile region came back; nothing else was written.
        var wrong = 0
        var untouched = 0
        for y in 0..<height {
            for x in 0..<width {
                let inside = tiles.contains { x >= $0.0 && x < $0.0 + $0.2 && y >= $0.1 && y < $0.1 + $0.3 }
                if inside {
                    if rebuilt[y * width + x] != image[y * width + x] { wrong += 1 }
                } else if rebuilt[y * width + x] == 0xBEEF {
                    untouched += 1
                }
            }
        }
        #expect(wrong == 0)
        #expect(untouched == width * height - tiles.reduce(0) { $0 + $1.2 * $1.3 })
    }

    @Test("Restart intervals (DRI, RST0–7) decode, at every predictor", arguments: [1, 2, 5, 16])
    func restartIntervals(rows: Int) throws {
        for predictor in [1, 4, 6, 7] {
            for components in [1, 2, 3] {
                let width = 21
                let height = 40
                let samples = Samples.gradient(width: width, height: height, components: components, precision: 12, seed: UInt64(rows))
                let bytes = try encode(
                    samples, width: width, height: height, components: components, precision: 12,
                    predictor: predictor, restartRows: rows)
                let (header, back) = try decode(bytes)
                #expect(header.restartInterval == rows * width)
                #expect(differing(back, samples) == 0, "restart every \(rows) rows, predictor \(predictor), \(components) components")
                // RST0, RST1, ... RST7, RST0 ... between the intervals.
                let markers = (0..<bytes.count - 1).filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }.map {
                    Int(bytes[$0 + 1]) - 0xD0
                }
                #expect(markers == (0..<(height + rows - 1) / rows - 1).map { $0 % 8 })
            }
        }
    }

    @Test("Per-component Huffman tables (as Adobe's DNG SDK writes) and the point transform")
    func tablesAndPointTransform() throws {
        let width = 45
        let height = 17
        for components in 1...4 {
            let samples = Samples.gradient(width: width, height: height, components: components, precision: 14, seed: 3)
            let separate = try encode(samples, width: width, height: height, components: components, precision: 14, tablePerComponent: true)
            #expect(differing(try decode(separate).1, samples) == 0)
            for pt in [1, 3] {
                let bytes = try encode(
                    samples, width: width, height: height, components: components, precision: 14, predictor: 5,
                    pointTransform: pt, restartRows: 4, tablePerComponent: components == 3)
                let (header, back) = try decode(bytes)
                #expect(header.pointTransform == pt)
                #expect(differing(back, samples.map { ($0 >> UInt16(pt)) << UInt16(pt) }) == 0, "Pt \(pt), \(components) components")
            }
        }
    }

    @Test("APPn, COM and DQT segments are skipped; fill bytes before markers are allowed")
    func foreignSegmentsAndFillBytes() throws {
        let samples = Samples.gradient(width: 30, height: 12, components: 2, precision: 12, seed: 8)
        let bytes = try encode(samples, width: 30, height: 12, components: 2, precision: 12, restartRows: 3)
        var edited: [UInt8] = [0xFF, 0xD8]
        edited += [0xFF, 0xE1, 0, 8] + Array("Exif\0\0".utf8)  // APP1
        edited += [0xFF, 0xFE, 0, 7] + Array("hello".utf8)  // COM
        edited += [0xFF, 0xDB, 0, 67, 0] + [UInt8](repeating: 1, count: 64)  // DQT
        for (k, b) in bytes.enumerated().dropFirst(2) {
            // Three fill bytes before every marker, in the header and in the entropy-coded data.
            if b == 0xFF && k + 1 < bytes.count && bytes[k + 1] != 0 { edited += [0xFF, 0xFF, 0xFF] }
            edited.append(b)
        }
        #expect(differing(try decode(edited).1, samples) == 0)
    }

    @Test("A hand-built stream: SSSS = 16 with and without the pre-DNG-1.1 extra bits")
    func handBuilt() throws {
        // One 16-bit component, 2×1. Table: "0" → SSSS 0, "10" → SSSS 1, "11" → SSSS 16.
        func stream(_ data: [UInt8]) -> [UInt8] {
            let counts: [UInt8] = [1, 2] + [UInt8](repeating: 0, count: 14)
            let symbols: [UInt8] = [0, 1, 16]
            return [
                0xFF, 0xD8,
                0xFF, 0xC3, 0, 11, 16, 0, 1, 0, 2, 1, 1, 0x11, 0,
                0xFF, 0xC4, 0, 22, 0x00,
            ] + counts + symbols
                + [0xFF, 0xDA, 0, 8, 1, 1, 0x00, 1, 0, 0] + data + [0xFF, 0xD9]
        }
        #expect(try decode(stream([0b1110_1111])).1 == [0, 1])
        // Legacy: 11, 16 extra bits 0x8001 (+32769 ≡ 1), then 10 1. 21 bits and three 1s of padding.
        let legacy: [UInt8] = [0b1110_0000, 0b0000_0000, 0b0110_1111]
        #expect(try decode(stream(legacy), legacyDifference16: true).1 == [1, 2])
        // Stuffing: FF 00 is one data byte of eight 1 bits: SSSS 16 twice (0, then 32768), then padding.
        #expect(try decode(stream([0xFF, 0x00])).1 == [0, 32768])
    }

    @Test("Encoder arguments are checked")
    func encoderArguments() throws {
        let samples = [UInt16](repeating: 100, count: 64)
        let cases: [(String, () throws -> [UInt8])] = [
            ("width 0", { try encode(samples, width: 0, height: 8, components: 1, precision: 12) }),
            ("5 components", { try encode(samples, width: 2, height: 2, components: 5, precision: 12) }),
            ("precision 1", { try encode(samples, width: 8, height: 8, components: 1, precision: 1) }),
            ("predictor 8", { try encode(samples, width: 8, height: 8, components: 1, precision: 12, predictor: 8) }),
            ("stride", { try encode(samples, rowStride: 7, width: 4, height: 2, components: 2, precision: 12) }),
            ("sample over precision", { try encode(samples, width: 8, height: 8, components: 1, precision: 6) }),
        ]
        for (name, call) in cases {
            expectDaguerreError(name, { if case .invalidArgument = $0 { return true } else { return false } }) { _ = try call() }
        }
    }
}

@Suite("Lossless JPEG against LibRaw and third-party DNGs")
struct LosslessJPEGJudgeTests {
    /// Runs the judge on a DNG: its raw IFD and LibRaw's raw_image.
    private func libraw(_ arguments: [String], raw: String) throws -> (meta: [String: Any], image: [UInt16]) {
        let meta = try Judge.python("ljpeg_dng.py", arguments)
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let image = data.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }.map { UInt16(littleEndian: $0) }
        return (meta, image)
    }

    private func fileBytes(_ path: String, offset: Int, count: Int) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path))[offset..<offset + count])
    }

    @Test("Adobe DNG SDK tiles (dngsdk_fuzzer_original.dng: SOF3, 3 components, 3 tables) match LibRaw")
    func adobeTiles() throws {
        let dir = try TemporaryDirectory()
        let path = Fixture.thirdParty.appendingPathComponent("dngsdk_fuzzer_original.dng").path
        let (meta, reference) = try libraw(["read", path, dir.path("libraw.raw")], raw: dir.path("libraw.raw"))
        let ifd = try #require(meta["ifd"] as? [String: Any])
        #expect(ifd["compression"] as? Int == 7)
        let width = try #require(ifd["width"] as? Int)
        let height = try #require(ifd["height"] as? Int)
        let spp = try #require(ifd["samplesPerPixel"] as? Int)
        let tw = try #require(ifd["tileWidth"] as? Int)
        let th = try #require(ifd["tileLength"] as? Int)
        let offsets = try #require(ifd["offsets"] as? [Int])
        let counts = try #require(ifd["byteCounts"] as? [Int])
        let curve = try #require(ifd["linearization"] as? [Int])
        let shape = try #require(meta["rawShape"] as? [Int])
        #expect(shape == [height, width, 4])  // LibRaw's four-channel image of LinearRaw data

        let stride = width * spp
        var ours = [UInt16](repeating: 0, count: height * stride)
        let across = (width + tw - 1) / tw
        for (k, (offset, count)) in zip(offsets, counts).enumerated() {
            let bytes = try fileBytes(path, offset: offset, count: count)
            let x = (k % across) * tw
            let y = (k / across) * th
            let start = y * stride + x * spp
            let capacity = ours.count - start
            let header = try bytes.withUnsafeBytes { (raw) throws(DaguerreError) in
                try ours.withUnsafeMutableBufferPointer { (dst) throws(DaguerreError) in
                    try LosslessJPEG.decode(raw, into: dst.baseAddress! + start, rowStride: stride, capacity: capacity)
                }
            }
            #expect(header.width == tw && header.height == th && header.components == spp && header.precision == 8)
        }
        // LibRaw maps samples through the LinearizationTable; so do we, for the comparison.
        var mismatches = 0
        for p in 0..<width * height {
            for c in 0..<spp where curve[min(Int(ours[p * spp + c]), curve.count - 1)] != Int(reference[p * 4 + c]) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    /// One DNG for LibRaw. Restarts only with predictor 1: LibRaw (like dcraw) keeps the 2-D
    /// predictor on the first row after a restart, where T.81 and Adobe's SDK use predictor 1.
    struct LibRawCase: Sendable, CustomTestStringConvertible {
        var predictor: Int, precision: Int, components: Int, restartRows: Int
        var testDescription: String { "predictor \(predictor), \(precision)-bit, \(components) components, restart \(restartRows)" }
    }

    @Test(
        "Our tiles in a minimal DNG read back exactly through LibRaw",
        arguments: [
            LibRawCase(predictor: 1, precision: 14, components: 2, restartRows: 0),
            LibRawCase(predictor: 1, precision: 12, components: 1, restartRows: 0),
            LibRawCase(predictor: 1, precision: 16, components: 4, restartRows: 0),
            LibRawCase(predictor: 1, precision: 14, components: 2, restartRows: 8),
        ]
            + (2...7).map { LibRawCase(predictor: $0, precision: 14, components: 2, restartRows: 0) })
    func ourTilesThroughLibRaw(_ c: LibRawCase) throws {
        let (predictor, precision, components, restartRows) = (c.predictor, c.precision, c.components, c.restartRows)
        let dir = try TemporaryDirectory()
        // 3×2 tiles, the bottom ones padded. Not 2 tiles across: LibRaw reads a frame's rows twice as
        // long when its components × samples per row equal the image width (`jh.clrs * jwide ==
        // raw_width` in lossless_dng_load_raw, a camera quirk), which 2 × 256 = 512 would trip.
        let width = 768
        let height = 384
        let tile = 256
        var image = Samples.bayer(width: width, height: height, seed: UInt64(predictor))
        if precision != 14 { image = image.map { precision > 14 ? $0 << UInt16(precision - 14) : $0 >> UInt16(14 - precision) } }
        var tilePaths: [String] = []
        for ty in 0..<2 {
            for tx in 0..<3 {
                // DNG tiles are full size: pad the bottom row of tiles by repeating the last row.
                var padded = [UInt16](repeating: 0, count: tile * tile)
                for y in 0..<tile {
                    let sy = min(ty * tile + y, height - 1)
                    for x in 0..<tile { padded[y * tile + x] = image[sy * width + tx * tile + x] }
                }
                let bytes = try encode(
                    padded, width: tile / components, height: tile, components: components,
                    precision: precision, predictor: predictor, restartRows: restartRows)
                let p = dir.path("tile\(ty)\(tx).ljpg")
                try Data(bytes).write(to: URL(fileURLWithPath: p))
                tilePaths.append(p)
            }
        }
        let spec: [String: Any] = [
            "width": width, "height": height, "tileWidth": tile, "tileLength": tile,
            "bitsPerSample": precision, "whiteLevel": (1 << precision) - 1, "tiles": tilePaths,
        ]
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: dir.path("spec.json")))
        let (meta, reference) = try libraw(["write", dir.path("spec.json"), dir.path("t.dng"), dir.path("t.raw")], raw: dir.path("t.raw"))
        #expect(meta["rawShape"] as? [Int] == [height, width])
        #expect(differing(reference, image) == 0, "LibRaw disagrees: predictor \(predictor), \(precision)-bit, \(components) components")
    }

    @Test(
        "ffmpeg's lossless JPEG (another encoder: 9-bit RGB, two tables, APP0/COM, DHT before SOF3) decodes as ffmpeg does",
        arguments: 1...3)
    func ffmpegStreams(predictor: Int) throws {
        let dir = try TemporaryDirectory()
        let stream = dir.path("ff.ljpg")
        let raw = dir.path("ff.raw")
        // Noisy test pattern at an odd size; ffmpeg's -pred is the T.81 predictor number (1–3 only).
        try Judge.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                "-i", "testsrc=size=61x37,noise=alls=60:allf=t+u,format=bgr24", "-frames:v", "1",
                "-c:v", "ljpeg", "-pix_fmt", "bgr24", "-pred", "\(predictor)", "-f", "image2", stream,
            ])
        try Judge.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-y", "-f", "mjpeg", "-i", stream,
                "-f", "rawvideo", "-pix_fmt", "bgr24", raw,
            ])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stream)))
        let reference = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let (header, samples) = try decode(bytes)
        #expect(header.width == 61 && header.height == 37 && header.components == 3)
        #expect(header.precision == 9 && header.predictor == predictor)
        #expect(reference.count == 61 * 37 * 3)
        // ffmpeg codes differences modulo 2^9 where T.81 says 2^16; with predictors 1–3 (plain
        // selections) the two agree modulo 2^9. Then its reversible colour transform, undone:
        // Y = (B + 2G + R) >> 2, Cb = B − G + 256, Cr = R − G + 256.
        var mismatches = 0
        for p in 0..<min(61 * 37, reference.count / 3) {
            let y = Int(samples[3 * p] & 511)
            let cb = Int(samples[3 * p + 1] & 511)
            let cr = Int(samples[3 * p + 2] & 511)
            let g = y - ((cb + cr - 512) >> 2)
            let bgr = [cb + g - 256, g, cr + g - 256]
            for c in 0..<3 where bgr[c] != Int(reference[3 * p + c]) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test("The other third-party DNGs hold no lossless JPEG raw data, and are refused clearly")
    func otherThirdPartyDNGs() throws {
        let dir = try TemporaryDirectory()
        // photoprism_canon_eos_6d.dng: the raw image is lossy JPEG (Compression 34892, SOF0 tiles).
        let canon = Fixture.thirdParty.appendingPathComponent("photoprism_canon_eos_6d.dng").path
        let (meta, _) = try libraw(["read", canon, dir.path("c.raw")], raw: dir.path("c.raw"))
        let ifd = try #require(meta["ifd"] as? [String: Any])
        #expect(ifd["compression"] as? Int == 34892)
        let offsets = try #require(ifd["offsets"] as? [Int])
        let counts = try #require(ifd["byteCounts"] as? [Int])
        let tile = try fileBytes(canon, offset: offsets[0], count: counts[0])
        expectDaguerreError(
            "a lossy DNG tile", { if case .unsupported(let feature, _) = $0 { return feature.contains("SOF0") } else { return false } }
        ) {
            _ = try tile.withUnsafeBytes { (raw) throws(DaguerreError) in try LosslessJPEG.readHeader(raw) }
        }
        // exiftool_t_DNG.dng: Compression 7, but its one tile is 22 bytes of "<Dummy raw image data>".
        let exif = Fixture.thirdParty.appendingPathComponent("exiftool_t_DNG.dng").path
        let (exifMeta, _) = try libraw(["read", exif, dir.path("e.raw")], raw: dir.path("e.raw"))
        let exifIFD = try #require(exifMeta["ifd"] as? [String: Any])
        #expect(exifIFD["compression"] as? Int == 7 && exifIFD["byteCounts"] as? [Int] == [22])
        let dummy = try fileBytes(exif, offset: (exifIFD["offsets"] as? [Int] ?? [0])[0], count: 22)
        #expect(String(decoding: dummy, as: UTF8.self) == "<Dummy raw image data>")
        expectDaguerreError("placeholder bytes", { $0.isCorrupt }) {
            _ = try dummy.withUnsafeBytes { (raw) throws(DaguerreError) in try LosslessJPEG.readHeader(raw) }
        }
    }
}

@Suite("Lossless JPEG on hostile input")
struct LosslessJPEGHostileTests {
    private static let width = 24, height = 10, components = 2

    private static func sample() throws -> (samples: [UInt16], bytes: [UInt8]) {
        let samples = Samples.gradient(width: width, height: height, components: components, precision: 14, seed: 77)
        return (samples, try encode(samples, width: width, height: height, components: components, precision: 14, restartRows: 4))
    }

    /// Decodes with a guard zone after the capacity: the decoder may throw, but must not write past it.
    private func decodeGuarded(_ bytes: [UInt8], capacity: Int) -> Result<LosslessJPEGHeader, DaguerreError> {
        var buffer = [UInt16](repeating: 0x5A5A, count: capacity + 256)
        let result = bytes.withUnsafeBytes { raw in
            buffer.withUnsafeMutableBufferPointer { dst in
                Result { () throws(DaguerreError) in
                    try LosslessJPEG.decode(raw, into: dst.baseAddress!, rowStride: Self.width * Self.components, capacity: capacity)
                }
            }
        }
        #expect(buffer[capacity...].allSatisfy { $0 == 0x5A5A }, "wrote past the capacity")
        return result
    }

    @Test("A stream cut at every length throws (.truncated or .corruptData), never traps")
    func truncation() throws {
        let (samples, bytes) = try Self.sample()
        let capacity = samples.count
        let entropyEnd = bytes.count - 2  // everything but EOI
        for length in 0..<bytes.count {
            let result = decodeGuarded(Array(bytes.prefix(length)), capacity: capacity)
            switch result {
            case .success:
                #expect(length >= entropyEnd, "a stream cut at \(length) of \(bytes.count) bytes decoded")
            case .failure(let error):
                #expect(error.isTruncated || error.isCorrupt, "cut at \(length): \(error)")
                #expect(length < entropyEnd)
            }
        }
    }

    @Test("Thousands of seeded random byte flips throw or decode, never trap or overrun")
    func byteFlips() throws {
        let (samples, bytes) = try Self.sample()
        var rng = SeededRandom(seed: 0x1_7E6)
        var outcomes: [String: Int] = [:]
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                // Half the flips land in the header (about 60 bytes), where the lengths and counts are.
                let limit = Bool.random(using: &rng) ? 64 : damaged.count
                damaged[Int.random(in: 0..<limit, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            // Sometimes the capacity is generous, so damaged dimensions are decoded rather than refused.
            let capacity = Bool.random(using: &rng) ? samples.count : 1 << 16
            switch decodeGuarded(damaged, capacity: capacity) {
            case .success: outcomes["decoded", default: 0] += 1
            case .failure(let error): outcomes[String(String(describing: error).prefix(24)), default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 3000)
        #expect(outcomes.count > 3, "\(outcomes)")
    }

    @Test("A tile pair with one stream cut or flipped throws or decodes, never traps or overruns")
    func pairDamage() throws {
        let samples = Samples.gradient(width: Self.width, height: Self.height, components: Self.components, precision: 14, seed: 78)
        let whole = try encode(samples, width: Self.width, height: Self.height, components: Self.components, precision: 14)
        let entropyEnd = whole.count - 2
        for length in stride(from: entropyEnd - 40, to: whole.count, by: 1) {
            let cut = Array(whole.prefix(length))
            for (first, second) in [(whole, cut), (cut, whole)] {
                switch decodePair(first, second) {
                case .success: #expect(length >= entropyEnd, "a pair with a stream cut at \(length) of \(whole.count) bytes decoded")
                case .failure(let error): #expect(error.isTruncated || error.isCorrupt, "cut at \(length): \(error)")
                }
            }
        }
        var rng = SeededRandom(seed: 0x9A1_2)
        for _ in 0..<1000 {
            var damaged = whole
            damaged[Int.random(in: 0..<damaged.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            _ = decodePair(whole, damaged)
        }
    }

    @Test("Hostile headers: huge and zero dimensions, missing tables, other JPEG processes, bad segments")
    func hostileHeaders() throws {
        let (samples, bytes) = try Self.sample()
        let sof = try #require(markerOffset(bytes, 0xC3))
        func patched(_ edit: (inout [UInt8]) -> Void) -> [UInt8] {
            var b = bytes
            edit(&b)
            return b
        }
        let capacity = samples.count

        // 65535×65535×4 → tooLarge before anything is written.
        var huge = try encode(Samples.noise(64, precision: 16, seed: 1), width: 4, height: 4, components: 4, precision: 16)
        let hugeSOF = try #require(markerOffset(huge, 0xC3))
        for k in 5...8 { huge[hugeSOF + k] = 0xFF }
        if case .failure(let error) = decodeGuarded(huge, capacity: capacity) {
            #expect(error.isTooLarge, "\(error)")
        } else {
            Issue.record("huge frame decoded")
        }
        huge = patched {
            $0[sof + 5] = 0xFF
            $0[sof + 6] = 0xFF
        }
        if case .failure(let error) = decodeGuarded(huge, capacity: capacity) {
            #expect(error.isTooLarge, "\(error)")
        } else {
            Issue.record("tall frame decoded")
        }
        // Height 0 (DNL) and width 0.
        let zeroHeight = patched {
            $0[sof + 5] = 0
            $0[sof + 6] = 0
        }
        if case .failure(let error) = decodeGuarded(zeroHeight, capacity: capacity) {
            #expect(error.isUnsupported, "\(error)")
        } else {
            Issue.record("height 0 decoded")
        }
        let zeroWidth = patched {
            $0[sof + 7] = 0
            $0[sof + 8] = 0
        }
        if case .failure(let error) = decodeGuarded(zeroWidth, capacity: capacity) {
            #expect(error.isCorrupt, "\(error)")
        } else {
            Issue.record("width 0 decoded")
        }
        // No DHT: the segment turned into a COM segment.
        let dht = try #require(markerOffset(bytes, 0xC4))
        let noTables = patched { $0[dht + 1] = 0xFE }
        if case .failure(let error) = decodeGuarded(noTables, capacity: capacity) {
            #expect(error.isCorrupt && error.message.contains("Huffman table"), "\(error)")
        } else {
            Issue.record("no DHT decoded")
        }
        // SOF0 and SOF1 in place of SOF3: refused by name.
        for (code, name) in [(UInt8(0xC0), "SOF0"), (0xC1, "SOF1"), (0xC2, "SOF2"), (0xCB, "SOF11")] {
            let other = patched { $0[sof + 1] = code }
            if case .failure(.unsupported(let feature, _)) = decodeGuarded(other, capacity: capacity) {
                #expect(feature.contains(name), "\(feature)")
            } else {
                Issue.record("\(name) not refused as unsupported")
            }
        }
        // Sampling factors 2×1.
        let subsampled = patched { $0[sof + 11] = 0x21 }
        if case .failure(let error) = decodeGuarded(subsampled, capacity: capacity) {
            #expect(error.isUnsupported, "\(error)")
        } else {
            Issue.record("2×1 sampling decoded")
        }
        // A DHT with an overfull code length; a DRI with a wrong length; a wrong RST number.
        let overfull = patched { $0[dht + 5] = 3 }  // three codes of length 1
        if case .failure(let error) = decodeGuarded(overfull, capacity: capacity) {
            #expect(error.isCorrupt, "\(error)")
        } else {
            Issue.record("overfull table decoded")
        }
        let dri = try #require(markerOffset(bytes, 0xDD))
        let badDRI = patched { $0[dri + 3] = 5 }
        if case .failure(let error) = decodeGuarded(badDRI, capacity: capacity) {
            #expect(error.isCorrupt || error.isTruncated, "\(error)")
        } else {
            Issue.record("bad DRI decoded")
        }
        let rst = try #require(markerOffset(bytes, 0xD0))
        let wrongRST = patched { $0[rst + 1] = 0xD3 }
        if case .failure(let error) = decodeGuarded(wrongRST, capacity: capacity) {
            #expect(error.isCorrupt, "\(error)")
        } else {
            Issue.record("wrong RST decoded")
        }
        // Not a JPEG; a row stride that is too small; a buffer one sample short.
        if case .failure(let error) = decodeGuarded(Array("not a jpeg".utf8), capacity: capacity) {
            #expect(error.isCorrupt)
        } else {
            Issue.record("text decoded")
        }
        if case .failure(let error) = decodeGuarded(bytes, capacity: capacity - 1) {
            #expect(error.isTooLarge)
        } else {
            Issue.record("short buffer accepted")
        }
        var small = [UInt16](repeating: 0, count: capacity)
        expectDaguerreError("row stride", { $0.isTooLarge }) {
            _ = try bytes.withUnsafeBytes { (raw) throws(DaguerreError) in
                try small.withUnsafeMutableBufferPointer { (dst) throws(DaguerreError) in
                    try LosslessJPEG.decode(raw, into: dst.baseAddress!, rowStride: 10, capacity: capacity)
                }
            }
        }
    }
}
