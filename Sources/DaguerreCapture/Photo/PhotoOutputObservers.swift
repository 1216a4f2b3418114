// The photo output's observable values (S2 scene flags; responsive capture's readiness) as
// AsyncStreams: each stream starts with the current value and then yields every change.
import Synchronization

/// The open streams of one photo output.
final class PhotoOutputObservers: Sendable {
    private struct State: Sendable {
        var nextID = 0
        var scene: [Int: AsyncStream<SceneMonitoringState>.Continuation] = [:]
        var readiness: [Int: AsyncStream<PhotoCaptureReadiness>.Continuation] = [:]
        var currentScene = SceneMonitoringState()
        var currentReadiness = PhotoCaptureReadiness.sessionNotRunning
    }
    private let state = Mutex(State())

    var scene: SceneMonitoringState { state.withLock { $0.currentScene } }
    var readiness: PhotoCaptureReadiness { state.withLock { $0.currentReadiness } }

    func sceneStream() -> AsyncStream<SceneMonitoringState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SceneMonitoringState.self)
        let id = state.withLock { s in
            s.nextID += 1
            s.scene[s.nextID] = continuation
            continuation.yield(s.currentScene)
            return s.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.scene.removeValue(forKey: id) } }
        return stream
    }

    func readinessStream() -> AsyncStream<PhotoCaptureReadiness> {
        let (stream, continuation) = AsyncStream.makeStream(of: PhotoCaptureReadiness.self)
        let id = state.withLock { s in
            s.nextID += 1
            s.readiness[s.nextID] = continuation
            continuation.yield(s.currentReadiness)
            return s.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.readiness.removeValue(forKey: id) } }
        return stream
    }

    func publish(scene: SceneMonitoringState) {
        state.withLock { s in
            guard s.currentScene != scene else { return }
            s.currentScene = scene
            for c in s.scene.values { c.yield(scene) }
        }
    }

    func publish(readiness: PhotoCaptureReadiness) {
        state.withLock { s in
            guard s.currentReadiness != readiness else { return }
            s.currentReadiness = readiness
            for c in s.readiness.values { c.yield(readiness) }
        }
    }
}
