import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

@Suite("QuickTime reader: our movies read back, third-party files read or refused")
struct QuickTimeReaderTests {
    @Test("Reads back tracks, sample counts, metadata and the still time; decoded frames match the input's colour")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("live.mov")
        let source = try MovieFixture.Source(width: 1440, height: 1080, frames: 45)
        let info = try MovieFixture.record(path, source: source, settings: QuickTimeWriterTests.liveSettings(channels: 2))
        let movie = try MovieReader(path: path)
        #expect(movie.majorBrand == "qt  ")
        #expect(movie.fileType == .quickTimeMovie)
        #expect(movie.duration.seconds == 3.0)
        #expect(movie.tracks.map(\.mediaType) == [.video, .audio, .metadata])
        #expect(movie.tracks.map(\.codec) == ["avc1", "sowt", "mebx"])
        let video = movie.tracks[0]
        let audio = movie.tracks[1]
        let meta = movie.tracks[2]
        #expect(video.width == 1440 && video.height == 1080)
        #expect(video.sampleCount == 45)
        #expect(video.timescale == 600)
        #expect(video.colorProperties == .bt709)
        if case .avc(let avcC) = video.decoderConfiguration {
            #expect(avcC.profile == 66)  // ultrafast: Constrained Baseline
        } else {
            Issue.record("no avcC record: \(String(describing: video.decoderConfiguration))")
        }
        #expect(video.sample(at: 0)?.isSync == true)
        #expect(video.sample(at: 44)?.presentationTime == Int64(44 * 40))
        #expect(audio.sampleCount == 132_300)
        #expect(audio.sampleRate == 44_100 && audio.channels == 2 && audio.bitsPerSample == 16)
        #expect(meta.sampleCount == 2)  // the empty filler, then the still-image-time item
        #expect(meta.references["cdsc"] == [video.id])
        #expect(meta.timedMetadataKeys == [TimedMetadataKey(localID: 1, key: .stillImageTime, dataType: 65)])
        #expect(try movie.stillImageTime() == MediaTime(seconds: 1.5))
        let groups = try movie.timedMetadata(track: meta.id)
        #expect(groups.count == 2)
        #expect(groups.first?.items.isEmpty == true && groups.first?.time == .zero)
        #expect(groups.last?.items.first?.value == .integer(-1) && groups.last?.time == MediaTime(seconds: 1.5))
        #expect(movie.contentIdentifier == QuickTimeWriterTests.uuid)
        let items = Dictionary(movie.metadata.map { ($0.key, $0.stringValue ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(items["com.apple.quicktime.author"] == "Daguerre Tests")
        #expect(items["com.apple.quicktime.location.ISO6709"] == "+48.8584+002.2945+035.000/")
        #expect(info.byteCount == UInt64(movie.byteCount))

        // PCM bytes are the tone we wrote (little-endian, interleaved).
        let pcm = try movie.sampleData(track: audio.id, index: 1000)
        let tone = MovieFixture.tone(seconds: 3, channels: 2)
        #expect(
            pcm == [
                UInt8(truncatingIfNeeded: tone[2000]), UInt8(truncatingIfNeeded: tone[2000] >> 8),
                UInt8(truncatingIfNeeded: tone[2001]), UInt8(truncatingIfNeeded: tone[2001] >> 8),
            ])

        // Frames 0, 22 and 44: mean colour within a video-codec tolerance of the input.
        for k in [0, 22, 44] {
            let frames = try movie.decodeFrames(track: video.id, range: k..<(k + 1))
            #expect(frames.count == 1)
            guard let f = frames.first else { continue }
            #expect(f.width == 1440 && f.height == 1080 && f.colorSpace == .sRGB)
            let got = meanRGB(f)
            let want = source.mean(k)
            print("frame \(k): mean decoded \(got), input \(want)")
            #expect(abs(got.x - want.x) < 2.5 && abs(got.y - want.y) < 2.5 && abs(got.z - want.z) < 2.5)
        }
        #expect(try movie.decodeFrames(track: video.id, range: 0..<45).count == 45)
    }

    @Test("exiftool's QuickTime.mov (media data stripped): tracks and metadata listed, samples refused as truncated")
    func exiftoolSample() throws {
        let path = Fixture.thirdParty.appendingPathComponent("exiftool_t_QuickTime.mov").path
        let movie = try MovieReader(path: path)
        print(
            "exiftool_t_QuickTime.mov:",
            movie.tracks.map {
                "\($0.id) \($0.mediaType) '\($0.codec)' \($0.width ?? 0)×\($0.height ?? 0) ts \($0.timescale) samples \($0.sampleCount)"
            })
        print("metadata:", movie.metadata.map(\.description))
        #expect(movie.movieTimescale == 600)
        #expect(movie.tracks.count == 2)
        #expect(movie.tracks.first?.mediaType == .video && movie.tracks.first?.codec == "jpeg")
        #expect(movie.tracks.first?.width == 320 && movie.tracks.first?.height == 240)
        #expect(movie.tracks.first?.sampleCount == 149)
        #expect(movie.tracks.last?.mediaType == .audio)
        // The same values exiftool shows ([Keys] Album, [UserData] Album in Mac Roman, [ItemList] Genre).
        #expect(movie.metadata.contains { $0.identifier == "mdta/com.apple.quicktime.album" && $0.stringValue == "ålbum" })
        #expect(movie.metadata.contains { $0.identifier == "udta/©alb" && $0.stringValue == "ålbum" })
        #expect(movie.metadata.contains { $0.identifier == "udta/©cmt" && $0.stringValue == "çømménts" })
        #expect(movie.metadata.contains { $0.identifier == "itsk/©gen" && $0.stringValue == "Genré" })
        if let video = movie.tracks.first {
            expectDaguerreError("sample past the end", { $0.isTruncated }) { _ = try movie.sampleData(track: video.id, index: 0) }
            expectDaguerreError("decoding Motion JPEG", { $0.isUnsupported }) { _ = try movie.decodeFrames(track: video.id, range: 0..<1) }
        }
    }
}
