// Scene monitoring's public face (SPEC S1–S4): the settings the monitor judges the scene for,
// and its two flags, read now or observed as they change. The classification is in
// SceneMonitor.swift; each frame's light updates it in PhotoOutput's metering hook.
import DaguerreCore

extension PhotoOutput {
    /// The settings the scene is judged for (S1): their flash mode and auto still-image
    /// stabilization say which of the two flags can turn on. Settable any time; nil (the
    /// default) turns monitoring off and both flags false (S2).
    ///
    /// ```swift
    /// let monitoring = PhotoSettings()
    /// monitoring.flashMode = .auto
    /// monitoring.isAutoStillImageStabilizationEnabled = true
    /// photoOutput.photoSettingsForSceneMonitoring = monitoring
    /// for await scene in photoOutput.sceneMonitoringUpdates() { flashBadge.isHidden = !scene.isFlashScene }
    /// ```
    public var photoSettingsForSceneMonitoring: PhotoSettings? {
        get { state.withLock { $0.sceneMonitoringSettings } }
        set {
            let update = state.withLock { s -> SceneMonitoringState in
                s.sceneMonitoringSettings = newValue
                s.monitor.reset()
                if let newValue, let lux = s.newestFrame?.luxEstimate {
                    s.monitor.update(lux: lux, considering: considered(newValue))
                }
                return s.monitor.state
            }
            observers.publish(scene: update)
        }
    }

    /// Whether a photo with the monitoring settings would fire the flash now (S2).
    public var isFlashScene: Bool { observers.scene.isFlashScene }

    /// Whether a photo with the monitoring settings would fuse a stabilization burst now (S2, S3).
    public var isStillImageStabilizationScene: Bool { observers.scene.isStillImageStabilizationScene }

    /// Both flags, now and at every change (the seeds observe them with key-value observing).
    public func sceneMonitoringUpdates() -> AsyncStream<SceneMonitoringState> { observers.sceneStream() }

    /// Both flags, now and at every change, given to `handler` on the thread that changed them,
    /// as the seeds' key-value observers get them; the handler runs on no task pool, so a busy
    /// program cannot delay it. Keep the observation for as long as you want to hear.
    ///
    /// ```swift
    /// let observation = photoOutput.observeSceneMonitoring { scene in
    ///     DispatchQueue.main.async { flashBadge.isHidden = !scene.isFlashScene }
    /// }
    /// ```
    public func observeSceneMonitoring(
        _ handler: @escaping @Sendable (SceneMonitoringState) -> Void
    ) -> ValueObservation { observers.observeScene(handler) }

    /// Whether a photo requested now would begin at once (responsive capture, as iOS 17 has it).
    public var captureReadiness: PhotoCaptureReadiness { observers.readiness }

    /// The readiness now and at every change, for a shutter button.
    public func captureReadinessUpdates() -> AsyncStream<PhotoCaptureReadiness> { observers.readinessStream() }
}
