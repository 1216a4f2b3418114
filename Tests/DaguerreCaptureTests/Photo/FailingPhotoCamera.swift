import DaguerreCapture
import DaguerreCore
import Synchronization

/// The virtual camera with failures injected where a real camera's photo path can fail: the
/// exposure (the sensor refuses), or the readout of a still (a buffer is lost).
final class FailingPhotoCamera: ControlledCaptureDevice, PhotoCaptureDevice {
    enum Failure: String, Sendable, CaseIterable {
        case none, exposure, readout
    }

    let inner: VirtualCaptureDevice
    private let failure = Mutex(Failure.none)

    init(_ inner: VirtualCaptureDevice) { self.inner = inner }

    /// The failure the next requests meet.
    func inject(_ f: Failure) { failure.withLock { $0 = f } }

    var uniqueID: String { inner.uniqueID }
    var localizedName: String { inner.localizedName }
    var position: CaptureDevicePosition { inner.position }
    var isVirtual: Bool { true }
    var controls: CaptureDeviceControls { inner.controls }
    var hasFlash: Bool { inner.hasFlash }
    var isLensStabilizationSupported: Bool { inner.isLensStabilizationSupported }
    func startStreaming(clock: any CaptureClock, handler: @escaping @Sendable (CaptureStreamEvent) -> Void) throws(DaguerreError) {
        try inner.startStreaming(clock: clock, handler: handler)
    }
    func stopStreaming() { inner.stopStreaming() }
    func setFramePixelsWanted(_ wanted: Bool) { inner.setFramePixelsWanted(wanted) }

    var photoCapabilities: PhotoDeviceCapabilities { inner.photoCapabilities }

    private static let injected = DaguerreError.io(operation: "read out", path: "the sensor", reason: "an injected test failure")

    private func failing(_ still: SensorStill) -> SensorStill {
        guard failure.withLock({ $0 }) == .readout else { return still }
        return SensorStill(metadata: still.metadata, dimensions: still.dimensions) { () throws(DaguerreError) in throw Self.injected }
    }

    func zeroShutterLagFrames() -> [ZeroShutterLagFrame] {
        inner.zeroShutterLagFrames().map { frame in
            ZeroShutterLagFrame(metadata: frame.metadata, isSettled: frame.isSettled) { [self] (d) throws(DaguerreError) in
                if failure.withLock({ $0 }) == .exposure { throw Self.injected }
                return failing(try frame.still(dimensions: d))
            }
        }
    }

    func exposeStills(
        _ exposures: [StillExposure], dimensions: CaptureDimensions, whiteBalance: CaptureWhiteBalanceGains?, lensStabilization: Bool?
    ) throws(DaguerreError) -> [SensorStill] {
        if failure.withLock({ $0 }) == .exposure { throw Self.injected }
        return try inner.exposeStills(exposures, dimensions: dimensions, whiteBalance: whiteBalance, lensStabilization: lensStabilization)
            .map(failing)
    }

    func meterFlash() throws(DaguerreError) -> StillExposure {
        if failure.withLock({ $0 }) == .exposure { throw Self.injected }
        return try inner.meterFlash()
    }

    func preparePhotoResources(dimensions: [CaptureDimensions]) throws(DaguerreError) {
        try inner.preparePhotoResources(dimensions: dimensions)
    }
}
