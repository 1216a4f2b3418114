import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

@Suite("Motion Photo MP4 from a Live Photo movie")
struct QuickTimeMotionPhotoTests {
    @Test("ffprobe accepts the MP4: h264 copied sample for sample, AAC audio, no mebx; ffmpeg decodes it silently")
    func mp4() throws {
        let dir = try TemporaryDirectory()
        let mov = dir.path("live.mov")
        let mp4 = dir.path("motion.mp4")
        let source = try MovieFixture.Source(width: 1440, height: 1080, frames: 45, colorSpace: .displayP3)
        try MovieFixture.record(mov, source: source, settings: QuickTimeWriterTests.liveSettings(colorSpace: .displayP3, channels: 2))
        let bytes = try MotionPhotoVideo.mp4(fromLivePhotoMovie: mov)
        try Data(bytes).write(to: URL(fileURLWithPath: mp4))
        #expect(Array(bytes[4..<12]) == Array("ftypmp42".utf8))

        let probe = try MovieProbe(mp4)
        for s in probe.streams {
            print(
                "ffprobe MP4 stream:",
                [
                    "codec_type", "codec_name", "profile", "width", "height", "r_frame_rate", "nb_frames", "duration",
                    "sample_rate", "channels", "color_primaries",
                ].compactMap { k in s[k].map { "\(k)=\($0)" } }.joined(separator: " "))
        }
        print(
            "ffprobe MP4 format:", ["format_name", "duration", "size"].compactMap { k in probe.format[k].map { "\(k)=\($0)" } },
            (probe.format["tags"] as? [String: Any])?["major_brand"] ?? "")
        #expect((probe.format["format_name"] as? String)?.contains("mp4") == true)
        #expect(probe.streams.count == 2)
        let video = probe.video
        #expect(video?["codec_name"] as? String == "h264" && video?["width"] as? Int == 1440 && video?["nb_frames"] as? String == "45")
        #expect(video?["color_primaries"] as? String == "smpte432")
        let audio = probe.audio
        #expect(audio?["codec_name"] as? String == "aac" && audio?["sample_rate"] as? String == "44100" && audio?["channels"] as? Int == 2)
        if let d = (audio?["duration"] as? String).flatMap(Double.init) { #expect(abs(d - 3.0) < 0.001) }
        #expect(probe.stream(ofType: "data") == nil)
        #expect(try Judge.ffmpegDecodeMessages(mp4).isEmpty)

        // The video samples are the movie's, byte for byte.
        let source0 = try MovieReader(path: mov)
        let out = try MovieReader(data: bytes)
        #expect(out.fileType == .mpeg4 && out.compatibleBrands == ["isom", "mp42"])
        let v0 = try #require(source0.tracks.first)
        let v1 = try #require(out.tracks.first)
        #expect(v1.sampleCount == 45 && v1.codec == "avc1" && v1.colorProperties == .displayP3)
        for i in [0, 1, 22, 44] { #expect(try source0.sampleData(track: v0.id, index: i) == out.sampleData(track: v1.id, index: i)) }
        #expect(out.tracks.map(\.codec) == ["avc1", "mp4a"])
        #expect(out.contentIdentifier == QuickTimeWriterTests.uuid)
        SampleFiles.keep(mp4, as: "motion-photo-p3.mp4")

        // Without audio, and written as a file.
        let info = try MotionPhotoVideo.writeMP4(fromLivePhotoMovie: mov, to: dir.path("silent.mp4"), includeAudio: false)
        #expect(info.tracks.map(\.codec) == ["avc1"])
        #expect(try MovieProbe(dir.path("silent.mp4")).streams.count == 1)
    }
}
