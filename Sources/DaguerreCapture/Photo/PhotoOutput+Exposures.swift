// The capture stage (SPEC P8, P10, P13; zero shutter lag as iOS 17 and CameraX have it): the
// stills a request is made from, chosen from the ring or exposed anew, between willCapture and
// didCapture. Runs on the pipeline's capture queue.
import DaguerreCore
import Foundation

extension PhotoOutput {
    func captureStills(for job: PhotoCaptureJob) throws(DaguerreError) -> [PhotoImageStills] {
        let device = job.device
        let d = job.stillDimensions
        let resolved = job.resolved
        let delegate = job.delegate
        var plan = job.plan
        // willCapture and didCapture bracket the exposures, and both come even when they fail.
        pipeline.deliver { delegate.willCapturePhoto(self, resolved) }
        defer { pipeline.deliver { delegate.didCapturePhoto(self, resolved) } }
        var chosen: SensorStill?
        if plan == .zeroShutterLag {
            chosen = try zeroShutterLagStill(for: job)
            if chosen == nil { plan = .newExposure }
        }
        let base = streamExposure(device)
        var images: [PhotoImageStills]
        switch plan {
        case .zeroShutterLag:
            images = chosen.map { [PhotoImageStills(stills: [$0])] } ?? []
        case .newExposure:
            images = [PhotoImageStills(stills: try device.exposeStills([base], dimensions: d, whiteBalance: nil, lensStabilization: nil))]
        case .flash:
            let main = try device.meterFlash()
            images = [PhotoImageStills(stills: try device.exposeStills([main], dimensions: d, whiteBalance: nil, lensStabilization: nil))]
        case .bracket(let items):
            let range = device.photoCapabilities
            let exposures = items.map { item -> StillExposure in
                switch item {
                case .manualExposure(let duration, let iso): return StillExposure(duration: duration, iso: iso)
                case .autoExposure(let bias): return Self.biased(base, by: bias, capabilities: range, frameInterval: job.frameInterval)
                }
            }
            // Lens stabilization during a bracket only when asked for (P10).
            let stills = try device.exposeStills(
                exposures, dimensions: d, whiteBalance: nil, lensStabilization: job.isLensStabilizationEnabled)
            images = zip(stills, items).map { PhotoImageStills(stills: [$0], bracket: $1) }
        case .stabilizationBurst(let count):
            let burst = [StillExposure](repeating: base, count: count)
            images = [PhotoImageStills(stills: try device.exposeStills(burst, dimensions: d, whiteBalance: nil, lensStabilization: nil))]
        }
        return images
    }

    /// The exposure the stream uses now: the newest frame's, else the device's.
    func streamExposure(_ device: any PhotoCaptureDevice) -> StillExposure {
        if let m = state.withLock({ $0.newestFrame }) { return StillExposure(duration: m.exposureDuration, iso: m.iso) }
        return StillExposure(duration: device.exposure.duration, iso: device.exposure.iso)
    }

    /// An auto-exposure bracket's exposure: `bias` stops from `base`, by duration up to the
    /// frame interval and the device's range, the rest by ISO.
    static func biased(_ base: StillExposure, by bias: Double, capabilities c: PhotoDeviceCapabilities, frameInterval: Double)
        -> StillExposure
    {
        let total = base.duration * base.iso * pow(2, bias)
        let longest = min(c.exposureDurationRange.upperBound, max(frameInterval, base.duration))
        let duration = min(max(total / base.iso, c.exposureDurationRange.lowerBound), longest)
        let iso = min(max(total / duration, c.isoRange.lowerBound), c.isoRange.upperBound)
        return StillExposure(duration: duration, iso: iso)
    }

    /// The kept, settled frame whose scene time (middle row, mid-exposure) is nearest the request; waits for the
    /// next frame when it will be nearer than any kept one. Nil when no kept frame has settled.
    private func zeroShutterLagStill(for job: PhotoCaptureJob) throws(DaguerreError) -> SensorStill? {
        let target = job.requestTime
        func distance(_ f: ZeroShutterLagFrame) -> Double { abs(f.sceneTime - target) }
        for _ in 0..<4 {
            let frames = job.device.zeroShutterLagFrames()
            guard let newest = frames.last else { break }
            let best = frames.filter(\.isSettled).min { distance($0) < distance($1) }
            // The next frame will be seen a frame interval after the newest.
            let next = abs(newest.sceneTime + job.frameInterval - target)
            if let best, distance(best) <= next {
                return try best.still(dimensions: job.stillDimensions)
            }
            // The next frame will be nearer: wait for it (a frame interval, and some slack).
            guard pipeline.waitForFrame(newerThan: newest.metadata.sequenceNumber, timeout: 4 * job.frameInterval + 0.25) else {
                return try best?.still(dimensions: job.stillDimensions)
            }
        }
        return try job.device.zeroShutterLagFrames().last(where: \.isSettled)?.still(dimensions: job.stillDimensions)
    }
}
