import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

@Suite("Video helpers: Y'CbCr conversion, Annex B, avcC, media time, sample tables")
struct QuickTimeVideoTests {
    /// BT.709 video-range reference in Double.
    static func reference(_ r: Double, _ g: Double, _ b: Double) -> (y: Double, cb: Double, cr: Double) {
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return (16 + 219 * y / 255, 128 + 224 * (b - y) / 1.8556 / 255, 128 + 224 * (r - y) / 1.5748 / 255)
    }

    @Test(
        "RGBA, BGRA and RGB frames convert within one code value of the BT.709 formula; grey stays neutral",
        arguments: [PixelFormat.rgba8, .bgra8, .rgb8])
    func conversion(format: PixelFormat) throws {
        let w = 34
        let h = 6
        var rng = SeededRandom(seed: 709)
        var buffer = try PixelBuffer(width: w, height: h, format: format)
        var rgb = [[Double]](repeating: [0, 0, 0], count: w * h)
        let rb = buffer.bytesPerRow
        let n = format.channels
        let (ri, gi, bi) = format == .bgra8 ? (2, 1, 0) : (0, 1, 2)
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<h {
                for x in 0..<w {
                    // Rows 0 and 1 (chroma row 0): greys; the rest random.
                    let v = (0..<3).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    let c = y < 2 ? [v[0], v[0], v[0]] : v
                    raw[y * rb + n * x + ri] = c[0]
                    raw[y * rb + n * x + gi] = c[1]
                    raw[y * rb + n * x + bi] = c[2]
                    if n == 4 { raw[y * rb + n * x + 3] = 255 }
                    rgb[y * w + x] = c.map(Double.init)
                }
            }
        }
        let yuv = try YCbCrConversion.makeYCbCr420(from: buffer)
        var worst = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let ref = Self.reference(rgb[y * w + x][0], rgb[y * w + x][1], rgb[y * w + x][2])
                worst = max(worst, abs(Double(yuv.luma[y * w + x]) - ref.y))
            }
        }
        for y in 0..<(h / 2) {
            for x in 0..<(w / 2) {
                var m = [0.0, 0.0, 0.0]
                for (dy, dx) in [(0, 0), (0, 1), (1, 0), (1, 1)] { for k in 0..<3 { m[k] += rgb[(2 * y + dy) * w + 2 * x + dx][k] / 4 } }
                let ref = Self.reference(m[0], m[1], m[2])
                worst = max(worst, abs(Double(yuv.cb[y * w / 2 + x]) - ref.cb), abs(Double(yuv.cr[y * w / 2 + x]) - ref.cr))
                if y == 0 { #expect(yuv.cb[x] == 128 && yuv.cr[x] == 128, "grey must have neutral chroma") }
            }
        }
        #expect(worst <= 0.51, "largest difference from the formula: \(worst)")
        // Black and white hit the video-range ends exactly, and back again.
        var bw = try PixelBuffer(width: 2, height: 2, format: format)
        bw.withUnsafeMutableBytes { raw in for i in 0..<(n * 2) { raw[i] = 255 } }
        let f = try YCbCrConversion.makeYCbCr420(from: bw)
        #expect(f.luma == [235, 235, 16, 16])
        let back = try YCbCrConversion.makeRGBA(from: f)
        back.withUnsafeBytes { raw in #expect(raw[0] == 255 && raw[1] == 255 && raw[2] == 255) }
    }

    @Test(
        "Y'CbCr into a BGRA8 buffer: makeRGBA's bytes with red and blue swapped, alpha 255, the buffer's tags kept (video and full range, BT.709 and BT.601)",
        arguments: [false, true])
    func intoBGRA(fullRange: Bool) throws {
        let w = 34
        let h = 6
        var rng = SeededRandom(seed: 420)
        for matrix: UInt16 in [1, 6] {
            let props = VideoColorProperties(primaries: 1, transfer: 1, matrix: matrix)
            let frame = try PlanarYCbCr420Buffer(
                width: w, height: h, luma: (0..<(w * h)).map { _ in UInt8.random(in: 0...255, using: &rng) },
                cb: (0..<(w * h / 4)).map { _ in UInt8.random(in: 0...255, using: &rng) },
                cr: (0..<(w * h / 4)).map { _ in UInt8.random(in: 0...255, using: &rng) },
                colorProperties: props, fullRange: fullRange)
            let rgba = try YCbCrConversion.makeRGBA(from: frame)
            var bgra = try PixelBuffer(width: w, height: h, format: .bgra8, colorSpace: .displayP3)
            try YCbCrConversion.convert(frame, into: &bgra)
            #expect(bgra.colorSpace == .displayP3 && bgra.alpha == .premultiplied, "tags are the buffer's own")
            var same = true
            rgba.withUnsafeBytes { r in
                bgra.withUnsafeBytes { b in
                    for y in 0..<h {
                        for x in 0..<w {
                            let i = y * rgba.bytesPerRow + 4 * x
                            let o = y * bgra.bytesPerRow + 4 * x
                            same =
                                same && b[o] == r[i + 2] && b[o + 1] == r[i + 1] && b[o + 2] == r[i] && b[o + 3] == 255 && r[i + 3] == 255
                        }
                    }
                }
            }
            #expect(same, "matrix \(matrix)")
        }
        var rgb = try PixelBuffer(width: w, height: h, format: .rgb8)
        #expect(throws: DaguerreError.self) {
            try YCbCrConversion.convert(try PlanarYCbCr420Buffer(width: w, height: h), into: &rgb)
        }
    }

    @Test("Annex B to length-prefixed and back; avcC serialises and parses")
    func annexBAndAvcC() throws {
        let stream: [UInt8] = [0, 0, 0, 1, 0x67, 0x64, 0, 0x1F, 0xAC, 0, 0, 1, 0x68, 0xEE, 0x3C, 0x80, 0, 0, 0, 1, 0x65, 0x88, 0x84, 0x00]
        let nals = AnnexB.nalUnits(in: stream)
        #expect(nals.map { AnnexB.type(of: $0) } == [7, 8, 5])
        #expect(nals[2] == [0x65, 0x88, 0x84])  // the trailing zero is the next start code's, or padding
        let sample = AnnexB.lengthPrefixed([nals[2]])
        #expect(sample == [0, 0, 0, 3, 0x65, 0x88, 0x84])
        #expect(AnnexB.nalUnits(inLengthPrefixed: sample) == [nals[2]])
        #expect(AnnexB.nalUnits(inLengthPrefixed: [0, 0, 0, 9, 1]) == nil)
        let config = try AVCDecoderConfiguration(sequenceParameterSets: [nals[0]], pictureParameterSets: [nals[1]])
        #expect(config.profile == 0x64 && config.level == 0x1F && config.chromaFormat == 1)
        #expect(try AVCDecoderConfiguration(parsing: config.serialized()) == config)
        expectDaguerreError("empty avcC", { $0.isCorrupt }) { _ = try AVCDecoderConfiguration(parsing: []) }
    }

    @Test("Media time: conversion rounds to the nearest tick, comparison is exact")
    func mediaTime() {
        #expect(MediaTime(seconds: 1.5).value == 900)
        #expect(MediaTime(value: 900, timescale: 600).converted(to: 44_100).value == 66_150)
        #expect(MediaTime(value: 1, timescale: 3).converted(to: 600).value == 200)
        #expect(MediaTime(value: 1, timescale: 44_100).converted(to: 600).value == 0)
        #expect(MediaTime(value: 1, timescale: 2) == MediaTime(value: 300, timescale: 600))
        #expect(MediaTime(value: 299, timescale: 600) < MediaTime(value: 1, timescale: 2))
        #expect(MediaTime(value: Int64.max, timescale: 1).converted(to: 600).value == Int64.max)
        #expect(MediaTime(seconds: .nan).value == 0)
    }

    @Test("The writer's sample tables: PCM as one run and one size, chunks split at track changes")
    func tables() throws {
        let writer = try MovieWriter(fileType: .quickTimeMovie)
        let audio = try writer.addAudioTrack(AudioTrackFormat(codec: .linearPCM16, sampleRate: 8000, channels: 2))
        let meta = try writer.addTimedMetadataTrack(.stillImageTime)
        try writer.append(pcm: [Int16](repeating: 7, count: 2000), to: audio)
        try writer.append(sample: TimedMetadataTrackFormat.sample([(1, [0xFF])]), to: meta, duration: 1)
        try writer.append(pcm: [Int16](repeating: -7, count: 400), to: audio)
        try writer.setEdit(of: meta, startTime: MediaTime(value: 7, timescale: 600))
        let info = try writer.finish()
        #expect(info.tracks[0].sampleCount == 1200 && info.tracks[0].dataBytes == 4800)
        let movie = try MovieReader(data: writer.data)
        let a = movie.tracks[0]
        #expect(a.sampleCount == 1200)
        #expect(a.sampleTable.chunkOffsets.count == 2 && a.sampleTable.sizes.isEmpty && a.sampleTable.sttsDelta == [1])
        #expect(try movie.pcm16Samples(track: a.id) == [Int16](repeating: 7, count: 2000) + [Int16](repeating: -7, count: 400))
        #expect(try movie.stillImageTime() == MediaTime(value: 7, timescale: 600))
        #expect(movie.tracks[1].startTime == MediaTime(value: 7, timescale: 600))
    }
}
