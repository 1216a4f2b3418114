// Resource preparation (SPEC Q1–Q7): the settings an app will capture with are declared ahead,
// so that the first capture does not pay for the still sensor mode, buffers and develop
// tables. The declared array is sticky: it is prepared again each time the session starts and
// after each configuration commit. Inside a configuration the preparation waits for the commit
// (Q3); while the session is stopped the completion waits for it to start (Q4); a second call
// while one is waiting cancels the first, whose completion says `false` (Q5).
import DaguerreCore
import Synchronization

/// The completion of ``PhotoOutput/setPreparedPhotoSettingsArray(_:completionHandler:)``:
/// whether the resources are ready, and the error when they could not be made.
public typealias PhotoPreparationCompletion = @Sendable (_ prepared: Bool, _ error: DaguerreError?) -> Void

enum PhotoResourcePreparation {
    /// A declared array whose completion has not been called yet.
    struct Pending: Sendable {
        var generation: Int
        var settings: [PhotoSettings]
        var completion: PhotoPreparationCompletion?
    }

    struct State: Sendable {
        var generation = 0
        var pending: Pending?
        /// The still sizes the device has prepared, for the capture that follows.
        var preparedDimensions: Set<CaptureDimensions> = []
    }
}

extension PhotoOutput {
    /// The settings whose resources are prepared: `[PhotoSettings()]` until set (Q1). Sticky
    /// across start, stop and configuration changes.
    public var preparedPhotoSettingsArray: [PhotoSettings] { state.withLock { $0.preparedSettings } }

    /// Declares the settings the app will capture with, so that their resources (the still
    /// sensor mode, buffers, develop tables) are made before the first capture (Q1, Q6).
    ///
    /// The completion is called once: `true` when the resources are ready; `false` with the
    /// broken rule's error when a settings value cannot be captured now; `false` and no error
    /// when a later call replaced this one before it ran (Q5). Inside a configuration the work
    /// waits for the commit (Q3); while the session is stopped it waits for the start (Q4).
    /// An empty array releases the resources.
    ///
    /// ```swift
    /// let settings = PhotoSettings(rawPixelFormatType: raw, processedFormat: [.videoCodec: .jpeg])
    /// photoOutput.setPreparedPhotoSettingsArray([settings]) { prepared, error in
    ///     print(prepared ? "ready" : "not prepared: \(error?.description ?? "replaced")")
    /// }
    /// ```
    public func setPreparedPhotoSettingsArray(
        _ settingsArray: [PhotoSettings], completionHandler: PhotoPreparationCompletion? = nil
    ) {
        let replaced: Pending? = state.withLock { s in
            s.preparation.generation += 1
            let old = s.preparation.pending
            s.preparation.pending = Pending(generation: s.preparation.generation, settings: settingsArray, completion: completionHandler)
            s.preparedSettings = settingsArray
            return old
        }
        preparationQueue.async { [weak self] in
            replaced?.completion?(false, nil)
            self?.runPendingPreparation()
        }
    }

    private typealias Pending = PhotoResourcePreparation.Pending

    /// Called on the preparation queue when the session starts: the waiting call runs, or the
    /// sticky array is prepared again.
    func sessionStarted() {
        if state.withLock({ $0.preparation.pending == nil }) {
            let settings = state.withLock { $0.preparedSettings }
            _ = try? prepare(settings)
        } else {
            runPendingPreparation()
        }
    }

    /// Called on the preparation queue after a configuration commit (Q3).
    func configurationCommitted() {
        guard session?.isRunning == true else { return }
        sessionStarted()
    }

    /// Runs the waiting call if the session is running and not inside a configuration.
    private func runPendingPreparation() {
        guard let session, session.isRunning, !session.isInsideConfiguration else { return }
        guard let pending = state.withLock({ $0.preparation.pending }) else { return }
        let result = Result { () throws(DaguerreError) in try prepare(pending.settings) }
        let current = state.withLock { s -> Bool in
            guard s.preparation.pending?.generation == pending.generation else { return false }
            s.preparation.pending = nil
            return true
        }
        // A newer call took its place while this one ran: that one reports; this one was replaced.
        guard current else {
            pending.completion?(false, nil)
            return
        }
        switch result {
        case .success: pending.completion?(true, nil)
        case .failure(let error): pending.completion?(false, error)
        }
    }

    /// Checks each settings value against the rules (except single use) and prepares the still
    /// sizes they need.
    private func prepare(_ settingsArray: [PhotoSettings]) throws(DaguerreError) {
        guard let device = photoDevice else {
            throw PhotoSettingsRule.activeConnection.error(
                "the PhotoOutput has no camera to prepare resources on", fix: "Add a camera input to the session first.")
        }
        let context = ruleContext()
        var sizes: Set<CaptureDimensions> = []
        for settings in settingsArray {
            try PhotoSettingsRules.check(settings, bracket: nil, delegate: .all, context: context, checkUnique: false)
            sizes.insert(stillDimensions(for: settings, device: device))
        }
        try device.preparePhotoResources(dimensions: Array(sizes))
        state.withLock { $0.preparation.preparedDimensions = sizes }
    }
}
