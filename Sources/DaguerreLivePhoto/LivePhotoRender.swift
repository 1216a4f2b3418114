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
        let (base, baseScale) = try media.stillFile.image(forScale: scale)
        let image = try Self.scaled(base, by: scale / baseScale)
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
        func record(_ k: Int, _ frame: PixelBuffer) throws(DaguerreError) {
            if recorder == nil {
                recorder = try MovieRecorder(
                    destination: path,
                    settings: settings(
                        size: (frame.width, frame.height), frameRate: frameRate, space: frame.colorSpace ?? .sRGB,
                        identifier: identifier, share: bitRateShare, codec: codec))
            }
            try recorder?.append(frame: frame, at: media.frameTimes[k])
        }
        do throws(DaguerreError) {
            if frameScale < 1 {
                // Shrunk frames (a preview's) go through three threads at once: decoding and
                // libswscale's shrinking (on one core), the render (on every core) and the
                // encoder, each a few frames ahead of the next. Full-size frames are converted
                // on every core already, and staging them only makes the stages compete.
                let movie = media.movie
                let track = video.id
                let decoded = FrameHandoff<(Int, PixelBuffer)>(depth: 3) { (give) throws(DaguerreError) in
                    try movie.decodeFrames(track: track, range: 0..<count, scale: frameScale) { (k, buffer) throws(DaguerreError) in
                        try give((k, buffer))
                    }
                }
                let rendered = FrameHandoff<(Int, PixelBuffer)>(depth: 2) { (give) throws(DaguerreError) in
                    defer { decoded.stop() }
                    var size: (Int, Int)?
                    // Frames go to the encoder's thread, and come back to the pool once encoded.
                    var pool: PixelBufferPool?
                    while let (k, buffer) = try decoded.next() {
                        var out = pool?.makeBuffer()
                        try renderFrame(k, buffer, renderScale: renderScale, size: &size, into: &out)
                        guard let out else { continue }
                        if pool.map({ !$0.matches(out) }) ?? true {
                            pool = try PixelBufferPool(
                                width: out.width, height: out.height, format: out.format, colorSpace: out.colorSpace, alpha: out.alpha)
                        }
                        try give((k, out))
                    }
                }
                defer { rendered.stop() }
                while let (k, frame) = try rendered.next() { try record(k, frame) }
            } else {
                // One output frame for the whole movie: the recorder converts each frame before
                // the next is rendered, and every pixel is rendered anew.
                var size: (Int, Int)?
                var out: PixelBuffer?
                try media.movie.decodeFrames(track: video.id, range: 0..<count) { (k, buffer) throws(DaguerreError) in
                    try renderFrame(k, buffer, renderScale: renderScale, size: &size, into: &out)
                    if let out { try record(k, out) }
                }
            }
            guard let recorder else {
                throw DaguerreError.corruptData(format: "Live Photo movie", detail: "no frame could be decoded", path: media.movie.path)
            }
            if let audio = media.audio, recorder.settings.audio != nil {
                try recorder.append(audio: try samples(of: audio))
            }
            try checkCancelled()
            _ = try recorder.finish(videoEnd: media.videoEnd)
        } catch {
            recorder?.cancel()
            throw error
        }
        guard let recorder else { return (0, 0) }
        return (recorder.settings.width, recorder.settings.height)
    }

    /// One decoded frame through the processor, upright, rendered into `out` (made when nil or
    /// of another size) at `size`: the first frame's even size, which every later frame keeps.
    /// The frame's image is named by the movie and its index, not by hashing its bytes.
    private func renderFrame(
        _ k: Int, _ buffer: PixelBuffer, renderScale: Double, size: inout (Int, Int)?, into out: inout PixelBuffer?
    ) throws(DaguerreError) {
        try checkCancelled()
        let identity = "\(media.videoIdentity)|frame \(k)|\(buffer.width)×\(buffer.height) \(buffer.format)"
        let upright = try Image(buffer: buffer, identity: identity).oriented(media.videoOrientation)
        let frame = LivePhotoFrame(image: upright, type: .video, time: media.frameTimes[k], renderScale: renderScale)
        let edited = try process(frame)
        let frameSize: (Int, Int)
        if let size {
            frameSize = size
        } else {
            let r = Self.pixelRect(edited)
            frameSize = (max(2, Int(r.width) & ~1), max(2, Int(r.height) & ~1))
            size = frameSize
        }
        // The movie's tags name BT.709 (sRGB) or Display P3 primaries. Frames decoded in another
        // space (BT.2020: an iPhone's HLG movie, read as its SDR-compatible picture) render into
        // Display P3, the widest the tags can name, so the pixels are what the tags say.
        let decoded = buffer.colorSpace ?? .sRGB
        let space = VideoColorProperties(colorSpace: decoded).rgbColorSpace == decoded ? decoded : ColorSpace.displayP3
        if out == nil || out?.width != frameSize.0 || out?.height != frameSize.1 {
            out = try PixelBuffer(width: frameSize.0, height: frameSize.1, format: .rgba8, colorSpace: space)
        }
        guard var frameOut = out else { return }
        out = nil  // uniquely referenced while rendered into: no copy
        let rect = Self.pixelRect(edited, size: frameSize)
        let placed = edited.cropped(to: rect).transformed(by: AffineTransform2D(translationX: -rect.minX, y: -rect.minY))
        try context.render(
            placed, to: &frameOut, bounds: Rect(x: 0, y: 0, width: Double(frameSize.0), height: Double(frameSize.1)), colorSpace: space)
        frameOut.colorSpace = space
        out = frameOut
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
        // The original's clock, so that every frame keeps its exact time.
        if MovieSettings.videoTimescales.contains(media.video.timescale) { settings.videoTimescale = media.video.timescale }
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
