// Camera motion during exposure (SPEC C4, L9, P13): hand shake that optical
// stabilization reduces, a scripted "pocket drop" and a scripted pan. Deterministic for a seed.
import Foundation

/// How the camera moves, as image displacement in full-resolution sensor pixels over time.
///
/// Hand shake is a sum of four sinusoids per axis between 2 and 11 Hz (physiological tremor and
/// slower sway) with seeded phases, scaled so the RMS image speed is `shakeSpeed`. A pocket
/// drop at `pocketDropTime` accelerates the image downwards and fades the light as the lens
/// enters the pocket. A pan moves the image at a steady speed, easing in and out.
///
/// ```swift
/// var motion = CameraMotion(shakeSpeed: 150, seed: 7)
/// motion.pocketDropTime = 2.5
/// motion.pan = CameraMotion.Pan(start: 1, duration: 0.5, velocity: [2000, 0])
/// let offset = motion.displacement(at: 0.1, stabilized: true)
/// ```
public struct CameraMotion: Sendable, Equatable {
    /// RMS image speed of hand shake, in full-resolution pixels per second (0: on a tripod).
    public var shakeSpeed: Double
    public var seed: UInt64 { didSet { phases = Self.phases(seed) } }
    /// The sinusoids' phases, per axis and component (derived from the seed).
    private var phases: [Double]
    /// When the camera drops into a pocket (seconds on the camera's clock), or nil.
    public var pocketDropTime: Double?
    /// Image acceleration during the drop, in pixels per second².
    public var pocketDropAcceleration = 40_000.0
    /// How long the light takes to fade to 2% once the drop starts.
    public var pocketFadeTime = 0.35
    /// A scripted pan (the camera swung to a new subject), or nil.
    public var pan: Pan?

    /// A pan: the image moves at `velocity` (full-resolution pixels a second) for `duration`
    /// seconds from `start`, its speed easing in and out over `ease` seconds (a raised cosine).
    public struct Pan: Sendable, Equatable {
        public var start: Double
        public var duration: Double
        public var velocity: SIMD2<Double>
        public var ease: Double

        public init(start: Double, duration: Double, velocity: SIMD2<Double>, ease: Double = 0.15) {
            self.start = start
            self.duration = duration
            self.velocity = velocity
            self.ease = ease
        }

        /// How far the image has moved `t` seconds into the pan, in units of `velocity`·s.
        func travel(at t: Double) -> Double {
            let u = min(max(0, t - start), duration)
            let a = min(max(ease, 0), duration / 2)
            guard a > 0 else { return u }
            // The distance covered `x` seconds into an easing-in ramp.
            func ramp(_ x: Double) -> Double { x / 2 - a / (2 * Double.pi) * sin(Double.pi * x / a) }
            if u < a { return ramp(u) }
            if u <= duration - a { return a / 2 + (u - a) }
            return (duration - a) - ramp(duration - u)
        }

        var isValid: Bool {
            start.isFinite && duration.isFinite && duration >= 0 && duration <= 3600 && ease.isFinite && ease >= 0
                && velocity.x.isFinite && velocity.y.isFinite && abs(velocity.x) <= 1e6 && abs(velocity.y) <= 1e6
        }
    }

    public static let tripod = CameraMotion(shakeSpeed: 0, seed: 0)
    /// A typical handheld phone: 150 px/s at 12 MP, about 2.4°/s with a 28 mm-equivalent lens
    /// (62 px per degree), where the 1/focal-length rule expects 3–4 px of blur at 1/30 s.
    public static let handheld = CameraMotion(shakeSpeed: 150, seed: 1)

    public init(shakeSpeed: Double, seed: UInt64, pocketDropTime: Double? = nil) {
        self.shakeSpeed = shakeSpeed
        self.seed = seed
        self.pocketDropTime = pocketDropTime
        phases = Self.phases(seed)
    }

    private static let frequencies = [2.1, 3.7, 6.3, 10.9]

    private static func phases(_ seed: UInt64) -> [Double] {
        (0..<2 * frequencies.count).map { i in
            var rng = SplitMix64(seed: seed, UInt64(i / frequencies.count), UInt64(i % frequencies.count))
            return rng.uniform() * 2 * Double.pi
        }
    }

    /// Image displacement at time `t`; stabilization removes `reduction` of the shake (not of a drop).
    public func displacement(at t: Double, stabilized: Bool, reduction: Double = 0.75) -> SIMD2<Double> {
        var d = SIMD2<Double>.zero
        if shakeSpeed > 0 {
            // Equal velocity amplitude per component: RMS speed = 2πc·√(n/2) per axis.
            let n = Double(Self.frequencies.count)
            let c = shakeSpeed / (2 * Double.pi * (n / 2).squareRoot()) / 2.0.squareRoot()
            for (k, f) in Self.frequencies.enumerated() {
                d.x += c / f * sin(2 * Double.pi * f * t + phases[k])
                d.y += c / f * sin(2 * Double.pi * f * t + phases[Self.frequencies.count + k])
            }
            if stabilized { d *= (1 - reduction) }
        }
        if let drop = pocketDropTime, t > drop {
            let s = t - drop
            d.y += 0.5 * pocketDropAcceleration * s * s
        }
        if let pan { d += pan.velocity * pan.travel(at: t) }
        return d
    }

    /// The share of the scene's light reaching the lens at `t` (1 until a pocket drop).
    public func lightFactor(at t: Double) -> Double {
        guard let drop = pocketDropTime, t > drop else { return 1 }
        return max(0.02, 1 - (t - drop) / pocketFadeTime)
    }
}
