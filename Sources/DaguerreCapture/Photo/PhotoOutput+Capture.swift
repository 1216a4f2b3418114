// The one verb (SPEC P2, P6, P7, P10, P13, S4, C5, V3): a request is checked against the rules,
// resolved (sizes, flash, stabilization, photo count) before its first callback, given an
// exposure plan, and handed to the pipeline.
import DaguerreCore
import Foundation

extension PhotoOutput {
    /// Takes a photo as `settings` say, with callbacks to `delegate` (P2, P8).
    ///
    /// Throws, and captures nothing, when the settings break a rule (P6; the error names it,
    /// see ``PhotoSettingsRule``); the session keeps running. Once accepted, every expected
    /// callback comes, in the documented order, even when the capture fails (they carry the
    /// error). The delegate is held weakly (P9).
    ///
    /// ```swift
    /// let settings = PhotoSettings()
    /// settings.flashMode = .auto
    /// try photoOutput.capturePhoto(with: settings, delegate: self)
    /// ```
    public func capturePhoto(with settings: PhotoSettings, delegate: any PhotoCaptureDelegate) throws(DaguerreError) {
        try request(settings, bracket: nil, delegate: delegate)
    }

    /// Takes a bracket: one image per bracketed still setting, each delivered by its own photo
    /// callback naming it (P10, P11).
    ///
    /// ```swift
    /// let bracket = PhotoBracketSettings(rawPixelFormatType: nil, processedFormat: [.videoCodec: .jpeg],
    ///     bracketedSettings: [-2, 0, 2].map { .autoExposure(exposureTargetBias: $0) })
    /// try photoOutput.capturePhoto(with: bracket, delegate: self)
    /// ```
    public func capturePhoto(with settings: PhotoBracketSettings, delegate: any PhotoCaptureDelegate) throws(DaguerreError) {
        try request(settings.settings, bracket: settings, delegate: delegate)
    }

    private func request(_ settings: PhotoSettings, bracket: PhotoBracketSettings?, delegate: any PhotoCaptureDelegate)
        throws(DaguerreError)
    {
        let context = ruleContext()
        try PhotoSettingsRules.check(settings, bracket: bracket, delegate: DelegateCallbacks(delegate), context: context)
        guard let device = photoDevice, let session else {
            throw PhotoSettingsRule.activeConnection.error(
                "the PhotoOutput lost its camera while the request was checked", fix: "Keep a camera input in the running session.")
        }
        var job = resolve(settings, bracket: bracket, device: device, session: session, delegate: delegate)
        // Single use (P4): taken under the lock, so two racing requests with one value cannot both pass.
        let fresh = state.withLock { $0.usedIDs.insert(settings.uniqueID).inserted }
        guard fresh else {
            throw PhotoSettingsRule.uniqueSettings.error(
                "settings \(settings.uniqueID) were already used for a capture (each settings value is for one capture)",
                fix: "Make new settings for each capture: PhotoSettings(from: old) copies them with a new uniqueID.")
        }
        if settings.isLivePhoto {
            job.livePhoto = startLivePhotoMovie(job: job, device: device)
        }
        pipeline.submit(
            job, output: self,
            capture: { [unowned self] (job) throws(DaguerreError) in try captureStills(for: job) },
            captured: { [unowned self] job, result in
                // A Live Photo's movie centres on the still's time (the request's, if none was made).
                guard let live = job.livePhoto else { return }
                var time = job.requestTime
                if case .success(let images) = result, let first = images.first?.stills.first {
                    time = device.sceneTime(of: first.metadata)
                }
                livePhoto.setStillTime(time, for: live.movie)
            },
            process: { job, result, output in output.process(job, result) })
    }

    /// The request's resolved settings and plan (P7), known before its first callback.
    private func resolve(
        _ settings: PhotoSettings, bracket: PhotoBracketSettings?, device: any PhotoCaptureDevice, session: CaptureSession,
        delegate: any PhotoCaptureDelegate
    ) -> PhotoCaptureJob {
        let wantsProcessed = settings.format != nil
        let wantsRAW = settings.rawPixelFormatType != nil
        let still = stillDimensions(for: settings, device: device)
        let photo = wantsProcessed ? still : .zero
        let raw = wantsRAW ? device.photoCapabilities.sensorDimensions : .zero
        var preview = CaptureDimensions.zero
        if let format = settings.previewPhotoFormat {
            let box = CaptureDimensions(width: format.width ?? defaultPreviewMaxSide, height: format.height ?? defaultPreviewMaxSide)
            preview = (wantsProcessed ? photo : raw).fitted(into: box)
            if format.pixelFormatType != .bgra {
                // 4:2:0 previews have whole chroma blocks.
                preview = CaptureDimensions(width: max(2, preview.width & ~1), height: max(2, preview.height & ~1))
            }
        }
        let scene = sceneFor(settings, bracket: bracket != nil)
        let flash = device.hasFlash && bracket == nil && (settings.flashMode == .on || (settings.flashMode == .auto && scene.isFlashScene))
        let stabilized = !flash && scene.isStillImageStabilizationScene
        let lux = state.withLock { $0.newestFrame?.luxEstimate } ?? 1000
        let plan: PhotoExposurePlan
        if let bracket {
            plan = .bracket(bracket.bracketedSettings)
        } else if flash {
            plan = .flash
        } else if stabilized {
            plan = .stabilizationBurst(count: lux < Self.longBurstBelowLux ? 8 : 4)
        } else if isZeroShutterLagEnabled && device.exposure.mode != .custom {
            plan = .zeroShutterLag
        } else {
            plan = .newExposure
        }
        let images = bracket?.bracketedSettings.count ?? 1
        let resolved = ResolvedPhotoSettings(
            uniqueID: settings.uniqueID, photoDimensions: photo, rawPhotoDimensions: raw, previewPhotoDimensions: preview,
            isFlashEnabled: flash, isStillImageStabilizationEnabled: stabilized,
            livePhotoMovieDimensions: !settings.isLivePhoto ? .zero : livePhotoMovieFormat?.movieDimensions ?? .zero,
            expectedPhotoCount: images * ((wantsProcessed ? 1 : 0) + (wantsRAW ? 1 : 0)))
        var space = device.activeColorSpace.colorSpace
        // 420v is video's format: its photos are sRGB (W5).
        if settings.processedFormat == .yuv420VideoRange { space = .sRGB }
        return PhotoCaptureJob(
            settings: settings, bracketSettings: bracket?.bracketedSettings, resolved: resolved, plan: plan,
            requestTime: session.clock.now, requestDate: Date(), stillDimensions: wantsRAW ? raw : still, colorSpace: space,
            wantsProcessed: wantsProcessed, wantsRAW: wantsRAW, device: device, delegate: WeakPhotoDelegate(delegate),
            frameInterval: 1 / max(device.activeFormat.frameRateRange.maxFrameRate, 1),
            isLensStabilizationEnabled: bracket?.isLensStabilizationEnabled ?? false)
    }

    /// Below this light a stabilization burst has 8 frames, above it 4.
    static let longBurstBelowLux = 20.0

    /// The size the sensor is read out at for `settings`: the stream's format, or its
    /// high-resolution still size when asked for (C5).
    func stillDimensions(for settings: PhotoSettings, device: any PhotoCaptureDevice) -> CaptureDimensions {
        if settings.format == nil, settings.rawPixelFormatType != nil { return device.photoCapabilities.sensorDimensions }
        let format = device.activeFormat
        return settings.isHighResolutionPhotoEnabled ? format.highResolutionStillDimensions ?? format.dimensions : format.dimensions
    }

    /// What the scene means for a photo with `settings`: the monitor's flags when the settings
    /// consider what the monitoring settings do (S4), else the newest frame's light classified.
    private func sceneFor(_ settings: PhotoSettings, bracket: Bool) -> SceneMonitoringState {
        let considered = considered(settings, bracket: bracket)
        return state.withLock { s in
            if let monitoring = s.sceneMonitoringSettings, self.considered(monitoring) == considered { return s.monitor.state }
            guard let lux = s.newestFrame?.luxEstimate else { return SceneMonitoringState() }
            return SceneMonitor.classify(lux: lux, considering: considered)
        }
    }
}
