// The saved still rendered and encoded beside the movie (SPEC E7): a save's two halves share
// the cores, so the still's serial stretches (the JPEG or HEIC encoder, the file's decode) run
// while the movie's frames keep the other core busy, instead of before them.
import DaguerreCore
import Dispatch
import Synchronization

/// Work that makes a still's bytes on a thread of its own, started at once and waited for by
/// ``value()``.
///
/// ```swift
/// let still = LivePhotoStillJob { () throws(DaguerreError) in try render.stillData(try render.still(scale: 1), …) }
/// defer { still.wait() }
/// try still.beside { () throws(DaguerreError) in try render.movie(to: moviePath, …) }
/// try AtomicFile.write(try still.value(), to: stillPath)
/// ```
final class LivePhotoStillJob: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<[UInt8], DaguerreError>?>(nil)

    init(_ body: @escaping @Sendable () throws(DaguerreError) -> [UInt8]) {
        WorkerPool.startThread { self.run(body) }
    }

    private func run(_ body: @Sendable () throws(DaguerreError) -> [UInt8]) {
        let outcome: Result<[UInt8], DaguerreError>
        do throws(DaguerreError) { outcome = .success(try body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        finished.signal()
    }

    /// Waits until the work has ended (at once when it has).
    func wait() {
        finished.wait()
        finished.signal()
    }

    /// Runs `body` (the movie) while the still renders; when both fail, the still's error is
    /// the one thrown, as when the still rendered first.
    @discardableResult
    func beside<T>(_ body: () throws(DaguerreError) -> T) throws(DaguerreError) -> T {
        do throws(DaguerreError) { return try body() } catch { throw failure() ?? error }
    }

    /// The error that ended the work, or nil when it made the still; waits for it.
    private func failure() -> DaguerreError? {
        do throws(DaguerreError) {
            _ = try value()
            return nil
        } catch {
            return error
        }
    }

    /// The still's bytes, or the error that ended the work; waits for it.
    func value() throws(DaguerreError) -> [UInt8] {
        wait()
        let outcome = result.withLock { $0 } ?? .failure(.processorFailed(name: "Live Photo still", reason: "it ended without a result"))
        return try outcome.get()
    }
}
