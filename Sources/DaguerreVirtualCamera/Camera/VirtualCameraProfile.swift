// The virtual devices' hardware (SPEC C4, C5): sensor, lens, flash and readout modes
// of the back and front cameras.

/// One readout mode of a sensor: its size (binned from the full sensor) and frame-rate cap.
public struct SensorReadoutMode: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var maxFrameRate: Double
    public init(width: Int, height: Int, maxFrameRate: Double) {
        self.width = width
        self.height = height
        self.maxFrameRate = maxFrameRate
    }
}

/// A camera module: what a device format is built from.
///
/// ```swift
/// let back = VirtualCameraProfile.back
/// print(back.sensor.width, back.modes.map(\.width))   // 4032 [1920, 4032]
/// ```
public struct VirtualCameraProfile: Sendable, Equatable {
    public var name: String
    public var sensor: SensorModel
    public var lens: LensModel
    /// Streaming modes (binned readouts), smallest first.
    public var modes: [SensorReadoutMode]
    /// Whether a flash is fitted, and its pulse's exposure at one metre (lux-seconds).
    public var hasFlash: Bool
    public var flashLuxSecondsAtOneMetre: Double

    /// 12 MP back camera: 1920×1080 and 4032×3024 modes at 30 fps, a flash, OIS.
    public static let back = VirtualCameraProfile(
        name: "Back Camera", sensor: .backCamera, lens: .backCamera,
        modes: [
            SensorReadoutMode(width: 1920, height: 1080, maxFrameRate: 30), SensorReadoutMode(width: 4032, height: 3024, maxFrameRate: 30),
        ],
        hasFlash: true, flashLuxSecondsAtOneMetre: 12)

    /// Front camera: a 1280×960 stream; 2576×1932 (5 MP) stills when high resolution is opted in (C5).
    public static let front = VirtualCameraProfile(
        name: "Front Camera", sensor: .frontCamera, lens: .frontCamera,
        modes: [
            SensorReadoutMode(width: 1280, height: 960, maxFrameRate: 30), SensorReadoutMode(width: 2576, height: 1932, maxFrameRate: 15),
        ],
        hasFlash: false, flashLuxSecondsAtOneMetre: 0)

    /// A 26 MP APS-C X-Trans camera (SPEC X6): full-resolution stills are X-Trans mosaics (raw
    /// files with a 6×6 CFA); its 1920×1080 stream and metering read out binned, as Bayer.
    public static let xTrans = VirtualCameraProfile(
        name: "X-Trans Camera", sensor: .xTransCamera, lens: .xTransCamera,
        modes: [
            SensorReadoutMode(width: 1920, height: 1080, maxFrameRate: 30), SensorReadoutMode(width: 6240, height: 4160, maxFrameRate: 8),
        ],
        hasFlash: false, flashLuxSecondsAtOneMetre: 0)
}
