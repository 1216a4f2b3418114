import DaguerreCapture
import DaguerreCore
import Foundation
import Synchronization
import Testing

/// Scene monitoring (SPEC S1–S4): over a light sweep from 0.5 to 2000 lux and back, the flags
/// follow the documented light ranges (flash below 2 lux; still-image stabilization from 2 to
/// 100 lux, preferred where both would do), and a photo with the monitoring settings resolves
/// as the monitor said at that moment.
@Suite("PhotoOutput: scene monitoring", .hangGuard, .serialized)
struct SceneMonitoringTests {
    /// The documented flags for a true light level, for settings with flash .auto and SIS on.
    static func documented(_ lux: Double) -> SceneMonitoringState {
        SceneMonitoringState(isFlashScene: lux < 2, isStillImageStabilizationScene: lux >= 2 && lux < 100)
    }

    @Test("Flags off without monitoring settings (S2)")
    func offWithoutSettings() throws {
        let rig = try SmallCamera.running(configure: { _, device in device.camera.lux = 1 })
        #expect(rig.output.photoSettingsForSceneMonitoring == nil)
        #expect(!rig.output.isFlashScene && !rig.output.isStillImageStabilizationScene)
        var off = PhotoSettings()
        off.flashMode = .off
        off.isAutoStillImageStabilizationEnabled = false
        rig.output.photoSettingsForSceneMonitoring = off
        rig.advance(by: 0.2)
        #expect(!rig.output.isFlashScene && !rig.output.isStillImageStabilizationScene, "both features off in the settings")
        var flashOnly = PhotoSettings()
        flashOnly.flashMode = .auto
        flashOnly.isAutoStillImageStabilizationEnabled = false
        rig.output.photoSettingsForSceneMonitoring = flashOnly
        rig.advance(by: 0.2)
        #expect(rig.output.isFlashScene && !rig.output.isStillImageStabilizationScene, "1 lux, flash only: flash below 50 lux")
    }

    @Test(
        "A 0.5 → 2000 → 0.5 lux sweep: ≥ 95 % of frames agree with the documented ranges, changes within 3 frames of a crossing; captures resolve as the monitor said"
    )
    func sweep() async throws {
        // An 18 % grey wall, evenly lit (no vignetting): the average scene a light meter
        // assumes, so the camera's light estimate is the scene's light level.
        let rig = try SmallCamera.running(
            profile: PhotoFlashTests.profile,
            configure: { _, device in
                device.camera.scene = PhotoFlashTests.Wall()
                device.camera.lux = 0.5
            })
        var monitoring = PhotoSettings()
        monitoring.flashMode = .auto
        monitoring.isAutoStillImageStabilizationEnabled = true
        rig.output.photoSettingsForSceneMonitoring = monitoring
        rig.advance(by: 1)
        // Observed as the seeds observe them (an AsyncStream here, key-value observing there).
        let updates = rig.output.sceneMonitoringUpdates()
        let changes = Task { () -> Int in
            var n = 0
            for await _ in updates { n += 1 }
            return n
        }
        // And as key-value observers get them: on the changing thread, on no task pool.
        let observed = Mutex<[SceneMonitoringState]>([])
        let observation = rig.output.observeSceneMonitoring { scene in observed.withLock { $0.append(scene) } }
        let steps = 300
        let levels = (0..<steps).map { 0.5 * pow(4000, Double($0) / Double(steps - 1)) }
        let sweep = levels + levels.reversed()
        var truth: [SceneMonitoringState] = []
        var seen: [SceneMonitoringState] = []
        let recorder = PhotoRecorder()
        var captures: [(Int64, SceneMonitoringState)] = []
        for (i, lux) in sweep.enumerated() {
            rig.device.camera.lux = lux
            rig.advance(by: 1.0 / 30)
            truth.append(Self.documented(lux))
            let now = SceneMonitoringState(
                isFlashScene: rig.output.isFlashScene, isStillImageStabilizationScene: rig.output.isStillImageStabilizationScene)
            seen.append(now)
            if i % 40 == 20 {
                let settings = PhotoSettings(from: monitoring)
                try rig.output.capturePhoto(with: settings, delegate: recorder)
                captures.append((settings.uniqueID, now))
            }
        }
        let agree = zip(truth, seen).filter { $0 == $1 }.count
        let share = Double(agree) / Double(sweep.count)
        // Every change of the documented flags is followed by the monitor within 3 frames.
        var worst = 0
        for i in 1..<truth.count where truth[i] != truth[i - 1] {
            let lag = (i..<min(i + 30, seen.count)).first { seen[$0] == truth[i] }.map { $0 - i } ?? 30
            worst = max(worst, lag)
            print("crossing at frame \(i) (\(sweep[i]) lux): monitor followed after \(lag) frames")
        }
        print(String(format: "scene monitoring sweep: %.1f %% of %d frames agree; worst lag %d frames", share * 100, sweep.count, worst))
        #expect(share >= 0.95)
        #expect(worst <= 3)
        // Every capture with the monitoring settings resolved as the monitor said.
        rig.startTicking()
        defer { rig.stopTicking() }
        #expect(recorder.waitForFinish(captures.count, timeout: 300))
        for (id, said) in captures {
            let resolved = try #require(recorder.resolved[id])
            #expect(
                resolved.isFlashEnabled == said.isFlashScene
                    && resolved.isStillImageStabilizationEnabled == said.isStillImageStabilizationScene)
        }
        // The observer heard the value at once and then every change, nothing twice in a row,
        // and nothing once invalidated.
        let heard = observed.withLock { $0 }
        #expect(heard.count >= 5 && zip(heard, heard.dropFirst()).allSatisfy { $0 != $1 }, "\(heard)")
        #expect(
            heard.last
                == SceneMonitoringState(
                    isFlashScene: rig.output.isFlashScene, isStillImageStabilizationScene: rig.output.isStillImageStabilizationScene))
        observation.invalidate()
        rig.output.photoSettingsForSceneMonitoring = nil
        #expect(!rig.output.isFlashScene && observed.withLock { $0.count } == heard.count, "not called after invalidate()")
        rig.session.stopRunning()
        changes.cancel()
        #expect(await changes.value >= 4, "the stream reported the flags' changes")
    }
}
