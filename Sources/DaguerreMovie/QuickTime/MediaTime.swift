// A rational media time (value / timescale): the CMTime analog.
import DaguerreCore
import DaguerreFormats

/// A time or duration as a count of ticks of a timescale (ticks per second), like CMTime.
///
/// QuickTime stores every time as an integer in a timescale (the movie's, or each track's
/// media), so keeping times rational avoids the rounding that floating-point seconds would
/// add at each conversion. Live Photo movies (SPEC L2, L4) use 600 ticks per second for video
/// (divisible by 15, 24, 25, 30 and 60) and the sample rate for audio.
///
/// ```swift
/// let still = MediaTime(seconds: 1.5, preferredTimescale: 600)   // 900/600
/// still.converted(to: 44_100).value                                // 66 150
/// ```
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Ticks.
    public var value: Int64
    /// Ticks per second; always positive.
    public var timescale: Int32

    /// `value` ticks of `timescale` per second. A timescale below 1 is taken as 1.
    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = max(1, timescale)
    }

    /// The nearest tick of `preferredTimescale` to `seconds` (non-finite seconds become 0).
    public init(seconds: Double, preferredTimescale: Int32 = 600) {
        let scale = max(1, preferredTimescale)
        let ticks = (seconds * Double(scale)).rounded()
        self.init(value: ticks.isFinite && abs(ticks) < 9.0e18 ? Int64(ticks) : 0, timescale: scale)
    }

    public static let zero = MediaTime(value: 0, timescale: 600)

    public var seconds: Double { Double(value) / Double(timescale) }

    /// The same instant in another timescale, rounded to the nearest tick (half away from zero).
    public func converted(to newScale: Int32) -> MediaTime {
        let scale = max(1, newScale)
        if scale == timescale { return self }
        // 128-bit intermediate: value × scale can exceed 64 bits for long movies in fine scales.
        let (hi, lo) = value.magnitude.multipliedFullWidth(by: UInt64(scale))
        let divisor = UInt64(timescale)
        guard hi < divisor else { return MediaTime(value: value < 0 ? Int64.min : Int64.max, timescale: scale) }
        let (q, r) = divisor.dividingFullWidth((hi, lo))
        let rounded = q &+ (r >= divisor - r ? 1 : 0)
        let magnitude = rounded > UInt64(Int64.max) ? Int64.max : Int64(rounded)
        return MediaTime(value: value < 0 ? -magnitude : magnitude, timescale: scale)
    }

    public static func < (a: MediaTime, b: MediaTime) -> Bool {
        // Cross-multiplied in 128 bits, so no precision is lost.
        let l = a.value.multipliedFullWidth(by: Int64(b.timescale))
        let r = b.value.multipliedFullWidth(by: Int64(a.timescale))
        return l.high != r.high ? l.high < r.high : l.low < r.low
    }

    public static func == (a: MediaTime, b: MediaTime) -> Bool { !(a < b) && !(b < a) }

    public func hash(into hasher: inout Hasher) { hasher.combine(seconds) }

    public var description: String { "\(value)/\(timescale) (\(seconds) s)" }
}
