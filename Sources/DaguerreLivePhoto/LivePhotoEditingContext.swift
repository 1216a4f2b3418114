// Editing a Live Photo (SPEC E1–E7; PhotoKit's PHLivePhotoEditingContext): one frame processor
// edits the still and every frame of the movie alike; a preview renders quickly at a target
// size; the save renders at full size into files that still pair, with the edit's adjustment
// data; cancel() ends what is pending.
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import Dispatch
import Foundation
import Synchronization

/// An edit of one Live Photo.
///
/// Opening reads the still and the movie's index, and fails when the input is not a Live Photo
/// (identifiers that differ or are missing, no video track, a Motion Photo whose video was
/// stripped). Frames reach the processor upright, the still's EXIF orientation and the movie's
/// rotation applied alike, so one crop means the same region of the scene in both.
///
/// ```swift
/// let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
/// context.frameProcessor = { frame in
///     let e = frame.image.extent
///     let side = min(e.width, e.height)
///     return frame.image.cropped(to: Rect(x: (e.width - side) / 2, y: (e.height - side) / 2, width: side, height: side))
/// }
/// context.audioVolume = 0.5
/// let preview = try await context.prepareLivePhotoForPlayback(targetSize: Size(width: 640, height: 640))
/// try await context.saveLivePhoto(to: output)
/// ```
public final class LivePhotoEditingContext: Sendable {
    private struct State: Sendable {
        var audioVolume: Float = 1
        var frameProcessor: LivePhotoFrameProcessor?
        /// The flags of the previews and saves under way, raised by cancel().
        var pending: [ObjectIdentifier: CancellationFlag] = [:]
    }

    /// Raised by cancel(); read by a render between frames.
    final class CancellationFlag: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .relaxed) }
        var isRaised: Bool { raised.load(ordering: .relaxed) }
    }

    public let livePhotoEditingInput: ContentEditingInput
    let media: LivePhotoMedia
    private let state = Mutex(State())
    private let context: Context

    /// Opens `livePhotoEditingInput`; throws when it is not a Live Photo.
    public init(livePhotoEditingInput: ContentEditingInput) throws(DaguerreError) {
        self.livePhotoEditingInput = livePhotoEditingInput
        media = try LivePhotoMedia.open(livePhotoEditingInput)
        context = try Context()
    }

    /// The still at full size, upright.
    public var fullSizeImage: Image { media.still }
    /// The movie's length.
    public var duration: MediaTime { media.duration }
    /// When the still was taken, on the movie's timeline.
    public var photoTime: MediaTime { media.photoTime }
    /// The stored still's EXIF orientation (1…8); ``fullSizeImage`` is already upright.
    public var orientation: Int { media.stillFile.orientation }
    /// The identifier that pairs the still and the movie (the still's MakerNote and the movie's
    /// content identifier, equal); nil for a Motion Photo, one file that needs none.
    public var contentIdentifier: String? { media.contentIdentifier }
    /// The movie's size, upright.
    public var movieSize: Size {
        let (w, h) = media.videoSize
        return Size(width: Double(w), height: Double(h))
    }

    /// The sound's volume in the saved movie, 0…1 (1, the default, keeps it as it is).
    public var audioVolume: Float {
        get { state.withLock { $0.audioVolume } }
        set { state.withLock { $0.audioVolume = newValue.isFinite ? max(0, min(1, newValue)) : 1 } }
    }

    /// Called for the still and for every frame of the movie; returns the edited frame or throws,
    /// which ends the preview or save with that error. Nil leaves the frames as they are.
    public var frameProcessor: LivePhotoFrameProcessor? {
        get { state.withLock { $0.frameProcessor } }
        set { state.withLock { $0.frameProcessor = newValue } }
    }

    /// Ends every pending preview and save with a `.cancelled` error; nothing of theirs is left.
    public func cancel() {
        state.withLock { s in for flag in s.pending.values { flag.raise() } }
    }

    // MARK: Rendering

    /// Runs `body` off the caller's task with a render made from the current settings,
    /// registered for cancel().
    private func run<T: Sendable>(_ what: String, _ body: @escaping @Sendable (LivePhotoRender) throws(DaguerreError) -> T)
        async throws(DaguerreError) -> T
    {
        let flag = CancellationFlag()
        let (volume, processor) = state.withLock { s in
            s.pending[ObjectIdentifier(flag)] = flag
            return (s.audioVolume, s.frameProcessor)
        }
        let render = LivePhotoRender(
            media: media, processor: processor, audioVolume: volume, isCancelled: { flag.isRaised }, context: context, what: what)
        let result: Result<T, DaguerreError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(DaguerreError) {
                    continuation.resume(returning: .success(try body(render)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        state.withLock { _ = $0.pending.removeValue(forKey: ObjectIdentifier(flag)) }
        return try result.get()
    }

    /// Renders a preview-quality Live Photo fitted into `targetSize` (SPEC E6): the still and
    /// the movie through the frame processor at that size, into temporary files that the
    /// returned preview removes when it is released.
    public func prepareLivePhotoForPlayback(targetSize: Size) async throws(DaguerreError) -> LivePhotoPreview {
        guard targetSize.width.isFinite, targetSize.height.isFinite, targetSize.width >= 2, targetSize.height >= 2 else {
            throw .invalidArgument(what: "Preview size \(targetSize)", problem: "give a finite size of at least 2×2 pixels")
        }
        let e = media.still.extent
        let scale = min(1, targetSize.width / e.width, targetSize.height / e.height)
        return try await run("The Live Photo preview") { (render) throws(DaguerreError) -> LivePhotoPreview in
            let folder = try LivePhotoPreview.makeFolder()
            do throws(DaguerreError) {
                let id = UUID().uuidString
                let stillURL = folder.appendingPathComponent("preview.JPG")
                let movieURL = folder.appendingPathComponent("preview.MOV")
                // The still renders beside the movie, as in a save.
                let stillJob = LivePhotoStillJob { () throws(DaguerreError) -> [UInt8] in
                    try render.stillData(try render.still(scale: scale), format: .jpeg, identifier: id, adjustment: nil, quality: 0.8)
                }
                defer { stillJob.wait() }
                let size = try stillJob.beside { () throws(DaguerreError) in
                    try render.movie(to: movieURL.path, stillScale: scale, identifier: id, bitRateShare: 0.5)
                }
                try AtomicFile.write(try stillJob.value(), to: stillURL.path)
                return LivePhotoPreview(
                    stillURL: stillURL, movieURL: movieURL, size: Size(width: Double(size.0), height: Double(size.1)),
                    photoTime: self.media.photoTime, folder: folder)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
        }
    }

    /// Renders the edit at full resolution and writes it to `output` (SPEC E7): a still and a
    /// movie that pair under one new content identifier (or one Motion Photo), the duration and
    /// the photo time kept, the sound at ``audioVolume``, the adjustment data in the still's XMP
    /// and an `.AAE` sidecar. Every file appears together when all are written, or none does.
    public func saveLivePhoto(to output: ContentEditingOutput) async throws(DaguerreError) {
        try output.check()
        let identifier = Self.contentIdentifier(for: media, adjustment: output.adjustmentData)
        try await run("Saving the edited Live Photo") { (render) throws(DaguerreError) in
            let format: LivePhotoPairFormat
            if case .pair = output.destination { format = output.pairFormat } else { format = .jpeg }
            let adjustment = output.adjustmentData
            // The still renders and encodes on its own thread while the movie renders here.
            let stillJob = LivePhotoStillJob { () throws(DaguerreError) -> [UInt8] in
                try render.stillData(
                    try render.still(scale: 1), format: format, identifier: identifier, adjustment: adjustment, quality: 0.92)
            }
            defer { stillJob.wait() }
            let sidecar =
                output.writesSidecar ? output.adjustmentData.map { (AdjustmentData.sidecarURL(forStill: output.stillURL), $0) } : nil
            switch output.destination {
            case .pair(let stillURL, let movieURL):
                let group = try AtomicFileGroup(destinations: [stillURL.path, movieURL.path] + (sidecar.map { [$0.0.path] } ?? []))
                try stillJob.beside { () throws(DaguerreError) in
                    try render.movie(
                        to: movieURL.path, stillScale: self.media.videoRenderScale, identifier: identifier, codec: format.videoCodec)
                }
                try AtomicFile.write(try stillJob.value(), to: stillURL.path)
                if let (url, data) = sidecar { try AtomicFile.write(try data.sidecar(), to: url.path) }
                try group.commit()
            case .motionPhoto(let url):
                let folder = try LivePhotoPreview.makeFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let movie = folder.appendingPathComponent("movie.MOV").path
                try stillJob.beside { () throws(DaguerreError) in
                    try render.movie(to: movie, stillScale: self.media.videoRenderScale, identifier: identifier)
                }
                let mp4 = try MotionPhotoVideo.mp4(fromLivePhotoMovie: movie)
                let micros = Int64((self.media.photoTime.seconds * 1_000_000).rounded())
                let file = try MotionPhoto.make(primary: try stillJob.value(), video: mp4, presentationTimestampUs: micros)
                let group = try AtomicFileGroup(destinations: [url.path] + (sidecar.map { [$0.0.path] } ?? []))
                try AtomicFile.write(file, to: url.path)
                if let (sidecarURL, data) = sidecar { try AtomicFile.write(try data.sidecar(), to: sidecarURL.path) }
                try group.commit()
            }
        }
    }

    /// The saved pair's identifier: derived from the original's identity and the adjustment data
    /// when there is one, so that an edit resumed from it gives the same files byte for byte; a
    /// new random one otherwise.
    static func contentIdentifier(for media: LivePhotoMedia, adjustment: AdjustmentData?) -> String {
        guard let adjustment else { return UUID().uuidString }
        var halves: [UInt64] = []
        for salt in ["live-photo-edit-identifier-0", "live-photo-edit-identifier-1"] {
            var d = DigestBuilder(salt)
            d.add(media.contentIdentifier ?? "")
            d.add(media.stillFile.bytes.count)
            d.add(adjustment.formatIdentifier)
            d.add(adjustment.formatVersion)
            d.add(String(decoding: adjustment.data, as: UTF8.self))
            d.add(adjustment.data.count)
            halves.append(d.finish().value)
        }
        // A UUID of version 8 (custom) and the RFC 4122 variant.
        var bytes = withUnsafeBytes(of: halves[0].bigEndian, Array.init) + withUnsafeBytes(of: halves[1].bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
            String(hex[hex.index(hex.startIndex, offsetBy: r.lowerBound)..<hex.index(hex.startIndex, offsetBy: r.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}
