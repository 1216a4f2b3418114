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
    /// The still as stored: format, bytes, metadata and the upright image.
    let stillFile: LivePhotoStill
    let movie: MovieReader
    let video: MovieTrack
    let audio: MovieTrack?
    /// How the movie's frames are turned upright, as an EXIF orientation (the video track's
    /// display matrix, as iPhones record portrait movies since iOS 11).
    let videoOrientation: Int
    /// Each frame's presentation time from the first frame's, in presentation order.
    let frameTimes: [MediaTime]
    /// Where the last frame ends, on the same clock: a saved movie keeps every frame's time and
    /// length, so its video lasts as long as the original's.
    let videoEnd: MediaTime
    let duration: MediaTime
    let photoTime: MediaTime
    /// The pair's content identifier (nil for a Motion Photo, which needs none).
    let contentIdentifier: String?
    /// Names the movie's video among files (its path, sizes, track): with a frame's index and
    /// size, the identity of a decoded frame's image, whose bytes are then never hashed.
    let videoIdentity: String

    /// The still, upright, its extent at the origin.
    var still: Image { stillFile.image }

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
            let still = try LivePhotoStill.open(try ImageSource.readFile(stillURL.path), path: stillURL.path)
            let movie = try MovieReader(path: movieURL.path)
            let stillID = still.metadata?.livePhotoContentIdentifier
            let movieID = movie.contentIdentifier
            guard let stillID, let movieID else {
                let which = stillID == nil ? (movieID == nil ? "neither file has" : "the still has no") : "the movie has no"
                throw .corruptData(
                    format: "Live Photo pair",
                    detail:
                        "\(which) content identifier (the \(still.format.rawValue)'s Apple MakerNote MediaGroupUUID, the movie's com.apple.quicktime.content.identifier), so they are not a Live Photo",
                    path: stillURL.path)
            }
            guard stillID == movieID else {
                throw .corruptData(
                    format: "Live Photo pair",
                    detail: "the still's content identifier \(stillID) differs from the movie's \(movieID): they are not one Live Photo",
                    path: stillURL.path)
            }
            return try make(still: still, movie: movie, identifier: stillID, photoTime: nil, path: movieURL.path)
        case .motionPhoto(let url):
            let file = try ImageSource.readFile(url.path)
            let still: LivePhotoStill
            let video: Range<Int>
            let stated: Int?
            if file.starts(with: [0xFF, 0xD8]) {
                // A JPEG: the XMP's directory (or MicroVideo offset) places the video after it.
                let parts = try MotionPhoto.split(file)
                still = try LivePhotoStill.open(Array(file[parts.primary]), path: url.path)
                (video, stated) = (parts.video, parts.video.count)
            } else {
                // A HEIC: the video is an `mpvd` box or bytes after the last box; the boxes,
                // not the XMP's lengths (Samsung's are off by a few hundred bytes), place it.
                still = try LivePhotoStill.open(file, path: url.path)
                guard still.format == .heic, let found = still.heifMotionPhotoVideo else {
                    throw .corruptData(
                        format: "Motion Photo",
                        detail: "its HEIC holds no video (no mpvd box, nothing after its boxes): it is not a Live Photo",
                        path: url.path)
                }
                (video, stated) = (found.range, nil)
            }
            // The video must be an MP4 (an ftyp box first); anything else means it was stripped
            // and the XMP's length now points into the photo.
            guard TopLevelBoxes.isFileType(file, at: video.lowerBound) else {
                throw .corruptData(
                    format: "Motion Photo",
                    detail:
                        "its XMP says it holds a \(stated ?? video.count)-byte video, but no movie is there: the video was stripped, so it is not a Live Photo",
                    path: url.path)
            }
            let movie = try MovieReader(data: Array(file[video]))
            // The still's time: the Motion Photo's (or MicroVideo's) presentation timestamp
            // when it gives one (-1 means "not given").
            let stamp = ["MotionPhotoPresentationTimestampUs", "MicroVideoPresentationTimestampUs"].lazy
                .compactMap { still.xmp?.value($0, in: .googleCamera) }.first
            let micros = stamp.flatMap { Int64($0) }
            let photoTime = micros.flatMap { $0 >= 0 ? MediaTime(value: $0, timescale: 1_000_000) : nil }
            return try make(still: still, movie: movie, identifier: nil, photoTime: photoTime, path: url.path)
        }
    }

    private static func make(
        still: LivePhotoStill, movie: MovieReader, identifier: String?, photoTime: MediaTime?, path: String
    ) throws(DaguerreError) -> LivePhotoMedia {
        let videos = movie.tracks.filter { $0.mediaType == .video }
        guard let video = videos.first(where: \.enabled) ?? videos.first else {
            throw .corruptData(format: "Live Photo movie", detail: "it has no video track, so it is not a Live Photo", path: path)
        }
        guard ["avc1", "avc3", "hvc1", "hev1"].contains(video.codec) else {
            throw .unsupported(
                feature: "Editing a Live Photo whose movie is '\(video.codec)' video",
                hint: "H.264 and HEVC movies are edited; convert the movie to H.264 first (ffmpeg -c:v libx264), keeping its metadata.")
        }
        guard video.sampleCount > 0, (video.width ?? 0) > 0, (video.height ?? 0) > 0 else {
            throw .corruptData(format: "Live Photo movie", detail: "its video track has no frames", path: path)
        }
        var times: [Int64] = []
        times.reserveCapacity(video.sampleCount)
        var end = Int64.min
        for i in 0..<video.sampleCount {
            guard let s = video.sample(at: i) else {
                throw .corruptData(format: "Live Photo movie", detail: "its sample table is inconsistent at frame \(i)", path: path)
            }
            times.append(s.presentationTime)
            let (sampleEnd, overflow) = s.presentationTime.addingReportingOverflow(max(0, s.duration))
            end = max(end, overflow ? s.presentationTime : sampleEnd)
        }
        times.sort()
        let first = times[0]
        let frameTimes = times.map { MediaTime(value: $0 - first, timescale: video.timescale) }
        // The samples' end, unless the track is shown for less (a file cut short keeps its
        // last sample's old length in the sample table and its true length in the track header).
        var videoEnd = MediaTime(value: end - first, timescale: video.timescale)
        if let last = frameTimes.last, video.duration > last, video.duration < videoEnd { videoEnd = video.duration }
        let audio = movie.tracks.first { $0.mediaType == .audio && $0.enabled }
        let duration = movie.duration
        // The still's time: the movie's still-image-time item, else the middle.
        var time = photoTime
        if time == nil { time = try movie.stillImageTime() }
        let middle = MediaTime(value: duration.value / 2, timescale: duration.timescale)
        // A photo time outside the movie (a shortened file) is clamped into it.
        let photo = min(max(time ?? middle, MediaTime(value: 0, timescale: duration.timescale)), duration)
        return LivePhotoMedia(
            stillFile: still, movie: movie, video: video, audio: audio, videoOrientation: video.transform.exifOrientation,
            frameTimes: frameTimes, videoEnd: videoEnd, duration: duration, photoTime: photo, contentIdentifier: identifier,
            videoIdentity: "\(path)|\(movie.byteCount) bytes|still \(still.bytes.count) bytes|track \(video.id)")
    }
}
