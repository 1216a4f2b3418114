// The two colour spaces a capture device can stream in (SPEC W1, W2).
import DaguerreCore

/// A device format's colour space (AVCaptureColorSpace): `sRGB` or `p3D65` (Display P3: DCI-P3
/// primaries with sRGB's curve and D65 white, W1). The seeds' `P3_D65` is spelled `p3D65`.
///
/// ```swift
/// if device.activeFormat.supportedColorSpaces.contains(.p3D65) {
///     try device.setActiveColorSpace(.p3D65)
/// }
/// CaptureColorSpace.p3D65.colorSpace   // ColorSpace.displayP3, for the engine
/// ```
public enum CaptureColorSpace: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case sRGB
    case p3D65

    /// The engine's colour space for frames in this space.
    public var colorSpace: ColorSpace {
        switch self {
        case .sRGB: return .sRGB
        case .p3D65: return .displayP3
        }
    }

    public var description: String { self == .sRGB ? "sRGB" : "P3_D65" }
}
