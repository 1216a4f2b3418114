import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import DaguerreTestSupport
import Foundation
import Testing

/// A Live Photo movie in the layout iPhones write since iOS 11, rebuilt from a pair made here:
/// the video (with its display matrix), the sound, an auxiliary video track that is not shown,
/// a `com.apple.quicktime.live-photo-info` timed metadata track over the whole movie, and the
/// still-image-time track whose one sample is placed by an empty edit as long as the photo
/// time. Then, as real files have them: a `tref` that points at a track that is not there, and
/// no `ftyp` (a `free` box of the same size in its place).
enum ModernLivePhotoFixture {
    static let livePhotoInfo: MetadataKey = "com.apple.quicktime.live-photo-info"

    /// Rewrites the pair's movie in place; returns the photo time written.
    @discardableResult
    static func rebuild(_ pair: LivePhotoPair) throws -> MediaTime {
        let source = try MovieReader(path: pair.moviePath)
        let video = try #require(source.tracks.first { $0.mediaType == .video })
        let audio = source.tracks.first { $0.mediaType == .audio }
        let photo = try #require(pair.stillImageTime)
        let writer = try MovieWriter(fileType: .quickTimeMovie)
        writer.creationDate = source.creationDate ?? Date(timeIntervalSince1970: 1_700_000_000)
        var format = VideoTrackFormat(
            width: try #require(video.width), height: try #require(video.height),
            decoderConfiguration: try #require(video.decoderConfiguration),
            colorProperties: video.colorProperties ?? .bt709, timescale: video.timescale)
        format.transform = video.transform
        let v = try writer.addVideoTrack(format)
        try writer.appendSamples(of: video, from: source, to: v)
        if let audio, let rate = audio.sampleRate, let channels = audio.channels {
            let a = try writer.addAudioTrack(AudioTrackFormat(codec: .linearPCM16, sampleRate: Int(rate), channels: channels))
            try writer.append(pcm: try source.pcm16Samples(track: audio.id), to: a)
        }
        // The auxiliary video: the same frames again, a track the player does not show.
        let aux = try writer.addVideoTrack(format)
        try writer.appendSamples(of: video, from: source, to: aux)
        // live-photo-info: one sample over the whole movie (its values are Apple's; any bytes do).
        let info = try writer.addTimedMetadataTrack(
            TimedMetadataTrackFormat(keys: [TimedMetadataKey(localID: 1, key: livePhotoInfo, dataType: 0)]), describing: v)
        let whole = source.duration.converted(to: 600).value
        try writer.append(sample: TimedMetadataTrackFormat.sample([(1, [UInt8](repeating: 7, count: 48))]), to: info, duration: whole)
        // still-image-time: one sample at media time 0, placed at the photo time by an empty edit.
        let still = try writer.addTimedMetadataTrack(.stillImageTime, describing: v)
        try writer.append(sample: TimedMetadataTrackFormat.sample([(1, [0xFF])]), to: still, duration: 1)
        try writer.setEdit(of: still, startTime: photo)
        writer.metadata = source.metadata
        _ = try writer.finish()
        var bytes = writer.data
        try patch(&bytes, auxiliary: aux, info: info)
        try AtomicFile.write(bytes, to: pair.moviePath)
        return photo
    }

    /// The byte surgery the writer would refuse: `ftyp` becomes `free`; the auxiliary track is
    /// disabled (tkhd flags 0); the live-photo-info track's `cdsc` becomes a `vmap` to track 9,
    /// which does not exist.
    private static func patch(_ bytes: inout [UInt8], auxiliary: MovieWriter.TrackID, info: MovieWriter.TrackID) throws {
        #expect(bytes[4..<8].elementsEqual("ftyp".utf8))
        bytes.replaceSubrange(4..<8, with: Array("free".utf8))
        var traks: [Range<Int>] = []
        var i = 0
        while let at = find("trak", in: bytes, from: i) {
            let size = Int(bytes[at - 4]) << 24 | Int(bytes[at - 3]) << 16 | Int(bytes[at - 2]) << 8 | Int(bytes[at - 1])
            traks.append((at - 4)..<(at - 4 + size))
            i = at - 4 + size
        }
        #expect(traks.count >= max(auxiliary, info))
        // tkhd: size, type, version+flags (the flags' low byte: 1 enabled).
        let tkhd = try #require(find("tkhd", in: bytes, from: traks[auxiliary - 1].lowerBound))
        bytes[tkhd + 7] = 0
        let cdsc = try #require(find("cdsc", in: bytes, from: traks[info - 1].lowerBound))
        #expect(cdsc < traks[info - 1].upperBound)
        bytes.replaceSubrange(cdsc..<(cdsc + 8), with: Array("vmap".utf8) + [0, 0, 0, 9])
    }

    private static func find(_ type: String, in bytes: [UInt8], from start: Int) -> Int? {
        let t = Array(type.utf8)
        var i = max(start, 4)
        while i + 4 <= bytes.count {
            if bytes[i] == t[0], bytes[i + 1] == t[1], bytes[i + 2] == t[2], bytes[i + 3] == t[3] { return i }
            i += 1
        }
        return nil
    }
}
