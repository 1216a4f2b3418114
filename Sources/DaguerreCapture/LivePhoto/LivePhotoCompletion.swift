// The last callbacks of a Live Photo request, in the documented order (SPEC L7, P8): the
// photo callbacks, didFinishRecordingLivePhotoMovie (every sample collected),
// didFinishProcessingLivePhotoToMovieFile (the file written), then didFinishCapture. The photo
// and the movie finish on different queues, in either order; this joins them.
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import Foundation
import Synchronization

/// Joins a Live Photo request's photo stage and its movie.
final class LivePhotoCompletion: Sendable {
    private struct State: Sendable {
        var photosDelivered = false
        var photoError: DaguerreError?
        /// The JPEG photo and its preview, kept for a Motion Photo.
        var photo: SampleBuffer?
        var preview: SampleBuffer?
        var recorded = false
        var recordedSent = false
        var movie: Result<LivePhotoMovieResult, DaguerreError>?
        var finishedSent = false
    }

    /// Where the movie is recorded: the caller's file, or a temporary one when only a Motion
    /// Photo was asked for (removed once the Motion Photo is written, or failed).
    enum Movie: Sendable {
        case file(URL)
        /// A movie only read to make the Motion Photo: held unnamed by its file group (never
        /// visible, so a kill leaves nothing), then discarded.
        case temporary(URL, AtomicFileGroup?)

        var url: URL {
            switch self {
            case .file(let url), .temporary(let url, _): url
            }
        }
    }

    private let state = Mutex(State())
    private let movieFile: Movie
    private let motionPhotoURL: URL?
    private let output: PhotoOutput
    private let delegate: WeakPhotoDelegate
    private let resolved: ResolvedPhotoSettings

    init(movie: Movie, motionPhotoURL: URL?, output: PhotoOutput, delegate: WeakPhotoDelegate, resolved: ResolvedPhotoSettings) {
        movieFile = movie
        self.motionPhotoURL = motionPhotoURL
        self.output = output
        self.delegate = delegate
        self.resolved = resolved
    }

    /// The photo callbacks are queued; `error` is the photo stage's, if it failed. The photo and
    /// its preview are kept only when a Motion Photo is to be made of them.
    func photosDelivered(error: DaguerreError?, photo: SampleBuffer?, preview: SampleBuffer?) {
        let keep = motionPhotoURL != nil
        update {
            $0.photosDelivered = true
            $0.photoError = error
            $0.photo = keep ? photo : nil
            $0.preview = keep ? preview : nil
        }
    }

    /// Every sample of the movie is collected.
    func movieRecorded() { update { $0.recorded = true } }

    /// The movie file is written, or failed.
    func movieFinished(_ result: Result<LivePhotoMovieResult, DaguerreError>) {
        update { $0.movie = result }
    }

    /// Applies a change and queues whatever callbacks it allows, in order, under the lock (so
    /// two queues cannot interleave them).
    private func update(_ change: (inout State) -> Void) {
        state.withLock { s in
            change(&s)
            guard s.photosDelivered else { return }
            let (output, delegate, resolved, movieFile) = (self.output, self.delegate, self.resolved, self.movieFile)
            // The callbacks name the file the caller asked for: the movie, or the Motion Photo
            // that holds it.
            let url: URL
            if case .temporary = movieFile, let motionPhotoURL { url = motionPhotoURL } else { url = movieFile.url }
            if s.recorded || s.movie != nil, !s.recordedSent {
                s.recordedSent = true
                output.pipeline.deliver { delegate.didFinishRecordingLivePhotoMovie(output, url: url, resolved) }
            }
            guard s.recordedSent, let movie = s.movie, !s.finishedSent else { return }
            s.finishedSent = true
            let photoError = s.photoError
            let (photo, preview, motionPhotoURL) = (s.photo, s.preview, self.motionPhotoURL)
            s.photo = nil
            s.preview = nil
            output.pipeline.deliver {
                var movieError: DaguerreError?
                var movie = movie
                if case .success(let made) = movie, let motionPhotoURL {
                    do throws(DaguerreError) {
                        try Self.writeMotionPhoto(
                            to: motionPhotoURL, photo: photo, preview: preview, movie: movieFile.url, at: made.photoDisplayTime)
                    } catch {
                        movie = .failure(error)
                    }
                }
                if case .temporary(let file, let group) = movieFile {
                    if let group { group.abandon() } else { try? FileManager.default.removeItem(at: file) }
                }
                switch movie {
                case .success(let made):
                    delegate.didFinishProcessingLivePhotoMovie(
                        output, url: url, duration: made.duration, photoDisplayTime: made.photoDisplayTime, resolved, error: nil)
                case .failure(let error):
                    movieError = error
                    delegate.didFinishProcessingLivePhotoMovie(output, url: url, duration: 0, photoDisplayTime: 0, resolved, error: error)
                }
                delegate.didFinishCapture(output, resolved, error: photoError ?? movieError)
            }
        }
    }

    /// The Live Photo as one Motion Photo 1.0 file: the JPEG (with its preview) and the movie
    /// as an MP4 after it, the still's time as the presentation timestamp.
    private static func writeMotionPhoto(to url: URL, photo: SampleBuffer?, preview: SampleBuffer?, movie: URL, at seconds: Double)
        throws(DaguerreError)
    {
        guard let photo else {
            throw .processorFailed(name: "Motion Photo", reason: "the photo failed, so there is no still to make \(url.path) from")
        }
        let jpeg = try PhotoDataRepresentation.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: preview)
        // The movie may be finished but not yet named, waiting for the still (a file group).
        let mp4 = try MotionPhotoVideo.mp4(fromLivePhotoMovie: AtomicFile.readablePath(of: movie.path))
        let file = try MotionPhoto.make(primary: jpeg, video: mp4, presentationTimestampUs: Int64((seconds * 1_000_000).rounded()))
        try AtomicFile.write(file, to: url.path)
    }
}
