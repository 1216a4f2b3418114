// A Live Photo request's movie (SPEC L1–L4, L6, L7, W5): its settings (the movie format for
// the camera, the session's colour space, the microphone's audio, the caller's metadata), its
// job in the Live Photo recorder, and the join of its callbacks with the photo's.
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import Foundation

extension PhotoOutput {
    /// Starts the movie of an accepted Live Photo request: frames from 1.5 s before it are held
    /// from now on. A Motion Photo asked for instead of the pair has its movie recorded to a
    /// temporary file.
    func startLivePhotoMovie(job: PhotoCaptureJob, device: any PhotoCaptureDevice) -> LivePhotoCapture {
        let format = LivePhotoMovieFormat(streamFormat: device.activeFormat.dimensions)
        let identifier = UUID().uuidString
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("daguerre-live-\(identifier).MOV")
        let file: LivePhotoCompletion.Movie =
            job.settings.livePhotoMovieFileURL.map { .file($0) }
            ?? .temporary(temporary, try? AtomicFileGroup(destinations: [temporary.path]))
        let url = file.url
        let completion = LivePhotoCompletion(
            movie: file, motionPhotoURL: job.settings.motionPhotoFileURL, output: self, delegate: job.delegate, resolved: job.resolved)
        let size = format.movieDimensions
        // About 7 Mbit/s at 1440×1080 (L2), in proportion for smaller movies.
        let bitRate = max(500_000, Int(7_000_000 * Double(size.width * size.height) / (1440 * 1080)))
        let encoder = MovieSettings(
            width: size.width, height: size.height, frameRate: LivePhotoMovieFormat.frameRate, bitRate: bitRate,
            colorSpace: device.activeColorSpace.colorSpace, audio: livePhotoAudio(), metadata: job.settings.livePhotoMovieMetadata,
            contentIdentifier: identifier, encoder: livePhotoMovieEncoder)
        var request = LivePhotoMovieRequest(
            path: url.path, format: format,
            requestTime: job.requestTime, autoTrim: isLivePhotoAutoTrimmingEnabled, stabilize: isLivePhotoMovieStabilizationEnabled,
            encoder: encoder)
        if let observer = livePhotoMovieFrameObserver { request.frameObserver = { observer(url, $0) } }
        let movie = LivePhotoMovieJob(
            request: request,
            events: LivePhotoMovieEvents(
                recorded: { completion.movieRecorded() }, finished: { completion.movieFinished($0) }))
        livePhoto.start(movie)
        return LivePhotoCapture(movie: movie, completion: completion, contentIdentifier: identifier)
    }

    /// The movie's audio: the connected microphone's format (mono or stereo), or none.
    private func livePhotoAudio() -> MovieSettings.Audio? {
        guard let mic = connection(with: .audio), mic.isEnabled, let format = mic.inputPort.input.device.activeFormat.audioFormat,
            format.channels <= 2
        else { return nil }
        return MovieSettings.Audio(sampleRate: format.sampleRate, channels: format.channels)
    }
}
