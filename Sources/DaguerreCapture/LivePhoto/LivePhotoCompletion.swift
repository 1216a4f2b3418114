// The last callbacks of a Live Photo request, in the documented order (SPEC L7, P8): the
// photo callbacks, didFinishRecordingLivePhotoMovie (every sample collected),
// didFinishProcessingLivePhotoToMovieFile (the file written), then didFinishCapture. The photo
// and the movie finish on different queues, in either order; this joins them.
import DaguerreCore
import Foundation
import Synchronization

/// Joins a Live Photo request's photo stage and its movie.
final class LivePhotoCompletion: Sendable {
    private struct State: Sendable {
        var photosDelivered = false
        var photoError: DaguerreError?
        var recorded = false
        var recordedSent = false
        var movie: Result<LivePhotoMovieResult, DaguerreError>?
        var finishedSent = false
    }

    private let state = Mutex(State())
    private let url: URL
    private let output: PhotoOutput
    private let delegate: WeakPhotoDelegate
    private let resolved: ResolvedPhotoSettings
    /// Called once the movie is written (or failed), after its callback is queued.
    private let movieDone: @Sendable (Result<LivePhotoMovieResult, DaguerreError>) -> Void

    init(
        url: URL, output: PhotoOutput, delegate: WeakPhotoDelegate, resolved: ResolvedPhotoSettings,
        movieDone: @escaping @Sendable (Result<LivePhotoMovieResult, DaguerreError>) -> Void = { _ in }
    ) {
        self.url = url
        self.output = output
        self.delegate = delegate
        self.resolved = resolved
        self.movieDone = movieDone
    }

    /// The photo callbacks are queued; `error` is the photo stage's, if it failed.
    func photosDelivered(error: DaguerreError?) {
        update {
            $0.photosDelivered = true
            $0.photoError = error
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
            let (output, delegate, resolved, url) = (self.output, self.delegate, self.resolved, self.url)
            if s.recorded || s.movie != nil, !s.recordedSent {
                s.recordedSent = true
                output.pipeline.deliver { delegate.didFinishRecordingLivePhotoMovie(output, url: url, resolved) }
            }
            guard s.recordedSent, let movie = s.movie, !s.finishedSent else { return }
            s.finishedSent = true
            let photoError = s.photoError
            let movieDone = self.movieDone
            output.pipeline.deliver {
                var movieError: DaguerreError?
                switch movie {
                case .success(let made):
                    delegate.didFinishProcessingLivePhotoMovie(
                        output, url: url, duration: made.duration, photoDisplayTime: made.photoDisplayTime, resolved, error: nil)
                case .failure(let error):
                    movieError = error
                    delegate.didFinishProcessingLivePhotoMovie(output, url: url, duration: 0, photoDisplayTime: 0, resolved, error: error)
                }
                movieDone(movie)
                delegate.didFinishCapture(output, resolved, error: photoError ?? movieError)
            }
        }
    }
}
