import Dispatch

/// Runs a long, blocking measurement (a quality protocol that develops dozens of images and
/// waits for a Python judge) on a Dispatch thread, and awaits it there.
///
/// Swift Testing runs tests on the concurrency pool, which has one thread per core: two such
/// measurements held both threads of a 2-core machine for minutes, and every other test,
/// waiting for a thread, ran into its time limit. The body must not record issues (it runs
/// outside the test's task): it returns what it measured, and the test checks that.
///
/// ```swift
/// let scores = try await onOwnThread { try measureKodak24(version: "4") }
/// #expect(scores.mean >= 38.9)
/// ```
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
