// The delegate of one `daguerre capture` request (SPEC P8, P12, R5): it notes each callback with
// its time since the request, and writes each image through the data representations (JPEG,
// DNG), or, for uncompressed photos, as PNG through the engine so they can be viewed.
import Daguerre
import Dispatch
import Foundation
import Synchronization

/// One request's callbacks and files. A new log per request, as session 501 advises for delegates.
///
/// ```swift
/// let log = try PhotoCaptureLog(number: 1, folder: "out")
/// try photoOutput.capturePhoto(with: settings, delegate: log)
/// _ = log.wait(timeout: 600); print(log.report)
/// ```
final class PhotoCaptureLog: PhotoProcessingDelegate, RawPhotoProcessingDelegate, LivePhotoMovieProcessingDelegate, Sendable {
    struct State: Sendable {
        var resolved: ResolvedPhotoSettings?
        var lines: [String] = []
        var files: [String] = []
        var errors: [DaguerreError] = []
        var images = 0
    }

    let number: Int
    let folder: String
    /// False when the JPEG goes only into a Motion Photo (made by the output), not a file of its own.
    let writesJPEG: Bool
    /// A Live Photo's files, which appear together once the movie is written (or not at all).
    let livePhotoFiles: AtomicFileGroup?
    private let requested = Date()
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    /// A log for request `number`, whose files go to `folder`. A Live Photo's `settings` say
    /// which files it makes: a Motion Photo instead of the pair holds the JPEG (no photo-N.jpg
    /// of its own), and a pair's files appear together, once the movie is written.
    init(number: Int, folder: String, settings: PhotoSettings? = nil) throws(DaguerreError) {
        self.number = number
        self.folder = folder
        writesJPEG = settings.map { $0.motionPhotoFileURL == nil || $0.livePhotoMovieFileURL != nil } ?? true
        if let settings, let movie = settings.livePhotoMovieFileURL {
            let still = (folder as NSString).appendingPathComponent("photo-\(number).jpg")
            livePhotoFiles = try AtomicFileGroup(destinations: [still, movie.path] + (settings.motionPhotoFileURL.map { [$0.path] } ?? []))
        } else {
            livePhotoFiles = nil
        }
    }

    var resolved: ResolvedPhotoSettings? { state.withLock { $0.resolved } }
    var files: [String] { state.withLock { $0.files } }
    var errors: [DaguerreError] { state.withLock { $0.errors } }

    /// Waits (real time) for didFinishCapture; false after `timeout` seconds.
    func wait(timeout: Double) -> Bool { done.wait(timeout: .now() + timeout) == .success }

    /// The resolved settings, the timeline and the files, for people.
    var report: String {
        state.withLock { s in
            var out = ["Photo \(number):"]
            if let r = s.resolved {
                out.append("  resolved: \(Self.describe(r))")
            }
            out += s.lines.map { "  \($0)" }
            out += s.files.map { "  wrote \($0)" }
            return out.joined(separator: "\n")
        }
    }

    static func describe(_ r: ResolvedPhotoSettings) -> String {
        var parts: [String] = []
        if r.photoDimensions.width > 0 { parts.append("photo \(r.photoDimensions)") }
        if r.rawPhotoDimensions.width > 0 { parts.append("RAW \(r.rawPhotoDimensions)") }
        if r.previewPhotoDimensions.width > 0 { parts.append("preview \(r.previewPhotoDimensions)") }
        if r.livePhotoMovieDimensions.width > 0 { parts.append("Live Photo movie \(r.livePhotoMovieDimensions)") }
        parts.append("flash \(r.isFlashEnabled ? "on" : "off")")
        parts.append("still-image stabilization \(r.isStillImageStabilizationEnabled ? "on" : "off")")
        parts.append("\(r.expectedPhotoCount) photo callback\(r.expectedPhotoCount == 1 ? "" : "s")")
        parts.append("uniqueID \(r.uniqueID)")
        return parts.joined(separator: ", ")
    }

    private func note(_ what: String, _ resolved: ResolvedPhotoSettings) {
        let ms = Date().timeIntervalSince(requested) * 1000
        state.withLock {
            if $0.resolved == nil { $0.resolved = resolved }
            $0.lines.append(String(format: "%9.1f ms  %@", ms, what))
        }
    }

    private func fail(_ error: DaguerreError) { state.withLock { $0.errors.append(error) } }

    /// The next image's file name: photo-N.EXT, or photo-N-I.EXT for the I-th image of a bracket.
    private func path(_ ext: String) -> String {
        let index = state.withLock { s -> Int in
            s.images += 1
            return s.images
        }
        let expected = resolved?.expectedPhotoCount ?? 1
        let rawPlus = (resolved?.rawPhotoDimensions.width ?? 0) > 0 && (resolved?.photoDimensions.width ?? 0) > 0
        let perImage = rawPlus ? 2 : 1
        let name = expected > perImage ? "photo-\(number)-\((index - 1) / perImage + 1).\(ext)" : "photo-\(number).\(ext)"
        return (folder as NSString).appendingPathComponent(name)
    }

    // MARK: Callbacks

    func capture(_ captureOutput: PhotoOutput, willBeginCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        note("willBeginCapture", resolvedSettings)
    }

    func capture(_ captureOutput: PhotoOutput, willCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        note("willCapturePhoto", resolvedSettings)
    }

    func capture(_ captureOutput: PhotoOutput, didCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        note("didCapturePhoto", resolvedSettings)
    }

    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
        error: DaguerreError?
    ) {
        let label = "didFinishProcessingPhoto" + (bracketSettings.map { " (\($0))" } ?? "")
        guard let photoSampleBuffer else {
            note(label + ": " + (error?.description ?? "no photo"), resolvedSettings)
            if let error { fail(error) }
            return
        }
        note(label + ": \(photoSampleBuffer.width)×\(photoSampleBuffer.height) \(Self.kind(of: photoSampleBuffer))", resolvedSettings)
        do {
            if case .jpeg = photoSampleBuffer.content {
                guard writesJPEG else { return }
                let file = path("jpg")
                try AtomicFile.write(
                    try PhotoOutput.jpegPhotoDataRepresentation(
                        forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer), to: file)
                state.withLock { $0.files.append(file) }
            } else {
                let file = path("png")
                try Self.writePNG(photoSampleBuffer, to: file)
                state.withLock { $0.files.append(file) }
            }
        } catch {
            fail(error)
        }
    }

    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingRawPhotoSampleBuffer rawSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
        error: DaguerreError?
    ) {
        let label = "didFinishProcessingRawPhoto" + (bracketSettings.map { " (\($0))" } ?? "")
        guard let rawSampleBuffer else {
            note(label + ": " + (error?.description ?? "no RAW photo"), resolvedSettings)
            if let error { fail(error) }
            return
        }
        note(label + ": \(rawSampleBuffer.width)×\(rawSampleBuffer.height) \(Self.kind(of: rawSampleBuffer))", resolvedSettings)
        do {
            let file = path("dng")
            try AtomicFile.write(
                try PhotoOutput.dngPhotoDataRepresentation(
                    forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer),
                to: file)
            state.withLock { $0.files.append(file) }
        } catch {
            fail(error)
        }
    }

    func capture(
        _ captureOutput: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: ResolvedPhotoSettings
    ) {
        note("didFinishRecordingLivePhotoMovie", resolvedSettings)
    }

    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: Double,
        photoDisplayTime: Double, resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        if let error {
            note("didFinishProcessingLivePhotoToMovieFile: \(error.description)", resolvedSettings)
            abandonLivePhoto(error)
            return
        }
        note(
            String(format: "didFinishProcessingLivePhotoToMovieFile: %.2f s, the photo at %.2f s", duration, photoDisplayTime),
            resolvedSettings)
        do {
            try livePhotoFiles?.commit()
        } catch {
            abandonLivePhoto(error)
            return
        }
        state.withLock { $0.files.append(outputFileURL.path) }
        let motionPhoto = outputFileURL.deletingPathExtension().appendingPathExtension("MP.jpg").path
        if FileManager.default.fileExists(atPath: motionPhoto) { state.withLock { $0.files.append(motionPhoto) } }
    }

    func capture(
        _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        note("didFinishCapture" + (error.map { ": \($0.description)" } ?? ""), resolvedSettings)
        if let error, !errors.contains(error) { fail(error) }
        done.signal()
    }

    // MARK: Files

    /// A Live Photo whose movie failed: none of its files appear (the still waited for it).
    private func abandonLivePhoto(_ error: DaguerreError) {
        fail(error)
        guard let group = livePhotoFiles else { return }
        group.abandon()
        state.withLock { s in s.files.removeAll { group.destinations.contains($0) } }
    }

    static func kind(of buffer: SampleBuffer) -> String {
        if case .jpeg(let bytes) = buffer.content { return "JPEG, \(bytes.count / 1024) KiB" }
        return buffer.pixelFormatType?.fourCC ?? "?"
    }

    /// An uncompressed photo (BGRA, 420f, 420v) as an 8-bit RGB PNG in the photo's colour space,
    /// written by the engine (its writers are atomic).
    static func writePNG(_ photo: SampleBuffer, to path: String) throws(DaguerreError) {
        let space = photo.colorSpace ?? .sRGB
        let pixels: PixelBuffer
        switch photo.content {
        case .pixels(let buffer): pixels = buffer
        case .yCbCr420(let yuv): pixels = try YCbCrConversion.makeRGBA(from: yuv)
        case .jpeg, .bayer:
            throw .unsupported(feature: "a PNG of a \(kind(of: photo)) photo", hint: "JPEG photos and RAW photos have files of their own.")
        }
        try Context().writePNGRepresentation(
            of: Image(buffer: pixels, colorSpace: space), to: URL(fileURLWithPath: path), format: .rgb8, colorSpace: space)
    }
}
