// Recording a movie synchronously from a command: `record` and the demo both start a
// MovieFileOutput, let the session run, stop it and wait for the file (SPEC C2).
import DaguerreCapture
import DaguerreCore
import Dispatch
import Foundation

/// Records `movie` to `path` while `body` runs (it sleeps, or advances a virtual clock), then
/// stops and waits for the file to be finished: its path, or the recording's error.
///
/// ```swift
/// let path = try recordMovie(movie, to: "clip.mov") { Thread.sleep(forTimeInterval: 2) }
/// ```
func recordMovie(_ movie: MovieFileOutput, to path: String, while body: () -> Void) throws(DaguerreError) -> String {
    let done = DispatchSemaphore(value: 0)
    let outcome = RecordingOutcome()
    try movie.startRecording(to: path) { result in
        outcome.set(result)
        done.signal()
    }
    body()
    movie.stopRecording()
    done.wait()
    return try outcome.get()
}

/// The recording's result, handed from the output's callback to the command.
/// Safety: written once under the lock before the semaphore is signalled, read after.
private final class RecordingOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<String, DaguerreError>?
    func set(_ r: Result<String, DaguerreError>) {
        lock.lock()
        result = r
        lock.unlock()
    }
    func get() throws(DaguerreError) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw .captureConfiguration(problem: "the recording finished without a result", fix: "Try again.") }
        return try result.get()
    }
}
