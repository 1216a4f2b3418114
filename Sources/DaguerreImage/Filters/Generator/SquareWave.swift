/// The anti-aliased square wave that CheckerboardGenerator and StripesGenerator are made of
/// (I4): +1 on [0, w) and −1 on [w, 2w) of each period 2w, measured from the pattern's centre,
/// with a linear ramp of half-width k pixels across each edge. k = max(½, (1 − sharpness)·w/2):
/// at sharpness 1 the ramp is one pixel wide, which is exactly a box filter over the pixel
/// for an edge along the axis (Core Image anti-aliases its patterns too); at sharpness 0 it is
/// a triangle wave. Core Image does not publish its pattern formula; this is the definition used.
///
/// ```swift
/// let wave = SquareWave(width: 80, sharpness: 1)
/// let v = wave.value(at: 12.5)   // 1: inside the first half-period
/// ```
struct SquareWave: Sendable {
    let width: Double
    let halfRamp: Double

    init(width: Double, sharpness: Double) {
        self.width = width
        self.halfRamp = max(0.5, (1 - min(max(sharpness, 0), 1)) * width / 2)
    }

    /// The wave at `u` pixels from the centre, in [−1, 1].
    @inline(__always) func value(at u: Double) -> Float {
        guard width > 0 else { return 1 }
        let period = 2 * width
        var m = u.truncatingRemainder(dividingBy: period)
        if m < 0 { m += period }
        let edge = min(m, abs(width - m), period - m)
        let sign: Double = m < width ? 1 : -1
        return Float(sign * min(edge / halfRamp, 1))
    }
}
