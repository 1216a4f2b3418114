// A Live Photo opened for editing (SPEC E1): the still's bytes, metadata and upright image; the
// movie's reader, its video and audio tracks and each frame's time; the photo time. Opening is
// where "not a Live Photo" is decided: no video, identifiers that differ or are missing, a
// Motion Photo whose video was stripped.
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import Foundation

/// The opened files of a ``ContentEditingInput``.
struct LivePhotoMedia: Sendable {
    let stillBytes: [UInt8]
    let stillInfo: JPEGFileMetadata
    /// The EXIF orientation of the stored still (1 when it has none).
    let stillOrientation: Int
    /// The still, upright, its extent at the origin.
    let still: Image
    let stillColorSpace: ColorSpace
    let movie: MovieReader
    let video: MovieTrack
    let audio: MovieTrack?
    /// How the movie's frames are turned upright, as an EXIF orientation.
    let videoOrientation: Int
    /// Each frame's presentation time from the first frame's, in presentation order.
    let frameTimes: [MediaTime]
    let duration: MediaTime
    let photoTime: MediaTime
    /// The pair's content identifier (nil for a Motion Photo, which needs none).
    let contentIdentifier: String?

    /// The upright size of the movie's frames.
    var videoSize: (width: Int, height: Int) {
        let (w, h) = (video.width ?? 0, video.height ?? 0)
        return videoOrientation >= 5 ? (h, w) : (w, h)
    }

    /// The movie's frames relative to the full-size still (the scale that fits the still into
    /// the movie's frame).
    var videoRenderScale: Double {
        let e = still.extent
        let (w, h) = videoSize
        return min(Double(w) / e.width, Double(h) / e.height)
    }

    static func open(_ input: ContentEditingInput) throws(DaguerreError) -> LivePhotoMedia {
        switch input.source {
        case .pair(let stillURL, let movieURL):
            let bytes = try ImageSource.readFile(stillURL.path)
            try requireJPEG(bytes, path: stillURL.path)
            let info = try JPEGFileMetadata(bytes: bytes)
            let movie = try MovieReader(path: movieURL.path)
            let stillID = info.metadata?.livePhotoContentIdentifier
            let movieID = movie.contentIdentifier
            guard let stillID, let movieID else {
                let which = stillID == nil ? (movieID == nil ? "neither file has" : "the still has no") : "the movie has no"
                throw .corruptData(
                    format: "Live Photo pair",
                    detail:
                        "\(which) content identifier (the JPEG's Apple MakerNote MediaGroupUUID, the movie's com.apple.quicktime.content.identifier), so they are not a Live Photo",
                    path: stillURL.path)
            }
            guard stillID == movieID else {
                throw .corruptData(
                    format: "Live Photo pair",
                    detail: "the still's content identifier \(stillID) differs from the movie's \(movieID): they are not one Live Photo",
                    path: stillURL.path)
            }
            return try make(stillBytes: bytes, info: info, movie: movie, identifier: stillID, photoTime: nil, path: movieURL.path)
        case .motionPhoto(let url):
            let file = try ImageSource.readFile(url.path)
            try requireJPEG(file, path: url.path)
            let parts = try MotionPhoto.split(file)
            // The video must be an MP4 (an ftyp box first); anything else means it was stripped
            // and the XMP's length now points into the photo.
            guard parts.video.count >= 8, Array(file[(parts.video.lowerBound + 4)..<(parts.video.lowerBound + 8)]) == Array("ftyp".utf8)
            else {
                throw .corruptData(
                    format: "Motion Photo",
                    detail:
                        "its XMP says it holds a \(parts.video.count)-byte video, but no movie is there: the video was stripped, so it is not a Live Photo",
                    path: url.path)
            }
            let still = Array(file[parts.primary])
            let info = try JPEGFileMetadata(bytes: still)
            let movie = try MovieReader(data: Array(file[parts.video]))
            // The still's time: the Motion Photo's presentation timestamp when it gives one.
            let micros = info.xmp?.value("MotionPhotoPresentationTimestampUs", in: .googleCamera).flatMap { Int64($0) }
            let photoTime = micros.flatMap { $0 >= 0 ? MediaTime(value: $0, timescale: 1_000_000) : nil }
            return try make(stillBytes: still, info: info, movie: movie, identifier: nil, photoTime: photoTime, path: url.path)
        }
    }

    private static func requireJPEG(_ bytes: [UInt8], path: String) throws(DaguerreError) {
        guard bytes.starts(with: [0xFF, 0xD8]) else {
            if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
                throw .unsupported(
                    feature: "Editing a Live Photo with a HEIC still (\(path))",
                    hint: "Convert the still to JPEG first (heif-convert), keeping its EXIF; HEIC stills are not edited yet.")
            }
            throw .corruptData(format: "Live Photo still", detail: "it is not a JPEG", path: path)
        }
    }

    private static func make(
        stillBytes: [UInt8], info: JPEGFileMetadata, movie: MovieReader, identifier: String?, photoTime: MediaTime?, path: String
    ) throws(DaguerreError) -> LivePhotoMedia {
        let videos = movie.tracks.filter { $0.mediaType == .video }
        guard let video = videos.first(where: \.enabled) ?? videos.first else {
            throw .corruptData(format: "Live Photo movie", detail: "it has no video track, so it is not a Live Photo", path: path)
        }
        guard video.codec == "avc1" || video.codec == "avc3" else {
            throw .unsupported(
                feature: "Editing a Live Photo whose movie is '\(video.codec)' video",
                hint: "Only H.264 movies are edited yet; convert the movie to H.264 first (ffmpeg -c:v libx264), keeping its metadata.")
        }
        guard video.sampleCount > 0, (video.width ?? 0) > 0, (video.height ?? 0) > 0 else {
            throw .corruptData(format: "Live Photo movie", detail: "its video track has no frames", path: path)
        }
        var times: [Int64] = []
        times.reserveCapacity(video.sampleCount)
        for i in 0..<video.sampleCount {
            guard let s = video.sample(at: i) else {
                throw .corruptData(format: "Live Photo movie", detail: "its sample table is inconsistent at frame \(i)", path: path)
            }
            times.append(s.presentationTime)
        }
        times.sort()
        let first = times[0]
        let frameTimes = times.map { MediaTime(value: $0 - first, timescale: video.timescale) }
        let orientation = info.metadata?.orientation ?? 1
        let still = try Image(data: stillBytes).oriented((1...8).contains(orientation) ? orientation : 1)
        let audio = movie.tracks.first { $0.mediaType == .audio && $0.enabled }
        let duration = movie.duration
        // The still's time: the movie's still-image-time item, else the middle.
        var time = photoTime
        if time == nil { time = try movie.stillImageTime() }
        let middle = MediaTime(value: duration.value / 2, timescale: duration.timescale)
        // A photo time outside the movie (a shortened file) is clamped into it.
        let photo = min(max(time ?? middle, MediaTime(value: 0, timescale: duration.timescale)), duration)
        return LivePhotoMedia(
            stillBytes: stillBytes, stillInfo: info, stillOrientation: orientation, still: still,
            stillColorSpace: still.colorSpace ?? .sRGB, movie: movie, video: video, audio: audio, videoOrientation: 1,
            frameTimes: frameTimes, duration: duration, photoTime: photo, contentIdentifier: identifier)
    }
}
