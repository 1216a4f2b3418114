// The MPEG-4 video of a Motion Photo, made from a Live Photo movie without re-encoding video.
import DaguerreCore
import DaguerreFormats

/// Makes the MPEG-4 file that a Motion Photo (Google/Samsung: a JPEG with an MP4 appended)
/// carries, from a Live Photo QuickTime movie.
///
/// - Video: the H.264 samples are copied as they are (no re-encode), with their timing, sync
///   samples, `avcC`, `colr` and start offset, so quality and colour tags (W5) are unchanged.
/// - Audio: **transcoded to AAC-LC** with libavcodec's native `aac` encoder (MPEG-4 has no
///   place for QuickTime's 'sowt' PCM); the encoder delay is skipped by the edit list, so sound
///   stays in sync. The source's sound is what its edit list plays (``MovieReader/pcm16Samples(track:applyingEdits:)``):
///   16-bit PCM ('sowt', 'twos', iPhone 'lpcm') or AAC, decoded first. Pass `includeAudio: false`
///   to drop it instead; a movie without such a track gives a video-only file.
/// - No `mebx` track: MPEG-4 players have no use for the still-image-time track (L4); the
///   movie-level 'mdta' items (content identifier L3, author, location…) are kept.
///
/// The file is `ftyp` 'mp42' compatible with 'isom' and 'mp42', written by ``MovieWriter``.
///
/// ```swift
/// let mp4 = try MotionPhotoVideo.mp4(fromLivePhotoMovie: "IMG_0001.mov")
/// let jpegWithVideo = stillJPEG + mp4
/// ```
public enum MotionPhotoVideo {
    /// The MPEG-4 file's bytes.
    public static func mp4(fromLivePhotoMovie path: String, includeAudio: Bool = true) throws(DaguerreError) -> [UInt8] {
        let writer = try MovieWriter(fileType: .mpeg4)
        _ = try convert(MovieReader(path: path), into: writer, includeAudio: includeAudio)
        return writer.data
    }

    /// Writes the MPEG-4 file to `destination` (atomically).
    @discardableResult
    public static func writeMP4(fromLivePhotoMovie path: String, to destination: String, includeAudio: Bool = true) throws(DaguerreError)
        -> MovieFileInfo
    {
        let writer = try MovieWriter(destination: destination, fileType: .mpeg4)
        return try convert(MovieReader(path: path), into: writer, includeAudio: includeAudio)
    }

    static func convert(_ movie: MovieReader, into writer: MovieWriter, includeAudio: Bool) throws(DaguerreError) -> MovieFileInfo {
        // The video of a Motion Photo was made when the Live Photo was, not when it was converted.
        if let made = movie.creationDate { writer.creationDate = made }
        guard let video = movie.tracks.first(where: { $0.mediaType == .video }) else {
            throw .invalidArgument(what: "Live Photo movie \(movie.path ?? "(memory)")", problem: "it has no video track")
        }
        // avc3 samples carry their parameter sets in-band, so they stay valid under 'avc1'; an
        // 'hev1' record may lack sets the samples carry, so only 'hvc1' HEVC is copied.
        guard video.codec == "avc1" || video.codec == "avc3" || video.codec == "hvc1", let config = video.decoderConfiguration,
            let width = video.width, let height = video.height
        else {
            throw .unsupported(
                feature: "Motion Photo video from '\(video.codec)' tracks",
                hint: "The Live Photo movie must be H.264 ('avc1') or HEVC ('hvc1').")
        }
        do throws(DaguerreError) {
            var format = VideoTrackFormat(
                width: width, height: height, decoderConfiguration: config,
                colorProperties: video.colorProperties ?? .bt709, timescale: video.timescale)
            format.transform = video.transform  // a portrait movie stays portrait
            if video.displayWidth > 0, video.displayHeight > 0, abs(video.displayWidth - Double(width)) > 0.5 {
                // Keep a non-square pixel aspect as the source declared it.
                format.pixelAspectHorizontal = UInt32(max(1, (video.displayWidth * 1000).rounded()))
                format.pixelAspectVertical = UInt32(width * 1000)
            }
            let v = try writer.addVideoTrack(format)
            let audio =
                includeAudio
                ? movie.tracks.first(where: {
                    $0.mediaType == .audio && (["sowt", "twos", "lpcm"].contains($0.codec) && $0.bitsPerSample == 16 || $0.codec == "mp4a")
                        && (1...2).contains($0.channels ?? 0) && ($0.sampleRate ?? 0) >= 8000
                }) : nil
            // Video samples, copied.
            try writer.appendSamples(of: video, from: movie, to: v)
            let videoStart = video.startTime
            let mediaStart = video.edits.first(where: { $0.mediaTime >= 0 })?.mediaTime ?? 0
            try writer.setEdit(of: v, startTime: videoStart, mediaStart: mediaStart)
            // Audio, transcoded.
            if let audio, let rate = audio.sampleRate, let channels = audio.channels {
                let pcm = try movie.pcm16Samples(track: audio.id)
                let aac = try AACEncoder(sampleRate: Int(rate.rounded()), channels: channels)
                let id = try writer.addAudioTrack(
                    AudioTrackFormat(
                        codec: .aac(audioSpecificConfig: aac.audioSpecificConfig, averageBitRate: aac.bitRate),
                        sampleRate: aac.sampleRate, channels: channels))
                var units = try aac.encode(pcm)
                units += try aac.finish()
                for unit in units { try writer.append(sample: unit, to: id, duration: Int64(aac.frameSize)) }
                try writer.setEdit(
                    of: id, startTime: audio.startTime, mediaStart: Int64(aac.primingFrames),
                    mediaDuration: Int64(pcm.count / channels))
            }
            writer.metadata = movie.metadata.filter { $0.keySpace == .quickTimeMetadata }
            return try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
    }
}
