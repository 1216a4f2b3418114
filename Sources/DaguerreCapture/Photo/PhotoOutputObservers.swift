// The photo output's observable values (S2 scene flags; responsive capture's readiness), as
// AsyncStreams and as key-value-observing-style handlers: each starts with the current value and
// then hears every change.
import Synchronization

/// One observable value: its current value, and the streams that follow it.
final class ObservedValue<Value: Sendable & Equatable>: Sendable {
    private struct State: Sendable {
        var current: Value
        var nextID = 0
        var streams: [Int: AsyncStream<Value>.Continuation] = [:]
        var handlers: [Int: @Sendable (Value) -> Void] = [:]
    }
    private let state: Mutex<State>

    init(_ initial: Value) { state = Mutex(State(current: initial)) }

    var current: Value { state.withLock { $0.current } }

    /// A stream of the value now and at every change, until the caller stops iterating.
    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let id = state.withLock { s in
            s.nextID += 1
            s.streams[s.nextID] = continuation
            continuation.yield(s.current)
            return s.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    /// Calls `handler` with the value now and at every change, on the thread that made the
    /// change (as key-value observing does, and on no task pool, so that it runs however busy
    /// the program's tasks are), until the observation is invalidated or released.
    func observe(_ handler: @escaping @Sendable (Value) -> Void) -> ValueObservation {
        let (id, now) = state.withLock { s in
            s.nextID += 1
            s.handlers[s.nextID] = handler
            return (s.nextID, s.current)
        }
        handler(now)
        return ValueObservation { [weak self] in self?.state.withLock { _ = $0.handlers.removeValue(forKey: id) } }
    }

    /// Sets the value; the streams and handlers hear of it only when it changed. Handlers are
    /// called after the lock is released, so that they may read or set the value.
    func publish(_ value: Value) {
        let handlers = state.withLock { s -> [@Sendable (Value) -> Void] in
            guard s.current != value else { return [] }
            s.current = value
            for c in s.streams.values { c.yield(value) }
            return Array(s.handlers.values)
        }
        for handler in handlers { handler(value) }
    }
}

/// An observation of a photo output's value (NSKeyValueObservation's part): it lasts until
/// `invalidate()` is called or it is released.
///
/// ```swift
/// let observation = photoOutput.observeSceneMonitoring { scene in print(scene.isFlashScene) }
/// // ...
/// observation.invalidate()
/// ```
public final class ValueObservation: Sendable {
    private let cancel: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) { self.cancel = Mutex(cancel) }

    /// Stops the observation; its handler is not called again once this returns (a call
    /// already under way on another thread may still finish).
    public func invalidate() {
        let c = cancel.withLock { c -> (@Sendable () -> Void)? in
            defer { c = nil }
            return c
        }
        c?()
    }

    deinit { invalidate() }
}

/// The two values a photo output publishes.
final class PhotoOutputObservers: Sendable {
    private let sceneValue = ObservedValue(SceneMonitoringState())
    private let readinessValue = ObservedValue(PhotoCaptureReadiness.sessionNotRunning)

    var scene: SceneMonitoringState { sceneValue.current }
    var readiness: PhotoCaptureReadiness { readinessValue.current }
    func sceneStream() -> AsyncStream<SceneMonitoringState> { sceneValue.stream() }
    func observeScene(_ handler: @escaping @Sendable (SceneMonitoringState) -> Void) -> ValueObservation {
        sceneValue.observe(handler)
    }
    func readinessStream() -> AsyncStream<PhotoCaptureReadiness> { readinessValue.stream() }
    func publish(scene: SceneMonitoringState) { sceneValue.publish(scene) }
    func publish(readiness: PhotoCaptureReadiness) { readinessValue.publish(readiness) }
}
