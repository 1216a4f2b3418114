// Session 511's resource preparation (SPEC Q1–Q7): the kinds of capture the app will take are
// declared ahead, best before the session starts, and the completion says when their
// resources are ready.
import DaguerreCapture
import DaguerreCore
import Dispatch

extension PhotoSamples {
    /// Prepares for the samples' captures: a JPEG, and RAW + JPEG where RAW is offered. Called
    /// before `startRunning`, the completion comes once the session runs (Q4).
    public func prepareForCaptures() {
        var settingsArray = [PhotoSettings()]
        if let rawFormat = photoOutput.availableRawPhotoPixelFormatTypes.first {
            settingsArray.append(PhotoSettings(rawPixelFormatType: rawFormat, processedFormat: [.videoCodec: .jpeg]))
        }
        photoOutput.setPreparedPhotoSettingsArray(settingsArray) { [weak self] prepared, error in  // Swift 6 spelling: (Bool, DaguerreError?) for (Bool, Error?)
            self?.preparationDidComplete(prepared: prepared, error: error)
        }
    }

    func preparationDidComplete(prepared: Bool, error: DaguerreError?) {
        current.withLock { $0?.record.preparation = (prepared, error) }
        self.prepared.signal()
    }

    /// Waits (real time) for the preparation's completion; false after `timeout` seconds.
    public func waitForPreparation(timeout: Double) -> Bool {
        prepared.wait(timeout: .now() + timeout) == .success
    }
}
