import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

/// ffmpeg and ffprobe, the judges of these tests, are on the PATH.
private let hasFFmpeg = ["ffmpeg", "ffprobe"].allSatisfy { tool in
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
}

@Suite(
    "HEVC: movies written with x265 ('hvc1' + hvcC) and read back; iPhone HDR HEVC and ffmpeg's libx265 movies decoded, judged by ffmpeg",
    .enabled(if: hasFFmpeg, "ffmpeg and ffprobe are missing: they judge these tests (scripts/setup installs them)"))
struct HEVCTests {
    static let iPhoneHDR = Fixture.thirdParty.appendingPathComponent("media3_iphone14pro_dolbyvision_hdr.mov").path

    /// PSNR in dB of the R, G, B of two RGBA buffers of one size and depth (8 or 16 bits) against
    /// `reference`, a packed RGB array of the same depth (rgb24 or rgb48le, as ffmpeg writes them),
    /// or a second buffer.
    static func psnr(_ a: PixelBuffer, _ reference: [UInt16], peak: Double) -> Double {
        guard reference.count == a.width * a.height * 3 else { return 0 }
        var sum = 0.0
        let deep = a.format == .rgba16
        a.withUnsafeBytes { pa in
            for y in 0..<a.height {
                let row = y * a.bytesPerRow
                for x in 0..<a.width {
                    for c in 0..<3 {
                        let i = row + (deep ? 8 * x + 2 * c : 4 * x + c)
                        let v = deep ? Double(UInt16(pa[i]) | UInt16(pa[i + 1]) << 8) : Double(pa[i])
                        let d = v - Double(reference[(y * a.width + x) * 3 + c])
                        sum += d * d
                    }
                }
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? 99 : 10 * log10(peak * peak / mse)
    }

    /// The RGB of an RGBA8 buffer, packed (a source frame as a reference for ``psnr(_:_:peak:)``).
    static func packedRGB(_ b: PixelBuffer) -> [UInt16] {
        var out: [UInt16] = []
        out.reserveCapacity(b.width * b.height * 3)
        b.withUnsafeBytes { p in
            for y in 0..<b.height {
                for x in 0..<b.width { for c in 0..<3 { out.append(UInt16(p[y * b.bytesPerRow + 4 * x + c])) } }
            }
        }
        return out
    }

    /// ffmpeg's decode of the first `frames` frames of the media (edit list ignored, as
    /// `decodeFrames` counts them) as packed RGB (rgb24 or rgb48le), unrotated,
    /// converted with `matrix` at video range, chroma upsampled by nearest neighbour like ours.
    static func ffmpegRGB(_ path: String, frames: Int, matrix: String, deep: Bool, in dir: TemporaryDirectory) throws -> [[UInt16]] {
        let raw = dir.path("ffmpeg-\(deep ? 48 : 24).rgb")
        try Judge.run(
            "ffmpeg",
            [
                "-v", "error", "-ignore_editlist", "1", "-noautorotate", "-i", path, "-frames:v", "\(frames)", "-fps_mode", "passthrough",
                "-vf",
                "scale=in_color_matrix=\(matrix):in_range=tv:out_range=pc:flags=neighbor+accurate_rnd+full_chroma_int",
                "-pix_fmt", deep ? "rgb48le" : "rgb24", "-f", "rawvideo", "-y", raw,
            ])
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let samples: [UInt16] =
            deep ? stride(from: 0, to: data.count - 1, by: 2).map { UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8 } : data.map(UInt16.init)
        let per = samples.count / max(1, frames)
        return (0..<frames).map { Array(samples[($0 * per)..<(($0 + 1) * per)]) }
    }

    @Test(
        "Recorded as HEVC: ffprobe says hevc/hvc1 640×480, 30 frames, rotation −90; ffmpeg decodes it silently; hvcC from the SPS; no reordering; our decode ≥ 40 dB against the frames fed in"
    )
    func recorded() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("hevc.mov")
        let (w, h, n) = (640, 480, 30)
        let source = try MovieFixture.Source(width: w, height: h, frames: n)
        var settings = MovieSettings(width: w, height: h, bitRate: 4_000_000, videoCodec: .hevc, encoderPreset: "ultrafast")
        settings.transform = try TrackTransform(rotation: 90, width: w, height: h)
        let info = try MovieFixture.record(path, source: source, frames: n, settings: settings)
        #expect(info.tracks.map(\.codec) == ["hvc1"])

        let video = try #require(try MovieProbe(path).video)
        print(
            "HEVC ffprobe:",
            ["codec_name", "codec_tag_string", "profile", "width", "height", "nb_frames", "bit_rate", "pix_fmt"].map {
                "\($0)=\(video[$0] ?? "-")"
            }.joined(separator: " "))
        #expect(video["codec_name"] as? String == "hevc" && video["codec_tag_string"] as? String == "hvc1")
        #expect(video["profile"] as? String == "Main" && video["pix_fmt"] as? String == "yuv420p")
        #expect(video["width"] as? Int == w && video["height"] as? Int == h)
        #expect(video["nb_frames"] as? String == "\(n)")
        #expect(try TrackTransformTests.ffprobeRotation(path) == -90)
        #expect(try Judge.ffmpegDecodeMessages(path).isEmpty)

        let movie = try MovieReader(path: path)
        let track = try #require(movie.tracks.first)
        #expect(track.codec == "hvc1" && track.transform.rotation == 90)
        guard case .hevc(let config) = track.decoderConfiguration else {
            Issue.record("no hvcC configuration: \(String(describing: track.decoderConfiguration))")
            return
        }
        #expect(config.profile == 1 && config.chromaFormat == 1 && config.bitDepthLuma == 8 && config.bitDepthChroma == 8)
        #expect(config.nalLengthSize == 4 && config.level > 0)
        let setCounts: [Int] = [config.videoParameterSets.count, config.sequenceParameterSets.count, config.pictureParameterSets.count]
        #expect(setCounts == [1, 1, 1])
        #expect(try HEVCDecoderConfiguration(parsing: config.serialized()) == config)
        let samples = (0..<track.sampleCount).compactMap { track.sample(at: $0) }
        #expect(samples.count == n)
        #expect(samples.allSatisfy { $0.presentationTime == $0.decodeTime && $0.duration == 40 }, "no composition offsets")
        #expect(samples.filter(\.isSync).map(\.index) == [0, 15], "closed GOPs, an IDR each second")
        let inBand = try (0..<n).flatMap { i in
            (AnnexB.nalUnits(inLengthPrefixed: try movie.sampleData(track: track.id, index: i)) ?? []).map {
                HEVCDecoderConfiguration.nalType(of: $0)
            }
        }
        #expect(Set(inBand).isDisjoint(with: [32, 33, 34]), "parameter sets only in hvcC: \(Set(inBand))")

        var psnr: [Double] = []
        try movie.decodeFrames(track: track.id, range: 0..<n) { (i, frame) throws(DaguerreError) in
            guard frame.format == .rgba8, frame.width == w, frame.height == h, let source = try? source.frame(i) else {
                psnr.append(0)
                return
            }
            psnr.append(Self.psnr(frame, Self.packedRGB(source), peak: 255))
        }
        print(
            "HEVC recorded: RGB PSNR of our decode against the source, min \(String(format: "%.2f", psnr.min() ?? 0)) dB over \(psnr.count) frames"
        )
        #expect(psnr.count == n)
        #expect(psnr.allSatisfy { $0 >= 40 }, "\(psnr)")
        SampleFiles.keep(path, as: "hevc-rotated.mov")
    }

    @Test(
        "At the Live Photo settings (1440×1080, 15 fps, 7 Mbit/s, ultrafast) over photographs: rate control near the target, luma PSNR as ffmpeg decodes it"
    )
    func livePhotoSettings() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("live-hevc.mov")
        let source = try MovieFixture.Source(width: 1440, height: 1080, frames: 45, kodak: H264EncoderTests.photographs)
        var settings = QuickTimeWriterTests.liveSettings()
        settings.videoCodec = .hevc
        let started = Date()
        try MovieFixture.record(path, source: source, frames: 45, settings: settings)
        let seconds = Date().timeIntervalSince(started)
        let video = try #require(try MovieProbe(path).video)
        let bitRate = Double(video["bit_rate"] as? String ?? "") ?? 0
        let raw = dir.path("decoded.yuv")
        try Judge.run("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        let decoded = try Data(contentsOf: URL(fileURLWithPath: raw))
        let frameBytes = 1440 * 1080 * 3 / 2
        #expect(decoded.count == 45 * frameBytes)
        var luma: [Double] = []
        for i in stride(from: 0, to: 45, by: 4) where decoded.count >= (i + 1) * frameBytes {
            let fed = try YCbCrConversion.makeYCbCr420(from: try source.frame(i))
            luma.append(
                decoded.withUnsafeBytes { d in
                    fed.luma.withUnsafeBytes {
                        H264EncoderTests.psnr(UnsafeRawBufferPointer(rebasing: d[(i * frameBytes)...]), $0, count: 1440 * 1080)
                    }
                })
        }
        let mean = luma.reduce(0, +) / Double(max(1, luma.count))
        print(
            "HEVC Live Photo settings: \(String(format: "%.2f", bitRate / 1e6)) Mbit/s, luma PSNR min \(String(format: "%.2f", luma.min() ?? 0)) dB mean \(String(format: "%.2f", mean)) dB, recorded in \(String(format: "%.2f", seconds)) s (debug build)"
        )
        #expect(bitRate > 3.5e6 && bitRate < 9e6, "rate control near the 7 Mbit/s target: \(bitRate)")
        #expect(luma.count == 12 && luma.allSatisfy { $0 > 40 }, "\(luma)")
    }

    @Test("The iPhone 14 Pro's HDR HEVC (Main 10, Dolby Vision 8.4, HLG) decodes to RGBA16 matching ffmpeg's rgb48 decode")
    func iPhoneHDR() throws {
        let movie = try MovieReader(path: Self.iPhoneHDR)
        let track = try #require(movie.tracks.first { $0.mediaType == .video })
        #expect(track.codec == "hvc1" && track.transform.rotation == 90)
        guard case .hevc(let config) = track.decoderConfiguration else {
            Issue.record("no hvcC configuration")
            return
        }
        #expect(config.profile == 2 && config.bitDepthLuma == 10 && config.bitDepthChroma == 10 && config.chromaFormat == 1)
        #expect(!config.videoParameterSets.isEmpty && !config.sequenceParameterSets.isEmpty && !config.pictureParameterSets.isEmpty)
        let frames = try movie.decodeFrames(track: track.id, range: 0..<track.sampleCount)
        #expect(frames.count == 5)
        #expect(frames.allSatisfy { $0.format == .rgba16 && $0.width == 1280 && $0.height == 720 && $0.colorSpace == .itur2020 })
        let dir = try TemporaryDirectory()
        let reference = try Self.ffmpegRGB(Self.iPhoneHDR, frames: frames.count, matrix: "bt2020", deep: true, in: dir)
        let psnr = zip(frames, reference).map { Self.psnr($0, $1, peak: 65535) }
        print("iPhone HDR HEVC: RGB48 PSNR against ffmpeg per frame \(psnr.map { String(format: "%.2f", $0) }) dB")
        #expect(psnr.count == 5 && psnr.allSatisfy { $0 >= 45 }, "\(psnr)")
    }

    @Test(
        "A movie from ffmpeg's libx265 (B-frames, rotate=90 metadata) decodes in presentation order matching ffmpeg, its rotation read by TrackTransform as ffprobe and exiftool read it"
    )
    func ffmpegLibx265() throws {
        let dir = try TemporaryDirectory()
        let encoded = dir.path("x265-upright.mov")
        let path = dir.path("x265.mov")
        try Judge.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15:d=1", "-c:v", "libx265", "-x265-params",
                "log-level=none", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-colorspace", "bt709", encoded,
            ])
        // ffmpeg 5.1 writes the rotate tag as a display matrix only when it copies the stream
        // (and has no -display_rotation): "rotate=90" is 90° counter-clockwise, 270° clockwise.
        try Judge.run("ffmpeg", ["-v", "error", "-i", encoded, "-c", "copy", "-metadata:s:v", "rotate=90", path])
        let movie = try MovieReader(path: path)
        let track = try #require(movie.tracks.first { $0.mediaType == .video })
        #expect(track.codec == "hvc1" && track.sampleCount == 15)
        #expect(track.transform.rotation == 270 && track.transform.exifOrientation == 8)
        #expect(try TrackTransformTests.ffprobeRotation(path) == TrackTransformTests.counterClockwise(270))
        #expect(try TrackTransformTests.exiftoolMatrix(path).rotation == 270)
        #expect(track.sampleTable.cttsOffset.contains { $0 != 0 }, "libx265's default B-frames reorder the samples")
        let frames = try movie.decodeFrames(track: track.id, range: 0..<15)
        let reference = try Self.ffmpegRGB(path, frames: 15, matrix: "bt709", deep: false, in: dir)
        let psnr = zip(frames, reference).map { Self.psnr($0, $1, peak: 255) }
        print(
            "ffmpeg libx265 movie: RGB PSNR against ffmpeg's decode min \(String(format: "%.2f", psnr.min() ?? 0)) dB over \(psnr.count) frames"
        )
        #expect(frames.count == 15 && psnr.allSatisfy { $0 >= 40 }, "\(psnr)")
        // A range in the middle starts at the sync sample before it and gives the same frames.
        let middle = try movie.decodeFrames(track: track.id, range: 5..<8)
        let bytes: (PixelBuffer) -> [UInt8] = { $0.withUnsafeBytes { Array($0) } }
        #expect(middle.map(bytes) == frames[5..<8].map(bytes))
    }

    @Test("Damaged hvcC records and parameter sets are typed errors, not crashes")
    func damagedRecords() throws {
        let encoder = try HEVCEncoder(settings: H264EncoderSettings(width: 64, height: 48, bitRate: 200_000))
        let good = encoder.decoderConfiguration.serialized()
        encoder.close()
        #expect(try HEVCDecoderConfiguration(parsing: good) == encoder.decoderConfiguration)
        let corrupt: (DaguerreError) -> Bool = { if case .corruptData = $0 { true } else { false } }
        for length in 0..<good.count {
            expectDaguerreError("hvcC cut to \(length) bytes", corrupt) {
                _ = try HEVCDecoderConfiguration(parsing: Array(good[..<length]))
            }
        }
        var version0 = good
        version0[0] = 0
        expectDaguerreError("version 0", corrupt) { _ = try HEVCDecoderConfiguration(parsing: version0) }
        var threeByteLengths = good
        threeByteLengths[21] = (threeByteLengths[21] & 0xFC) | 2
        expectDaguerreError("3-byte NAL lengths", corrupt) { _ = try HEVCDecoderConfiguration(parsing: threeByteLengths) }
        // The first array's first NAL unit given length 0 (array header 3 bytes after byte 22).
        var emptyUnit = good
        emptyUnit[26] = 0
        emptyUnit[27] = 0
        expectDaguerreError("an empty NAL unit", corrupt) { _ = try HEVCDecoderConfiguration(parsing: emptyUnit) }
        // The VPS array's type changed to an SEI array: no VPS left.
        var noVPS = good
        noVPS[23] = (noVPS[23] & 0xC0) | 39
        expectDaguerreError("no VPS", corrupt) { _ = try HEVCDecoderConfiguration(parsing: noVPS) }
        expectDaguerreError("no parameter sets", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try HEVCDecoderConfiguration(videoParameterSets: [], sequenceParameterSets: [], pictureParameterSets: [])
        }
        let config = encoder.decoderConfiguration
        expectDaguerreError("an SPS cut short", corrupt) {
            _ = try HEVCDecoderConfiguration(
                videoParameterSets: config.videoParameterSets, sequenceParameterSets: [Array(config.sequenceParameterSets[0].prefix(8))],
                pictureParameterSets: config.pictureParameterSets)
        }
        // Bytes flipped anywhere: parsed, or refused with a DaguerreError; never a crash. Then
        // whatever parses goes to libavcodec, which may refuse it, also as a typed error.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            do throws(DaguerreError) {
                let parsed = try HEVCDecoderConfiguration(parsing: bytes)
                let decoder = try VideoDecoder(configuration: .hevc(parsed))
                _ = try decoder.decode([0, 0, 0, 4, 0x26, 0x01, 0xAF, 0x00], presentationTime: 0) + decoder.flush()
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        // A movie whose hvcC is damaged: MovieReader refuses it with a typed error.
        let dir = try TemporaryDirectory()
        let path = dir.path("damaged.mov")
        var settings = MovieSettings(width: 64, height: 48, bitRate: 200_000, videoCodec: .hevc)
        settings.encoderThreads = 1
        try MovieFixture.record(path, source: try MovieFixture.Source(width: 64, height: 48, frames: 2), frames: 2, settings: settings)
        var file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let hvcC = try #require(Self.find(Array("hvcC".utf8), in: file))
        file[hvcC + 4] = 7  // configurationVersion
        expectDaguerreError("a movie with a damaged hvcC", corrupt) { _ = try MovieReader(data: file) }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
