// One render of an edited Live Photo (SPEC E3–E7): the still and every movie frame through the
// frame processor, upright, at a scale of the full-size still; the still as a JPEG with the new
// content identifier and the adjustment data; the movie encoded frame by frame with the still's
// time, the audio at the edit's volume and the original's metadata. The save and the playback
// preview are the same render at different scales.
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import Foundation

/// The frame processor of an edit: the frame in, the edited image out (or a thrown error, which
/// ends the render).
public typealias LivePhotoFrameProcessor = @Sendable (LivePhotoFrame) throws(DaguerreError) -> Image

/// Renders an opened Live Photo through a frame processor.
struct LivePhotoRender: Sendable {
    let media: LivePhotoMedia
    let processor: LivePhotoFrameProcessor?
    let audioVolume: Float
    let isCancelled: @Sendable () -> Bool
    let context: Context
    /// What the render is, for a cancellation's message.
    let what: String

    private func checkCancelled() throws(DaguerreError) {
        if isCancelled() { throw .cancelled(what: what) }
    }

    private func process(_ frame: LivePhotoFrame) throws(DaguerreError) -> Image {
        guard let processor else { return frame.image }
        let image = try processor(frame)
        let e = image.extent
        guard !e.isEmpty, !e.isInfinite, e.width >= 2, e.height >= 2 else {
            throw .processorFailed(
                name: "frameProcessor",
                reason:
                    "it returned an image with extent \(e) for the \(frame.type == .photo ? "photo" : "video frame at \(frame.time.seconds) s"); return a finite image at least 2×2 (crop a generator)"
            )
        }
        return image
    }

    /// `image` scaled by `scale` (≤ 1) with Lanczos, its extent at the origin.
    private static func scaled(_ image: Image, by scale: Double) throws(DaguerreError) -> Image {
        guard scale < 1 else { return image }
        let small = try image.applyingFilter("LanczosScaleTransform", parameters: ["inputScale": .number(scale)])
        let e = small.extent
        return small.transformed(by: AffineTransform2D(translationX: -e.minX, y: -e.minY))
    }

    /// The region of `image` that is rendered: its extent rounded inwards to whole pixels, at
    /// most `size` when given.
    private static func pixelRect(_ image: Image, size: (Int, Int)? = nil) -> Rect {
        let e = image.extent
        let x = e.minX.rounded(.up)
        let y = e.minY.rounded(.up)
        var w = Int((e.maxX.rounded(.down) - x))
        var h = Int((e.maxY.rounded(.down) - y))
        if let size { (w, h) = (min(w, size.0), min(h, size.1)) }
        return Rect(x: x, y: y, width: Double(max(w, 1)), height: Double(max(h, 1)))
    }

    // MARK: The still

    /// The still through the processor at `scale` of full size.
    func still(scale: Double) throws(DaguerreError) -> Image {
        try checkCancelled()
        let image = try Self.scaled(media.still, by: scale)
        return try process(LivePhotoFrame(image: image, type: .photo, time: media.photoTime, renderScale: min(scale, 1)))
    }

    /// The edited still as a JPEG or a HEIC: the original's EXIF made upright, the new content
    /// identifier in the Apple MakerNote, and the adjustment data in the XMP.
    func stillData(
        _ image: Image, format: LivePhotoPairFormat, identifier: String, adjustment: AdjustmentData?, quality: Double
    ) throws(DaguerreError) -> [UInt8] {
        let rect = Self.pixelRect(image)
        let upright = image.cropped(to: rect).transformed(by: AffineTransform2D(translationX: -rect.minX, y: -rect.minY))
        var meta = media.stillFile.metadata ?? PhotoMetadata()
        meta.orientation = 1
        meta.livePhotoContentIdentifier = identifier
        meta.writesAppleMakerNote = true
        var options: [ImageWriteOption] = [.quality(quality), .metadata(meta)]
        if let adjustment {
            var xmp = XMPPacket()
            adjustment.write(into: &xmp)
            options.append(.xmp(xmp))
        }
        switch format {
        case .heic: return try context.heifRepresentation(of: upright, colorSpace: media.stillFile.colorSpace, options: options)
        case .jpeg: return try context.jpegRepresentation(of: upright, colorSpace: media.stillFile.colorSpace, options: options)
        }
    }

    // MARK: The movie

    /// Renders every frame of the movie through the processor, scaled so that the movie is at
    /// most `stillScale` of the full-size still (1: the movie's own size), and records it to
    /// `path` with `identifier`. Returns the movie's size.
    @discardableResult
    func movie(
        to path: String, stillScale: Double, identifier: String, bitRateShare: Double = 1, codec: VideoCodec = .h264
    ) throws(DaguerreError) -> (Int, Int) {
        let video = media.video
        let frameScale = min(1, stillScale / media.videoRenderScale)
        let renderScale = media.videoRenderScale * frameScale
        let count = media.frameTimes.count
        let seconds = max(media.frameTimes.last?.seconds ?? 0, 1e-3)
        let frameRate = count > 1 ? Int((Double(count - 1) / seconds).rounded()) : 15
        var recorder: MovieRecorder?
        var size = (0, 0)
        var space = ColorSpace.sRGB
        // One output frame for the whole movie: the recorder converts each frame before the
        // next is rendered, and every pixel is rendered anew.
        var out: PixelBuffer?
        do throws(DaguerreError) {
            // libswscale shrinks each frame as it converts it to RGB; the frame's image is named
            // by the movie and its index, not by hashing its bytes.
            try media.movie.decodeFrames(track: video.id, range: 0..<count, scale: frameScale) { (k, buffer) throws(DaguerreError) in
                try checkCancelled()
                let identity = "\(media.videoIdentity)|frame \(k)|\(buffer.width)×\(buffer.height) \(buffer.format)"
                let upright = try Image(buffer: buffer, identity: identity).oriented(media.videoOrientation)
                let frame = LivePhotoFrame(image: upright, type: .video, time: media.frameTimes[k], renderScale: renderScale)
                let edited = try process(frame)
                if recorder == nil {
                    let r = Self.pixelRect(edited)
                    size = (max(2, Int(r.width) & ~1), max(2, Int(r.height) & ~1))
                    space = buffer.colorSpace ?? .sRGB
                    recorder = try MovieRecorder(
                        destination: path,
                        settings: settings(
                            size: size, frameRate: frameRate, space: space, identifier: identifier, share: bitRateShare, codec: codec))
                }
                guard let recorder else { return }
                let rect = Self.pixelRect(edited, size: size)
                var frameOut: PixelBuffer
                if let reused = out {
                    frameOut = reused
                    out = nil
                } else {
                    frameOut = try PixelBuffer(width: size.0, height: size.1, format: .rgba8, colorSpace: space)
                }
                let placed = edited.cropped(to: rect).transformed(by: AffineTransform2D(translationX: -rect.minX, y: -rect.minY))
                try context.render(
                    placed, to: &frameOut, bounds: Rect(x: 0, y: 0, width: Double(size.0), height: Double(size.1)), colorSpace: space)
                frameOut.colorSpace = space
                try recorder.append(frame: frameOut, at: media.frameTimes[k])
                out = frameOut
            }
            guard let recorder else {
                throw DaguerreError.corruptData(format: "Live Photo movie", detail: "no frame could be decoded", path: media.movie.path)
            }
            if let audio = media.audio, recorder.settings.audio != nil {
                try recorder.append(audio: try samples(of: audio))
            }
            try checkCancelled()
            _ = try recorder.finish()
        } catch {
            recorder?.cancel()
            throw error
        }
        return size
    }

    private func settings(
        size: (Int, Int), frameRate: Int, space: ColorSpace, identifier: String, share: Double, codec: VideoCodec
    ) -> MovieSettings {
        var audio: MovieSettings.Audio?
        if let a = media.audio, let rate = a.sampleRate, let channels = a.channels, (1...2).contains(channels) {
            audio = MovieSettings.Audio(sampleRate: Int(rate.rounded()), channels: channels)
        }
        // About 7 Mbit/s at 1440×1080 (a Live Photo's rate), in proportion for other sizes.
        let bitRate = max(300_000, Int(7_000_000 * share * Double(size.0 * size.1) / (1440 * 1080)))
        var settings = MovieSettings(
            width: size.0, height: size.1, frameRate: max(1, min(240, frameRate)), bitRate: bitRate, colorSpace: space, audio: audio,
            metadata: media.movie.metadata.filter { $0.keySpace == .quickTimeMetadata && $0.key != MetadataKey.contentIdentifier.rawValue },
            contentIdentifier: identifier, stillImageTime: media.photoTime)
        settings.creationDate = media.movie.creationDate
        settings.videoCodec = codec
        return settings
    }

    /// The movie's sound at the edit's volume (16-bit PCM, interleaved): what its edit list
    /// plays (an iPhone's sound track runs past the movie's end, an AAC track starts with
    /// priming; the edit list cuts both), 'lpcm', 'sowt', 'twos' or AAC.
    private func samples(of track: MovieTrack) throws(DaguerreError) -> [Int16] {
        var pcm = try media.movie.pcm16Samples(track: track.id)
        let gain = max(0, min(1, audioVolume))
        guard gain != 1 else { return pcm }
        for i in pcm.indices { pcm[i] = Int16((Float(pcm[i]) * gain).rounded()) }
        return pcm
    }
}
