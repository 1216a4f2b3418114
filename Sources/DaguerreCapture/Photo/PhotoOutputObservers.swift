// The photo output's observable values (S2 scene flags; responsive capture's readiness) as
// AsyncStreams: each stream starts with the current value and then yields every change.
import Synchronization

/// One observable value: its current value, and the streams that follow it.
final class ObservedValue<Value: Sendable & Equatable>: Sendable {
    private struct State: Sendable {
        var current: Value
        var nextID = 0
        var streams: [Int: AsyncStream<Value>.Continuation] = [:]
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

    /// Sets the value; the streams hear of it only when it changed.
    func publish(_ value: Value) {
        state.withLock { s in
            guard s.current != value else { return }
            s.current = value
            for c in s.streams.values { c.yield(value) }
        }
    }
}

/// The two values a photo output publishes.
final class PhotoOutputObservers: Sendable {
    private let sceneValue = ObservedValue(SceneMonitoringState())
    private let readinessValue = ObservedValue(PhotoCaptureReadiness.sessionNotRunning)

    var scene: SceneMonitoringState { sceneValue.current }
    var readiness: PhotoCaptureReadiness { readinessValue.current }
    func sceneStream() -> AsyncStream<SceneMonitoringState> { sceneValue.stream() }
    func readinessStream() -> AsyncStream<PhotoCaptureReadiness> { readinessValue.stream() }
    func publish(scene: SceneMonitoringState) { sceneValue.publish(scene) }
    func publish(readiness: PhotoCaptureReadiness) { readinessValue.publish(readiness) }
}
