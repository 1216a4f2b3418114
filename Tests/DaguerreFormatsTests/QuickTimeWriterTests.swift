import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing
@testable import DaguerreFormats

@Suite("QuickTime writer: Live Photo movies judged by ffprobe, ffmpeg and exiftool")
struct QuickTimeWriterTests {
    static let uuid = "5F2A1C3D-8B7E-4F60-9A1B-2C3D4E5F6A7B"

    static func liveSettings(colorSpace: ColorSpace = .sRGB, channels: Int = 1) -> MovieSettings {
        MovieSettings(colorSpace: colorSpace, audio: .init(channels: channels),
                      metadata: [MetadataItem(key: .author, value: "Daguerre Tests"),
                                 MetadataItem(key: .locationISO6709, value: "+48.8584+002.2945+035.000/"),
                                 MetadataItem(key: .make, value: "Daguerre"),
                                 MetadataItem(key: .model, value: "Virtual Camera"),
                                 MetadataItem(key: .software, value: "Daguerre 1.0"),
                                 MetadataItem(key: .creationDate, value: "2016-09-13T10:41:00+0200")],
                      contentIdentifier: uuid, stillImageTime: MediaTime(seconds: 1.5))
    }

    @Test("ffprobe: h264 1440×1080 15 fps 3.0 s, pcm_s16le 44.1 kHz, a mebx data stream; ffmpeg decodes it silently")
    func ffprobeJudge() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("live.mov")
        let source = try MovieFixture.Source(width: 1440, height: 1080, frames: 45)
        let info = try MovieFixture.record(path, source: source, settings: Self.liveSettings())
        #expect(info.tracks.map(\.codec) == ["avc1", "sowt", "mebx"])
        let probe = try MovieFixture.ffprobe(path)
        print("ffprobe streams:", probe.streams.map { s in
            ["codec_type", "codec_name", "codec_tag_string", "width", "height", "r_frame_rate", "avg_frame_rate", "nb_frames", "duration",
             "sample_rate", "channels", "bit_rate", "color_primaries", "color_transfer", "color_space", "profile", "start_time"]
                .compactMap { k in s[k].map { "\(k)=\($0)" } }.joined(separator: " ")
        })
        print("ffprobe format:", ["format_name", "duration", "bit_rate", "size"].compactMap { k in probe.format[k].map { "\(k)=\($0)" } },
              probe.format["tags"] ?? [:])
        #expect(dir.contents() == ["live.mov"], "no temporary file left")
        MovieFixture.keep(path, as: "live-photo-srgb.mov")
    }
}
