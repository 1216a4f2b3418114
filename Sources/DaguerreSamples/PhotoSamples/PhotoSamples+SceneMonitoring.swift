// Session 511's scene monitoring (SPEC S1–S4): settings that say what the app means to
// capture (auto flash and auto still-image stabilization), set as photoSettingsForSceneMonitoring,
// and the two flags observed as they change. The session shows this with key-value observers;
// PhotoOutput's observeSceneMonitoring is their spelling (12 in PhotoSamples.swift).
import DaguerreCapture
import DaguerreCore

extension PhotoSamples {
    /// Monitors the scene for auto flash and auto still-image stabilization, and notes each
    /// change of the two flags in the running sample's record.
    public func startSceneMonitoring() {
        var initialSceneDetectionSettings = PhotoSettings()  // Swift 6 spelling: var (PhotoSettings is a struct)
        initialSceneDetectionSettings.flashMode = .auto
        initialSceneDetectionSettings.isAutoStillImageStabilizationEnabled = true

        photoOutput.photoSettingsForSceneMonitoring = initialSceneDetectionSettings

        // Swift 6 spelling: one observation for the key-value observers on isFlashScene and isStillImageStabilizationScene
        let observer = photoOutput.observeSceneMonitoring { [weak self] scene in self?.sceneMonitoringDidChange(scene) }
        sceneObserver.withLock {
            $0?.invalidate()
            $0 = observer
        }
    }

    /// The observers' callback (the seeds' `observeValue(forKeyPath:of:change:context:)`).
    func sceneMonitoringDidChange(_ scene: SceneMonitoringState) {
        current.withLock { $0?.record.sceneChanges.append(scene) }
    }

    /// The changes the observer has noted so far in the running sample's record.
    var notedScenes: [SceneMonitoringState] { current.withLock { $0?.record.sceneChanges ?? [] } }

    /// Stops monitoring: both flags turn false (S2).
    public func stopSceneMonitoring() {
        photoOutput.photoSettingsForSceneMonitoring = nil
        sceneObserver.withLock {
            $0?.invalidate()
            $0 = nil
        }
    }

    /// Not a slide: session 511's advice, "monitor what you intend to capture", followed. A
    /// photo with the monitored settings resolves as the monitor reported (S4).
    public func takeMonitoredPhoto() throws(DaguerreError) {
        guard let monitoring = photoOutput.photoSettingsForSceneMonitoring else {
            throw .unsupported(feature: "a monitored photo without scene monitoring", hint: "Call startSceneMonitoring() first.")
        }
        let settings = PhotoSettings(from: monitoring)
        try photoOutput.capturePhoto(with: settings, delegate: self)
    }
}
