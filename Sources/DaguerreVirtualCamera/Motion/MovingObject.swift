// Objects that move through the scene while the camera exposes (SPEC L9, P13): a disc of known reflectance on a straight path, drawn over the static scene in
// every exposure tap, so it smears by exactly its own motion.

/// A disc moving across the field at constant velocity, in front of the scene.
///
/// Positions are in field units (u, v in 0...1 over the 4:3 field), the radius in units of the
/// field's width. The disc is sharp (no lens blur) and unvignetted.
///
/// ```swift
/// camera.movingObjects = [MovingObject(centre: [0.1, 0.5], velocity: [0.4, 0], radius: 0.03,
///                                      reflectance: [0.8, 0.1, 0.1])]     // a red ball, 0.4 fields/s
/// ```
public struct MovingObject: Sendable, Equatable {
    public var centre: SIMD2<Double>
    /// Field units per second.
    public var velocity: SIMD2<Double>
    public var radius: Double
    /// Linear sRGB reflectance (lifted to a spectrum like image scenes).
    public var reflectance: SIMD3<Float>

    public init(centre: SIMD2<Double>, velocity: SIMD2<Double>, radius: Double, reflectance: SIMD3<Float>) {
        self.centre = centre
        self.velocity = velocity
        self.radius = radius
        self.reflectance = reflectance
    }

    /// Where the centre is at time `t` (seconds on the camera's clock).
    public func position(at t: Double) -> SIMD2<Double> { centre + velocity * t }
}
