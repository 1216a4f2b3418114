import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

@Suite("Audio read as 16-bit PCM: AAC decoded by libavcodec, iPhone LPCM, edit lists applied; judged by ffmpeg")
struct AACDecoderTests {
    /// ffmpeg's decode of the first audio stream as interleaved s16le at the stream's own rate
    /// and channels (no resampling), edit list applied as its demuxer applies it.
    static func ffmpegPCM(_ path: String, channels: Int, rate: Int) throws -> [Int16] {
        let dir = try TemporaryDirectory()
        let raw = dir.path("audio.raw")
        try Judge.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-f", "s16le", "-ac", "\(channels)", "-ar", "\(rate)", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { b in
            (0..<(data.count / 2)).map { Int16(littleEndian: b.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) }
        }
    }

    /// Largest absolute difference and PSNR (full scale 32767) over the common length.
    static func compare(_ a: [Int16], _ b: [Int16]) -> (maxDiff: Int, psnr: Double) {
        let n = min(a.count, b.count)
        var maxDiff = 0
        var sse = 0.0
        for i in 0..<n {
            let d = Int(a[i]) - Int(b[i])
            maxDiff = max(maxDiff, abs(d))
            sse += Double(d * d)
        }
        let mse = sse / Double(max(1, n))
        return (maxDiff, mse == 0 ? .infinity : 10 * log10(32767.0 * 32767.0 / mse))
    }

    static func ffprobeAudio(_ path: String) throws -> (duration: Double, rate: Int, channels: Int) {
        let a = try #require(try MovieProbe(path).audio)
        return (
            Double(a["duration"] as? String ?? "") ?? .nan, Int(a["sample_rate"] as? String ?? "") ?? 0, a["channels"] as? Int ?? 0
        )
    }

    @Test("iPhone 14 Pro AAC (esds in the QuickTime 'wave' atom, 2112 priming frames skipped by the edit list) equals ffmpeg's decode")
    func iPhoneAAC() throws {
        let path = Fixture.thirdParty.appendingPathComponent("media3_iphone14pro_dolbyvision_hdr.mov").path
        let movie = try MovieReader(path: path)
        let audio = try #require(movie.tracks.first { $0.mediaType == .audio })
        #expect(audio.codec == "mp4a" && audio.channels == 2 && audio.sampleRate == 44_100)
        // AAC-LC (object type 2), 44.1 kHz (index 4), stereo: 0x12 0x10.
        let config = try #require(audio.audioSpecificConfig)
        #expect(Array(config.prefix(2)) == [0x12, 0x10])
        #expect(audio.edits.first?.mediaTime == 2112)

        let ours = try movie.pcm16Samples(track: audio.id)
        let all = try movie.pcm16Samples(track: audio.id, applyingEdits: false)
        let probe = try Self.ffprobeAudio(path)
        let reference = try Self.ffmpegPCM(path, channels: 2, rate: 44_100)
        let (maxDiff, psnr) = Self.compare(ours, reference)
        print(
            "iPhone 14 Pro AAC: ours \(ours.count / 2) frames (\(all.count / 2) with priming), ffprobe \(probe.duration) s × \(probe.rate) Hz = \(Int((probe.duration * Double(probe.rate)).rounded())) frames, ffmpeg s16le \(reference.count / 2) frames; max |diff| \(maxDiff), PSNR \(psnr) dB"
        )
        #expect(all.count == 7 * 1024 * 2)
        #expect(probe.rate == 44_100 && probe.channels == 2)
        #expect(ours.count / 2 == Int((probe.duration * Double(probe.rate)).rounded()))
        // ffmpeg 5.1 skips the priming but plays the last access unit whole (to 7168 − 2112 = 5056
        // frames); over the 4631 frames the edit shows, its samples are ours.
        #expect(reference.count == all.count - 2112 * 2)
        #expect(maxDiff == 0)
        // The edit list starts 2112 frames into the media.
        #expect(Array(all[(2112 * 2)..<(2112 * 2 + 200)]) == Array(ours.prefix(200)))
        #expect(ours.contains { $0 != 0 })
    }

    @Test("iPhone 6s Live Photo LPCM (version-2 'lpcm' description): the 1.23 s the edit list shows, equal to ffmpeg's")
    func iPhoneLPCM() throws {
        let path = Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.mov").path
        let movie = try MovieReader(path: path)
        let audio = try #require(movie.tracks.first { $0.mediaType == .audio })
        #expect(audio.codec == "lpcm" && audio.channels == 1 && audio.bitsPerSample == 16 && audio.sampleRate == 44_100)
        #expect(audio.audioFormatFlags == 0x0C)  // signed integer, packed, little-endian
        let ours = try movie.pcm16Samples(track: audio.id)
        let all = try movie.pcm16Samples(track: audio.id, applyingEdits: false)
        let probe = try Self.ffprobeAudio(path)
        let reference = try Self.ffmpegPCM(path, channels: 1, rate: 44_100)
        print(
            "iPhone 6s LPCM: ours \(ours.count) frames (media \(all.count)), ffprobe \(probe.duration) s, ffmpeg \(reference.count) frames")
        #expect(all.count == 91_127)
        #expect(ours.count == Int((probe.duration * 44_100).rounded()))
        // ffmpeg 5.1 ends PCM on its 1024-frame packet boundary past the edit (55 296 frames); up to the edit's end it is ours.
        #expect(reference.count >= ours.count && reference.count - ours.count < 1024)
        #expect(ours == Array(reference.prefix(ours.count)))
        #expect(Array(all.prefix(ours.count)) == ours)

        // Its Motion Photo MP4 keeps that sound, as AAC of the same length (our decoder reading our encoder's output).
        let mp4 = try MovieReader(data: try MotionPhotoVideo.mp4(fromLivePhotoMovie: path))
        let aac = try #require(mp4.tracks.first { $0.mediaType == .audio })
        #expect(aac.codec == "mp4a" && aac.channels == 1)
        let back = try mp4.pcm16Samples(track: aac.id)
        #expect(back.count == ours.count)
        let (_, psnr) = Self.compare(Array(back[2048..<(back.count - 2048)]), Array(ours[2048..<(ours.count - 2048)]))
        print("iPhone 6s sound through the Motion Photo MP4 (AAC): \(back.count) frames, PSNR \(psnr) dB against the LPCM")
        #expect(psnr > 30)
    }

    @Test("AAC written by our AACEncoder into an MPEG-4 file reads back: the length, the tone, ffmpeg's decode")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        for channels in [1, 2] {
            let tone = MovieFixture.tone(seconds: 1.3, channels: channels)
            let frames = tone.count / channels
            let encoder = try AACEncoder(sampleRate: 44_100, channels: channels)
            let writer = try MovieWriter(fileType: .mpeg4)
            let track = try writer.addAudioTrack(
                AudioTrackFormat(
                    codec: .aac(audioSpecificConfig: encoder.audioSpecificConfig, averageBitRate: encoder.bitRate),
                    sampleRate: 44_100, channels: channels))
            let units = try encoder.encode(tone) + encoder.finish()
            for unit in units { try writer.append(sample: unit, to: track, duration: Int64(encoder.frameSize)) }
            try writer.setEdit(of: track, mediaStart: Int64(encoder.primingFrames), mediaDuration: Int64(frames))
            _ = try writer.finish()
            let path = dir.path("aac\(channels).mp4")
            try Data(writer.data).write(to: URL(fileURLWithPath: path))

            let movie = try MovieReader(path: path)
            let audio = try #require(movie.tracks.first)
            #expect(audio.audioSpecificConfig == encoder.audioSpecificConfig)
            let ours = try movie.pcm16Samples(track: audio.id)
            #expect(ours.count == tone.count)
            let (toneDiff, tonePSNR) = Self.compare(ours, tone)
            let worst = (0..<ours.count).max { abs(Int(ours[$0]) - Int(tone[$0])) < abs(Int(ours[$1]) - Int(tone[$1])) } ?? 0
            let (_, innerPSNR) = Self.compare(
                Array(ours[(2048 * channels)..<(ours.count - 2048 * channels)]),
                Array(tone[(2048 * channels)..<(tone.count - 2048 * channels)]))
            // FFmpeg's encoder overshoots in its first access units (ffmpeg's own decoder gives the same samples).
            print(
                "  largest difference at frame \(worst / channels) of \(ours.count / channels); PSNR without the first and last 2048 frames \(innerPSNR) dB"
            )
            #expect(innerPSNR > 44)
            let reference = try Self.ffmpegPCM(path, channels: channels, rate: 44_100)
            let (maxDiff, psnr) = Self.compare(ours, reference)
            print(
                "AAC round trip, \(channels) ch: \(units.count) units, priming \(encoder.primingFrames); against the tone PSNR \(tonePSNR) dB (max |diff| \(toneDiff)); against ffmpeg (\(reference.count / channels) frames) max |diff| \(maxDiff), PSNR \(psnr) dB"
            )
            // A lossy codec at 64 kbit/s per channel: the tone comes back aligned (no priming offset) and close.
            #expect(tonePSNR > 35)
            // ffmpeg plays the padded last access unit whole; up to the edit's end its samples are ours.
            #expect(reference.count >= ours.count && reference.count - ours.count < 1024 * channels)
            #expect(maxDiff == 0)
        }
    }

    @Test("AAC in an ffmpeg-made movie (FFmpeg's encoder, 1024 priming frames) equals ffmpeg's decode")
    func ffmpegAAC() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("sine.mov")
        try Judge.run(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "0.7", "-c:a", "aac", "-ac", "1", path])
        let movie = try MovieReader(path: path)
        let audio = try #require(movie.tracks.first { $0.mediaType == .audio })
        let ours = try movie.pcm16Samples(track: audio.id)
        let reference = try Self.ffmpegPCM(path, channels: 1, rate: 48_000)
        let (maxDiff, psnr) = Self.compare(ours, reference)
        print(
            "ffmpeg AAC 48 kHz: edits \(audio.edits), ours \(ours.count) frames, ffmpeg \(reference.count); max |diff| \(maxDiff), PSNR \(psnr) dB"
        )
        #expect(ours.count == 33_600)  // 0.7 s at 48 kHz: the edit's length
        #expect(reference.count >= ours.count && reference.count - ours.count < 1024)
        #expect(maxDiff == 0)
    }

    @Test("Hostile AAC configurations, access units and channel counts are typed errors")
    func hostile() throws {
        expectDaguerreError("empty config", { $0.isCorrupt }) { _ = try AACDecoder(audioSpecificConfig: []) }
        expectDaguerreError("65-byte config", { $0.isCorrupt }) {
            _ = try AACDecoder(audioSpecificConfig: [UInt8](repeating: 0x12, count: 65))
        }
        // Object type 31 escape to an unknown type: libavcodec refuses it.
        expectDaguerreError("unknown object type", { $0.isCorrupt || $0.isUnsupported }) {
            _ = try AACDecoder(audioSpecificConfig: [0xFF, 0xFF, 0xFF])
        }
        // Channel configuration 0 without a program config element: no channels.
        expectDaguerreError("no channels", { $0.isCorrupt || $0.isTooLarge }) { _ = try AACDecoder(audioSpecificConfig: [0x12, 0x00]) }

        let decoder = try AACDecoder(audioSpecificConfig: [0x12, 0x10])
        #expect(decoder.channels == 2 && decoder.sampleRate == 44_100)
        expectDaguerreError("huge unit", { $0.isTooLarge }) { _ = try decoder.decode([UInt8](repeating: 0, count: 1 << 20)) }
        // Garbage: refused with a typed error or concealed, never a crash; the decoder stays usable.
        var rng = SeededRandom(seed: 0xAAC)
        var refused = 0
        for _ in 0..<200 {
            let unit = (0..<Int.random(in: 1...600, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            do {
                let out = try decoder.decode(unit)
                #expect(out.count % 2 == 0 && out.count <= AACDecoder.maxFramesPerUnit * 2)
            } catch {
                #expect(error.isCorrupt || error.isTooLarge, "\(error)")
                refused += 1
            }
        }
        print("200 random access units: \(refused) refused with typed errors, the rest concealed")
        _ = try decoder.flush()
        expectDaguerreError("after flush", { if case .invalidArgument = $0 { true } else { false } }) { _ = try decoder.decode([1, 2, 3]) }

        // A PCM track whose description claims 0 or 200 channels.
        let writer = try MovieWriter(fileType: .quickTimeMovie)
        let a = try writer.addAudioTrack(AudioTrackFormat(codec: .linearPCM16, sampleRate: 8000, channels: 1))
        try writer.append(pcm: [Int16](repeating: 5, count: 100), to: a)
        _ = try writer.finish()
        let bytes = writer.data
        let sowt = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("sowt".utf8) })
        for claimed: UInt16 in [0, 200] {
            var patched = bytes
            patched[sowt + 20] = UInt8(claimed >> 8)
            patched[sowt + 21] = UInt8(claimed & 0xFF)
            let movie = try MovieReader(data: patched)
            #expect(movie.tracks[0].channels == Int(claimed))
            expectDaguerreError("\(claimed) channels", { $0.isUnsupported }) { _ = try movie.pcm16Samples(track: movie.tracks[0].id) }
        }
        #expect(try MovieReader(data: bytes).pcm16Samples(track: 1) == [Int16](repeating: 5, count: 100))
        // An AAC track whose 'esds' is gone (renamed): no decoder configuration, a typed error.
        let mp4 = try MovieWriter(fileType: .mpeg4)
        let aac = try AACEncoder(sampleRate: 44_100, channels: 1)
        let t = try mp4.addAudioTrack(
            AudioTrackFormat(codec: .aac(audioSpecificConfig: aac.audioSpecificConfig, averageBitRate: aac.bitRate), channels: 1))
        for unit in try aac.encode([Int16](repeating: 0, count: 4096)) + aac.finish() {
            try mp4.append(sample: unit, to: t, duration: 1024)
        }
        _ = try mp4.finish()
        var renamed = mp4.data
        let esds = try #require((0..<(renamed.count - 4)).first { Array(renamed[$0..<($0 + 4)]) == Array("esds".utf8) })
        renamed[esds] = UInt8(ascii: "x")
        let noConfig = try MovieReader(data: renamed)
        #expect(noConfig.tracks[0].codec == "mp4a" && noConfig.tracks[0].audioSpecificConfig == nil)
        expectDaguerreError("no esds", { $0.isCorrupt }) { _ = try noConfig.pcm16Samples(track: 1) }
        // Without an edit that skips it, the priming is part of the samples: whole access units.
        let intact = try MovieReader(data: mp4.data).pcm16Samples(track: 1)
        #expect(intact.count >= 4096 + aac.primingFrames && intact.count % 1024 == 0)
    }
}
