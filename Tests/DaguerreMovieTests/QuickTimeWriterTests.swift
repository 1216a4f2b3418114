import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

@Suite("QuickTime writer: Live Photo movies judged by ffprobe, ffmpeg and exiftool")
struct QuickTimeWriterTests {
    static let uuid = "5F2A1C3D-8B7E-4F60-9A1B-2C3D4E5F6A7B"
    static let location = "+48.8584+002.2945+035.000/"

    static func liveSettings(colorSpace: ColorSpace = .sRGB, channels: Int = 1) -> MovieSettings {
        MovieSettings(
            colorSpace: colorSpace, audio: .init(channels: channels),
            metadata: [
                MetadataItem(key: .author, value: "Daguerre Tests"),
                MetadataItem(key: .locationISO6709, value: location),
                MetadataItem(key: .make, value: "Daguerre"),
                MetadataItem(key: .model, value: "Virtual Camera"),
                MetadataItem(key: .software, value: "Daguerre 1.0"),
                MetadataItem(key: .creationDate, value: "2016-09-13T10:41:00+0200"),
            ],
            contentIdentifier: uuid, stillImageTime: MediaTime(seconds: 1.5))
    }

    @Test("ffprobe: h264 1440×1080 15 fps 3.0 s (45 frames), pcm_s16le 44.1 kHz, a mebx data stream; ffmpeg decodes it silently (L2, L4)")
    func ffprobeJudge() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("live.mov")
        let source = try MovieFixture.Source(width: 1440, height: 1080, frames: 45)
        let info = try MovieFixture.record(path, source: source, settings: Self.liveSettings())
        #expect(info.tracks.map(\.codec) == ["avc1", "sowt", "mebx"])
        #expect(info.contentIdentifier == Self.uuid && info.stillImageTime == MediaTime(seconds: 1.5))
        #expect(dir.contents() == ["live.mov"], "no temporary file left behind")

        let probe = try MovieProbe(path)
        for s in probe.streams {
            print(
                "ffprobe stream:",
                [
                    "codec_type", "codec_name", "codec_tag_string", "profile", "width", "height", "r_frame_rate", "nb_frames",
                    "duration", "start_time", "sample_rate", "channels", "bit_rate", "color_primaries", "color_transfer", "color_space",
                ]
                .compactMap { k in s[k].map { "\(k)=\($0)" } }.joined(separator: " "))
        }
        print("ffprobe format:", ["format_name", "duration", "size"].compactMap { k in probe.format[k].map { "\(k)=\($0)" } })
        #expect(probe.streams.count == 3)
        let video = probe.video
        #expect(video?["codec_name"] as? String == "h264")
        #expect(video?["width"] as? Int == 1440 && video?["height"] as? Int == 1080)
        #expect(video?["r_frame_rate"] as? String == "15/1" && video?["avg_frame_rate"] as? String == "15/1")
        #expect(video?["nb_frames"] as? String == "45")
        #expect(video?["duration"] as? String == "3.000000")
        #expect(video?["color_primaries"] as? String == "bt709")
        let audio = probe.audio
        #expect(audio?["codec_name"] as? String == "pcm_s16le")
        #expect(audio?["sample_rate"] as? String == "44100" && audio?["channels"] as? Int == 1)
        #expect(audio?["duration"] as? String == "3.000000")
        let data = probe.stream(ofType: "data")
        #expect(data?["codec_tag_string"] as? String == "mebx")
        #expect(data?["nb_frames"] as? String == "2", "an empty filler sample, then the still-image-time item")
        #expect(data?["duration"] as? String == "1.501667", "the item's one-tick sample starts at the still's time")
        #expect(probe.format["duration"] as? String == "3.000000")
        let tags = probe.format["tags"] as? [String: Any] ?? [:]
        #expect(tags["major_brand"] as? String == "qt  ")
        #expect(tags["com.apple.quicktime.content.identifier"] as? String == Self.uuid)

        // ffmpeg decodes every packet of every stream without a word.
        let decodeLog = try Judge.ffmpegDecodeMessages(path)
        #expect(decodeLog.isEmpty)
        SampleFiles.keep(path, as: "live-photo-srgb.mov")
    }

    @Test("exiftool: Keys:ContentIdentifier, author and ISO 6709 location, StillImageTime in the mebx track (L3, L4, L6)")
    func exiftoolJudge() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("live.mov")
        let source = try MovieFixture.Source(width: 640, height: 480, frames: 45)
        var settings = Self.liveSettings(channels: 2)
        settings.width = 640
        settings.height = 480
        try MovieFixture.record(path, source: source, settings: settings)

        let lines = try MovieFixture.exiftool(path, ["-ee"])
        for line in lines where line.contains("[Keys]") || line.contains("Track3") && (line.contains("Time") || line.contains("Meta")) {
            print("exiftool:", line)
        }
        #expect(MovieFixture.value(lines, group: "Keys", tag: "ContentIdentifier") == Self.uuid)
        #expect(MovieFixture.value(lines, group: "Keys", tag: "Author") == "Daguerre Tests")
        #expect(MovieFixture.value(lines, group: "Keys", tag: "Make") == "Daguerre")
        #expect(MovieFixture.value(lines, group: "Keys", tag: "Model") == "Virtual Camera")
        #expect(
            MovieFixture.value(lines, group: "Keys", tag: "GPSCoordinates")?.hasPrefix("48 deg 51' 30.24\" N, 2 deg 17' 40.20\" E") == true)
        #expect(MovieFixture.value(lines, group: "Track3", tag: "MetaFormat") == "mebx")
        #expect(MovieFixture.value(lines, group: "Track3", tag: "ContentDescribes") == "Track 1")
        #expect(MovieFixture.value(lines, group: "Track3", tag: "StillImageTime") == "-1")

        // The still's time (L4): an empty sample fills the track from 0 to the still, then the
        // item's one-tick sample starts at the still's time, so exiftool (which computes
        // SampleTime from 'stts' alone) reports it there, as ffprobe and our reader do.
        let raw = try MovieFixture.exiftool(path, ["-ee", "-n", "-Track3:all"])
        let sampleTimes = raw.filter { $0.contains("SampleTime") }.compactMap {
            $0.split(separator: ":").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        print("exiftool -n: Track3 SampleTime values \(sampleTimes)")
        #expect(sampleTimes.last == 1.5, "the still-image-time sample's SampleTime is the still time")
        // The location as written (ISO 6709), read raw.
        let rawKeys = try MovieFixture.exiftool(path, ["-n", "-Keys:all"])
        #expect(MovieFixture.value(rawKeys, group: "Keys", tag: "GPSCoordinates") == "48.8584 2.2945 35")
        SampleFiles.keep(path, as: "live-photo-640x480-stereo.mov")
    }

    @Test("Wide colour (W5): colr nclx primaries 12, ffprobe smpte432, frames decode tagged Display P3")
    func displayP3() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("p3.mov")
        let source = try MovieFixture.Source(width: 1440, height: 1080, frames: 15, colorSpace: .displayP3)
        try MovieFixture.record(path, source: source, frames: 15, settings: Self.liveSettings(colorSpace: .displayP3))
        let probe = try MovieProbe(path)
        let video = probe.video
        print(
            "ffprobe P3:",
            ["color_primaries", "color_transfer", "color_space", "color_range"].compactMap { k in video?[k].map { "\(k)=\($0)" } })
        #expect(video?["color_primaries"] as? String == "smpte432")
        #expect(video?["color_transfer"] as? String == "bt709")
        #expect(video?["color_space"] as? String == "bt709")
        #expect(video?["color_range"] as? String == "tv")
        let lines = try MovieFixture.exiftool(path, ["-n"])
        #expect(MovieFixture.value(lines, group: "Track1", tag: "ColorPrimaries") == "12")
        #expect(MovieFixture.value(lines, group: "Track1", tag: "ColorProfiles") == "nclx")
        let movie = try MovieReader(path: path)
        let track = try #require(movie.tracks.first)
        #expect(track.colorProperties == .displayP3)
        let frame = try #require(try movie.decodeFrames(track: track.id, range: 7..<8).first)
        #expect(frame.colorSpace == .displayP3)
        SampleFiles.keep(path, as: "live-photo-p3.mov")
    }

    @Test(
        "A full-range (420f) planar frame is converted to the movie's video range before encoding: it decodes to the grey it shows, not a stretched one"
    )
    func fullRangePlanarFrames() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("full-range.mov")
        let (w, h) = (64, 48)
        let recorder = try MovieRecorder(destination: path, settings: MovieSettings(width: w, height: h, frameRate: 15))
        for (i, level) in [UInt8(200), 40].enumerated() {
            // Full-range grey: luma `level` is RGB `level`; read as video range it would be (level − 16) × 255/219.
            let frame = try PlanarYCbCr420Buffer(
                width: w, height: h, luma: [UInt8](repeating: level, count: w * h),
                cb: [UInt8](repeating: 128, count: w * h / 4), cr: [UInt8](repeating: 128, count: w * h / 4),
                fullRange: true)
            for k in 0..<4 { try recorder.append(frame: frame, at: MediaTime(value: Int64(4 * i + k) * 40, timescale: 600)) }
        }
        try recorder.finish()
        let movie = try MovieReader(path: path)
        let track = try #require(movie.tracks.first)
        #expect(track.colorProperties?.fullRange == false, "tagged video range")
        let frames = try movie.decodeFrames(track: track.id, range: 0..<8)
        for (i, level) in [200.0, 40.0].enumerated() {
            let mean = meanRGB(frames[4 * i + 3])
            #expect(abs(mean.x - level) < 2 && abs(mean.y - level) < 2 && abs(mean.z - level) < 2, "grey \(level) decoded as \(mean)")
        }
    }

    @Test("Settings and misuse are refused with typed errors; nothing is left at the destination")
    func misuse() throws {
        let dir = try TemporaryDirectory()
        expectDaguerreError("unwritable directory", { $0.isIO }) {
            _ = try MovieRecorder(destination: "/proc/x.mov", settings: MovieSettings(width: 64, height: 48))
        }
        expectDaguerreError("odd width", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try MovieRecorder(destination: dir.path("odd.mov"), settings: MovieSettings(width: 63, height: 48))
        }
        let recorder = try MovieRecorder(destination: dir.path("c.mov"), settings: MovieSettings(width: 64, height: 48))
        let frame = try PixelBuffer(width: 64, height: 48, format: .rgba8, colorSpace: .sRGB)
        try recorder.append(frame: frame, at: .zero)
        expectDaguerreError("time going backwards", { if case .invalidArgument = $0 { true } else { false } }) {
            try recorder.append(frame: frame, at: .zero)
        }
        expectDaguerreError("P3 frame into an sRGB movie", { if case .invalidArgument = $0 { true } else { false } }) {
            try recorder.append(
                frame: try PixelBuffer(width: 64, height: 48, format: .rgba8, colorSpace: .displayP3), at: MediaTime(seconds: 1))
        }
        expectDaguerreError("audio without audio settings", { if case .invalidArgument = $0 { true } else { false } }) {
            try recorder.append(audio: [0, 0])
        }
        expectDaguerreError("float frames", { $0.isUnsupported }) {
            try recorder.append(frame: try PixelBuffer(width: 64, height: 48, format: .rgbaf), at: MediaTime(seconds: 2))
        }
        recorder.cancel()
        #expect(dir.contents().isEmpty, "a cancelled recording leaves nothing: \(dir.contents())")
        let writer = try MovieWriter(destination: dir.path("w.mp4"), fileType: .mpeg4)
        expectDaguerreError("mebx in MP4", { $0.isUnsupported }) { _ = try writer.addTimedMetadataTrack(.stillImageTime) }
        expectDaguerreError("PCM in MP4", { $0.isUnsupported }) { _ = try writer.addAudioTrack(AudioTrackFormat(codec: .linearPCM16)) }
        writer.cancel()
        #expect(dir.contents().isEmpty)
    }
}
