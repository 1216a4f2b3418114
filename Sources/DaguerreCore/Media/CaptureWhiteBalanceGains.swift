// The white-balance gains a camera applied to a frame (SPEC C4), as its metadata carries them.

/// Per-channel white-balance gains applied to the sensor's red, green and blue
/// (AVCaptureWhiteBalanceGains). Each gain is 1 ... ``CaptureDevice/maxWhiteBalanceGain``.
///
/// ```swift
/// try camera.setWhiteBalanceGains(CaptureWhiteBalanceGains(red: 2.1, green: 1, blue: 1.6))
/// ```
public struct CaptureWhiteBalanceGains: Sendable, Hashable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Unity gains.
    public static let identity = CaptureWhiteBalanceGains(red: 1, green: 1, blue: 1)

    /// Throws unless every gain is within 1 ... `maxGain`.
    public func validate(maxGain: Double) throws(DaguerreError) {
        for (name, gain) in [("red", red), ("green", green), ("blue", blue)] where !(gain >= 1 && gain <= maxGain) {
            throw .invalidArgument(
                what: "White balance \(name) gain \(gain)",
                problem:
                    "each gain must be within 1...\(maxGain) (the device's maxWhiteBalanceGain); normalise the gains so the smallest is 1")
        }
    }

    public var description: String { "r \(red) g \(green) b \(blue)" }
}
