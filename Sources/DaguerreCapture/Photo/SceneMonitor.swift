// Scene monitoring (SPEC S1–S4): from each frame's light level, whether a photo with the
// monitoring settings would fire the flash or use still-image stabilization. The same
// classification resolves `.auto` flash and auto SIS when a photo is requested, so a capture
// with the monitoring settings resolves as the monitor reported (S4).
//
// The light ranges (lux, as the camera estimates it from each frame's exposure and metering):
//
// | considered            | flash scene        | SIS scene               |
// | --------------------- | ------------------ | ----------------------- |
// | flash only            | below 50           | never                   |
// | SIS only              | never              | below 100               |
// | flash and SIS         | below 2            | from 2 to below 100     |
//
// Between 2 and 50 lux both would work; SIS is preferred there, as it gives better pictures
// (S3), and below 2 lux SIS alone would be too noisy, so the flash fires. A flag turns on when
// the light falls 3 % below its threshold and off when it rises 3 % above, so that a light
// level sitting on a threshold does not make the flag flicker.
import DaguerreCore

/// What the scene monitor reports: whether the monitoring settings would fire the flash, or
/// use still-image stabilization, in the current scene (S2).
///
/// ```swift
/// for await scene in photoOutput.sceneMonitoringUpdates() {
///     flashBadge.isHidden = !scene.isFlashScene
/// }
/// ```
public struct SceneMonitoringState: Sendable, Hashable {
    public var isFlashScene: Bool
    public var isStillImageStabilizationScene: Bool
    public init(isFlashScene: Bool = false, isStillImageStabilizationScene: Bool = false) {
        self.isFlashScene = isFlashScene
        self.isStillImageStabilizationScene = isStillImageStabilizationScene
    }
}

/// The light thresholds and their hysteresis (see the table in this file's header).
struct SceneMonitor: Sendable {
    static let flashOnlyBelow = 50.0
    static let stabilizationBelow = 100.0
    static let flashWithStabilizationBelow = 2.0
    static let hysteresis = 0.03

    /// What a photo considers: flash (the mode is not off, and the camera has one) and SIS.
    struct Considered: Sendable, Hashable {
        var flash: Bool
        var stabilization: Bool
    }

    private(set) var state = SceneMonitoringState()

    /// The classification with no history: for one request that does not match the monitor.
    static func classify(lux: Double, considering c: Considered) -> SceneMonitoringState {
        var s = SceneMonitor()
        s.update(lux: lux, considering: c, fresh: true)
        return s.state
    }

    /// Moves the flags for a new frame's light level.
    mutating func update(lux: Double, considering c: Considered, fresh: Bool = false) {
        let (flashBelow, sisRange) = Self.thresholds(c)
        let flash = flashBelow.map { Self.below($0, lux: lux, was: fresh ? nil : state.isFlashScene) } ?? false
        var sis = false
        if let range = sisRange {
            let underTop = Self.below(range.upperBound, lux: lux, was: fresh ? nil : state.isStillImageStabilizationScene)
            let overBottom =
                range.lowerBound <= 0 || !Self.below(range.lowerBound, lux: lux, was: fresh ? nil : !state.isStillImageStabilizationScene)
            sis = underTop && overBottom
        }
        state = SceneMonitoringState(isFlashScene: flash && !sis, isStillImageStabilizationScene: sis)
    }

    /// Clears both flags (no monitoring settings, S2).
    mutating func reset() { state = SceneMonitoringState() }

    /// The flash threshold and the SIS light range for what is considered.
    static func thresholds(_ c: Considered) -> (flashBelow: Double?, stabilization: Range<Double>?) {
        switch (c.flash, c.stabilization) {
        case (true, true): (flashWithStabilizationBelow, flashWithStabilizationBelow..<stabilizationBelow)
        case (true, false): (flashOnlyBelow, nil)
        case (false, true): (nil, 0..<stabilizationBelow)
        case (false, false): (nil, nil)
        }
    }

    /// Whether `lux` counts as below `threshold`, with hysteresis around the previous answer.
    private static func below(_ threshold: Double, lux: Double, was: Bool?) -> Bool {
        switch was {
        case true?: lux < threshold * (1 + hysteresis)
        case false?: lux < threshold * (1 - hysteresis)
        case nil: lux < threshold
        }
    }
}
