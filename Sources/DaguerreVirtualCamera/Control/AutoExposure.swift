// Auto-exposure as a control loop (SPEC C4): each frame's statistics set the next
// frame's exposure time and ISO, moving a damped step towards the target level.
import Foundation

/// Exposure time and ISO for one frame.
public struct ExposureSettings: Sendable, Equatable {
    public var duration: Double
    public var iso: Double
    public init(duration: Double, iso: Double) {
        self.duration = duration
        self.iso = iso
    }
}

/// A proportional controller in log exposure: it corrects `damping` of the error each frame
/// (the error counted at most ±3 EV, so a step is at most about 2.1 EV), and spends exposure
/// time before gain, up to the top of `durationRange`.
///
/// ```swift
/// var ae = AutoExposure(target: 0.14, isoRange: 25...2000, durationRange: 1.0/8000...1.0/30)
/// let next = ae.update(current: frameSettings, measured: stats.meanGreen, clipped: stats.clippedFraction)
/// ```
public struct AutoExposure: Sendable, Equatable {
    /// Centre-weighted mean green level sought (linear, 0...1 of the range above black).
    public var target: Double
    public var damping = 0.7
    public var isoRange: ClosedRange<Double>
    public var durationRange: ClosedRange<Double>

    public init(target: Double = 0.14, isoRange: ClosedRange<Double>, durationRange: ClosedRange<Double>) {
        self.target = target
        self.isoRange = isoRange
        self.durationRange = durationRange
    }

    /// The settings for the next frame, from the current frame's settings and its metering.
    public func update(current: ExposureSettings, measured: Double, clipped: Double) -> ExposureSettings {
        var ratio = target / max(measured, 1e-5)
        // A clipped frame under-reports its level: step down decisively.
        if clipped > 0.25 { ratio = min(ratio, 0.25) }
        ratio = min(max(ratio, 1.0 / 8), 8)
        let product = current.duration * current.iso * pow(ratio, damping)
        return split(product)
    }

    /// Splits an exposure product (seconds × ISO) into time first, then gain.
    public func split(_ product: Double) -> ExposureSettings {
        let base = isoRange.lowerBound
        let duration = min(max(product / base, durationRange.lowerBound), durationRange.upperBound)
        let iso = min(max(product / duration, isoRange.lowerBound), isoRange.upperBound)
        return ExposureSettings(duration: duration, iso: iso)
    }
}
