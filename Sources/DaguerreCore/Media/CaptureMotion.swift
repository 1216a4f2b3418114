// How a camera moved while it exposed a frame (SPEC C4; read by still stabilization P13 and
// Live Photo auto-trim L9).

/// Device motion while a frame was exposed: angular velocity from a gyroscope (radians per
/// second about x, y, z) and, when known, displacement since the stream started (metres).
///
/// ```swift
/// let shake = CaptureMotion(angularVelocity: SIMD3(0.02, -0.01, 0))
/// ```
public struct CaptureMotion: Sendable, Hashable {
    public var angularVelocity: SIMD3<Double>
    public var displacement: SIMD3<Double>?
    public init(angularVelocity: SIMD3<Double>, displacement: SIMD3<Double>? = nil) {
        self.angularVelocity = angularVelocity
        self.displacement = displacement
    }
}
