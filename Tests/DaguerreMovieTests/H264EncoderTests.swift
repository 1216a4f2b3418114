import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

@Suite("H.264 encoders: x264 and OpenH264 behind one interface, judged by ffprobe, ffmpeg and our decoder")
struct H264EncoderTests {
    /// Each encoder's quality floors on the 45-frame Kodak pan at 7 Mbit/s: luma PSNR of every
    /// frame and of the mean, and RGB PSNR of every frame (4:2:0 chroma included), a few dB
    /// under what was measured (x264 `ultrafast`: luma 45.0 dB at worst, 48.2 mean, RGB 39.4 at
    /// worst; OpenH264: 37.4, 45.3 and 34.2, its worst the first key frame, before its rate
    /// control has seen a frame).
    static func floors(_ encoder: H264EncoderChoice) -> (luma: Double, meanLuma: Double, rgb: Double) {
        encoder == .x264 ? (42, 46, 37) : (35, 43, 32)
    }

    /// Detailed photographs (caps, motorbikes, windows, a river, rafting, parrots): the frames
    /// pan down over them, 8 rows a frame.
    static let photographs = [3, 5, 8, 13, 14, 23]

    /// Records the 45-frame Live Photo movie with `encoder`, over photographs (sRGB) or the
    /// synthetic bars (P3); returns its path and the source.
    static func record(_ encoder: H264EncoderChoice, in dir: TemporaryDirectory, colorSpace: ColorSpace = .sRGB, frames: Int = 45)
        throws -> (path: String, source: MovieFixture.Source)
    {
        let path = dir.path("\(encoder.rawValue).mov")
        let source =
            colorSpace == .sRGB
            ? try MovieFixture.Source(width: 1440, height: 1080, frames: frames, kodak: photographs)
            : try MovieFixture.Source(width: 1440, height: 1080, frames: frames, colorSpace: colorSpace)
        var settings = QuickTimeWriterTests.liveSettings(colorSpace: colorSpace)
        settings.encoder = encoder
        try MovieFixture.record(path, source: source, frames: frames, settings: settings)
        return (path, source)
    }

    /// ffmpeg's own parse of the parameter sets (the trace_headers bitstream filter): the first
    /// value of each syntax element, and how many SPS the stream carries (avcC's and any in band).
    static func headers(_ path: String) throws -> (fields: [String: Int], spsCount: Int) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffmpeg", "-v", "info", "-i", path, "-map", "0:v", "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let log = String(decoding: Judge.readToEnd(err.fileHandleForReading), as: UTF8.self)
        p.waitUntilExit()
        var fields: [String: Int] = [:]
        var spsCount = 0
        for line in log.split(separator: "\n") where line.hasPrefix("[trace_headers") {
            if line.hasSuffix("Sequence Parameter Set") { spsCount += 1 }
            let words = line.split(separator: " ")
            guard words.count >= 6, words[words.count - 2] == "=", let value = Int(words[words.count - 1]) else { continue }
            let name = String(words[4])
            if fields[name] == nil { fields[name] = value }
        }
        return (fields, spsCount)
    }

    /// PSNR in dB of two equal-sized luma planes.
    static func psnr(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int) -> Double {
        var sum = 0
        for i in 0..<count {
            let d = Int(a[i]) - Int(b[i])
            sum += d * d
        }
        return decibels(sum, count)
    }

    /// PSNR in dB of the RGB of two RGBA8 buffers of one size (alpha is 255 in both).
    static func rgbPSNR(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var sum = 0
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for y in 0..<a.height {
                    let ra = y * a.bytesPerRow
                    let rb = y * b.bytesPerRow
                    for i in 0..<(a.width * 4) where i % 4 != 3 {
                        let d = Int(pa[ra + i]) - Int(pb[rb + i])
                        sum += d * d
                    }
                }
            }
        }
        return decibels(sum, a.width * a.height * 3)
    }

    static func decibels(_ squaredErrors: Int, _ count: Int) -> Double {
        squaredErrors == 0 ? 99 : 10 * log10(255 * 255 / (Double(squaredErrors) / Double(max(1, count))))
    }

    @Test(
        "ffprobe sees h264 Constrained Baseline 1440×1080 at 15 fps, 45 frames; ffmpeg decodes it silently; the SPS is only in avcC, with the colour tags and 1:1 pixels; a key frame each second, no reordering",
        arguments: H264EncoderChoice.allCases)
    func judgedByFFmpeg(encoder: H264EncoderChoice) throws {
        let dir = try TemporaryDirectory()
        let (path, _) = try Self.record(encoder, in: dir)
        let probe = try MovieProbe(path)
        let video = try #require(probe.video)
        print(
            "\(encoder) ffprobe:",
            [
                "codec_name", "profile", "level", "width", "height", "r_frame_rate", "nb_frames", "bit_rate", "color_primaries",
                "color_range",
            ]
            .compactMap { k in video[k].map { "\(k)=\($0)" } }.joined(separator: " "))
        #expect(video["codec_name"] as? String == "h264")
        #expect(video["profile"] as? String == "Constrained Baseline", "ultrafast x264 and OpenH264 both code CAVLC without B-frames")
        #expect(video["width"] as? Int == 1440 && video["height"] as? Int == 1080)
        #expect(video["r_frame_rate"] as? String == "15/1" && video["avg_frame_rate"] as? String == "15/1")
        #expect(video["nb_frames"] as? String == "45" && video["duration"] as? String == "3.000000")
        #expect(video["has_b_frames"] as? Int == 0)
        let bitRate = Double(video["bit_rate"] as? String ?? "") ?? 0
        #expect(bitRate > 4e6 && bitRate < 9e6, "rate control near the 7 Mbit/s target: \(bitRate)")
        #expect(try Judge.ffmpegDecodeMessages(path).isEmpty)

        let (fields, spsCount) = try Self.headers(path)
        #expect(spsCount == 1, "the parameter sets are in avcC only, not repeated in the samples")
        #expect(fields["profile_idc"] == 66 && fields["constraint_set1_flag"] == 1)
        #expect(fields["entropy_coding_mode_flag"] == 0)
        #expect(fields["colour_primaries"] == 1 && fields["transfer_characteristics"] == 1 && fields["matrix_coefficients"] == 1)
        #expect(fields["video_full_range_flag"] == 0 && fields["aspect_ratio_idc"] == 1)

        let movie = try MovieReader(path: path)
        let track = try #require(movie.tracks.first)
        let samples = (0..<track.sampleCount).compactMap { track.sample(at: $0) }
        #expect(samples.count == 45)
        #expect(samples.allSatisfy { $0.duration == 40 && $0.presentationTime == $0.decodeTime }, "no composition offsets")
        #expect(samples.filter(\.isSync).map(\.index) == [0, 15, 30], "one IDR frame a second")
    }

    @Test(
        "Decoded by ffmpeg and by our H264Decoder, the movie matches the frames fed in above each encoder's PSNR floor",
        arguments: H264EncoderChoice.allCases)
    func quality(encoder: H264EncoderChoice) throws {
        let dir = try TemporaryDirectory()
        let (path, source) = try Self.record(encoder, in: dir)
        // Luma as ffmpeg decodes it, against the luma the recorder gave the encoder.
        let raw = dir.path("decoded.yuv")
        try Judge.run("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        let decoded = try Data(contentsOf: URL(fileURLWithPath: raw))
        let frameBytes = 1440 * 1080 * 3 / 2
        #expect(decoded.count == 45 * frameBytes)
        var lumaPSNR: [Double] = []
        var rgbPSNR: [Double] = []
        for i in stride(from: 0, to: 45, by: 4) {
            let fed = try YCbCrConversion.makeYCbCr420(from: try source.frame(i))
            let start = i * frameBytes
            lumaPSNR.append(
                decoded.withUnsafeBytes { d in
                    fed.luma.withUnsafeBytes { Self.psnr(UnsafeRawBufferPointer(rebasing: d[start...]), $0, count: 1440 * 1080) }
                })
        }
        let movie = try MovieReader(path: path)
        var kept: [(Int, PixelBuffer)] = []
        try movie.decodeFrames(track: 1, range: 0..<45) { (i, frame) throws(DaguerreError) in
            if i % 4 == 0 { kept.append((i, frame)) }
        }
        for (i, frame) in kept { rgbPSNR.append(Self.rgbPSNR(frame, try source.frame(i))) }
        print(
            "\(encoder): luma PSNR (ffmpeg) min \(String(format: "%.2f", lumaPSNR.min() ?? 0)) dB mean \(String(format: "%.2f", lumaPSNR.reduce(0, +) / Double(lumaPSNR.count))) dB;",
            "RGB PSNR (H264Decoder) min \(String(format: "%.2f", rgbPSNR.min() ?? 0)) dB over \(rgbPSNR.count) frames")
        #expect(rgbPSNR.count == 12, "our decoder gives every frame")
        let floors = Self.floors(encoder)
        #expect(lumaPSNR.allSatisfy { $0 > floors.luma }, "\(lumaPSNR)")
        #expect(lumaPSNR.reduce(0, +) / Double(lumaPSNR.count) > floors.meanLuma, "\(lumaPSNR)")
        #expect(rgbPSNR.allSatisfy { $0 > floors.rgb }, "\(rgbPSNR)")
    }

    @Test("OpenH264 in wide colour (W5): the SPS says P3 primaries (12) like the colr atom; frames decode tagged Display P3")
    func openH264DisplayP3() throws {
        let dir = try TemporaryDirectory()
        let (path, _) = try Self.record(.openH264, in: dir, colorSpace: .displayP3, frames: 15)
        let (fields, _) = try Self.headers(path)
        #expect(fields["colour_primaries"] == 12 && fields["transfer_characteristics"] == 1 && fields["matrix_coefficients"] == 1)
        #expect(try MovieProbe(path).video?["color_primaries"] as? String == "smpte432")
        let movie = try MovieReader(path: path)
        #expect(movie.tracks.first?.colorProperties == .displayP3)
        #expect(try movie.decodeFrames(track: 1, range: 14..<15).first?.colorSpace == .displayP3)
        SampleFiles.keep(path, as: "live-photo-openh264-p3.mov")
    }

    @Test(
        "The encoders directly: threads as slices, one sample per frame at once (OpenH264), decode order, settings refused with typed errors"
    )
    func encodersDirectly() throws {
        let source = try MovieFixture.Source(width: 320, height: 240, frames: 20)
        let frames = try (0..<20).map { try YCbCrConversion.makeYCbCr420(from: try source.frame($0)) }
        for threads in [1, 2, 0] {
            let settings = H264EncoderSettings(
                width: 320, height: 240, frameRate: 15, bitRate: 1_000_000, threads: threads, keyFrameInterval: 8)
            let encoder = try H264EncoderChoice.openH264.makeEncoder(settings)
            var samples: [EncodedVideoSample] = []
            for (i, frame) in frames.enumerated() {
                let out = try encoder.encode(frame, presentationTime: Int64(i) * 40)
                #expect(out.count == 1, "OpenH264 holds no frame back")
                samples += out
            }
            samples += try encoder.finish()
            #expect(samples.map(\.presentationTime) == (0..<20).map { Int64($0) * 40 })
            #expect(samples.map(\.decodeTime) == samples.map(\.presentationTime))
            #expect(samples.enumerated().filter(\.element.isKeyFrame).map(\.offset) == [0, 8, 16])
            let slices = samples.map { s in
                (AnnexB.nalUnits(inLengthPrefixed: s.data) ?? []).filter { [1, 5].contains(AnnexB.type(of: $0)) }.count
            }
            #expect(threads == 0 || slices.allSatisfy { $0 == threads }, "threads \(threads): slices per frame \(slices)")
            let types = Set(samples.flatMap { s in (AnnexB.nalUnits(inLengthPrefixed: s.data) ?? []).map { AnnexB.type(of: $0) } })
            #expect(types.isDisjoint(with: [7, 8]), "no parameter sets in samples: \(types)")
            #expect(throws: DaguerreError.self) { _ = try encoder.encode(frames[0], presentationTime: 9999) }
            // Our decoder takes the stream from avcC and the samples alone.
            let decoder = try VideoDecoder(configuration: encoder.trackConfiguration)
            var decoded = 0
            for s in samples { decoded += try decoder.decode(s.data, presentationTime: s.presentationTime).count }
            decoded += try decoder.flush().count
            #expect(decoded == 20)
        }
        for encoder in H264EncoderChoice.allCases {
            expectDaguerreError("\(encoder): odd width", { if case .invalidArgument = $0 { true } else { false } }) {
                _ = try encoder.makeEncoder(H264EncoderSettings(width: 321, height: 240))
            }
            expectDaguerreError("\(encoder): bit rate 1 bit/s", { if case .invalidArgument = $0 { true } else { false } }) {
                _ = try encoder.makeEncoder(H264EncoderSettings(width: 320, height: 240, bitRate: 1))
            }
            let open = try encoder.makeEncoder(H264EncoderSettings(width: 320, height: 240))
            expectDaguerreError("\(encoder): frame of another size", { if case .invalidArgument = $0 { true } else { false } }) {
                _ = try open.encode(try PlanarYCbCr420Buffer(width: 64, height: 48), presentationTime: 0)
            }
            open.close()
        }
        expectDaguerreError("OpenH264 above 60 fps", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try OpenH264Encoder(settings: H264EncoderSettings(width: 320, height: 240, frameRate: 120))
        }
        expectDaguerreError("OpenH264 below 16×16", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try OpenH264Encoder(settings: H264EncoderSettings(width: 8, height: 8))
        }
    }

    // Without libopenh264: the library hidden from a child run of this test binary (a private
    // mount namespace with /dev/null bound over the library file, so dlopen fails as on a
    // machine without the package). Needs root for the namespace; skipped elsewhere.

    /// Set in the child's environment: the library is hidden there.
    static let hiddenVariable = "DAGUERRE_TEST_OPENH264_HIDDEN"

    /// Whether this process may make a private mount namespace.
    static let canHideLibraries: Bool = {
        guard getuid() == 0, (try? Judge.run("unshare", ["-m", "true"])) != nil else { return false }
        return true
    }()

    @Test(
        "Without libopenh264 installed, choosing OpenH264 is an .unsupported error that names the package to install; x264 still records",
        .enabled(if: canHideLibraries, "needs root for a private mount namespace"))
    func openH264Missing() throws {
        // The library file this process loaded.
        _ = try OpenH264Encoder(settings: H264EncoderSettings(width: 64, height: 48))
        // Read to the end: /proc files say they are empty, and a single read gets one page.
        let maps = String(decoding: Judge.readToEnd(try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))), as: UTF8.self)
        let library = try #require(
            maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.first {
                $0.contains("libopenh264.so")
            })
        let binary = CommandLine.arguments[0]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "unshare", "-m", "sh", "-c",
            "mount --bind /dev/null \"$1\" && exec \"$2\" --testing-library swift-testing --filter openH264MissingChild",
            "sh", library, binary,
        ]
        p.environment = ProcessInfo.processInfo.environment.merging([Self.hiddenVariable: "1"]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let log = String(decoding: Judge.readToEnd(out.fileHandleForReading), as: UTF8.self)
        p.waitUntilExit()
        print(
            log.split(separator: "\n").filter { $0.contains("openH264MissingChild") || $0.contains("unsupported") }.joined(separator: "\n"))
        #expect(p.terminationStatus == 0, "the child run failed:\n\(log)")
        #expect(log.contains("Test run with 1 test"), "the child ran its test:\n\(log)")
    }

    @Test("(child of the test above) OpenH264 hidden", .enabled(if: ProcessInfo.processInfo.environment[hiddenVariable] == "1"))
    func openH264MissingChild() throws {
        var hint = ""
        expectDaguerreError(
            "OpenH264Encoder",
            {
                if case .unsupported(_, let h) = $0 { hint = h }
                return $0.isUnsupported
            }
        ) {
            _ = try OpenH264Encoder(settings: H264EncoderSettings(width: 64, height: 48))
        }
        print("openH264MissingChild: unsupported, hint: \(hint)")
        #expect(hint.contains("libopenh264") && hint.contains("apt install"), "the hint names the package: \(hint)")
        let dir = try TemporaryDirectory()
        expectDaguerreError("MovieRecorder with .openH264", { $0.isUnsupported }) {
            _ = try MovieRecorder(destination: dir.path("o.mov"), settings: MovieSettings(width: 64, height: 48, encoder: .openH264))
        }
        #expect(dir.contents().isEmpty)
        let source = try MovieFixture.Source(width: 64, height: 48, frames: 3)
        let info = try MovieFixture.record(dir.path("x.mov"), source: source, frames: 3, settings: MovieSettings(width: 64, height: 48))
        #expect(info.tracks.first?.sampleCount == 3, "x264 records without OpenH264")
    }
}
