// Where a photo was taken, as EXIF's GPS IFD and QuickTime's ISO 6709 location carry it.
import Foundation

/// A GPS fix, as EXIF's GPS IFD carries it.
///
/// ```swift
/// let here = GPSLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35)
/// print(here.iso6709)   // "+48.8584+002.2945+035.000/"
/// ```
public struct GPSLocation: Sendable, Equatable {
    /// Degrees, north positive.
    public var latitude: Double
    /// Degrees, east positive.
    public var longitude: Double
    /// Metres above sea level.
    public var altitude: Double?
    /// When the fix was taken (UTC).
    public var timestamp: Date?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, timestamp: Date? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.timestamp = timestamp
    }

    /// ISO 6709 text, as QuickTime's com.apple.quicktime.location.ISO6709 wants it.
    public var iso6709: String {
        func fmt(_ v: Double, _ width: Int) -> String {
            let sign = v < 0 ? "-" : "+"
            let s = String(format: "%0\(width + 5).4f", abs(v))
            return sign + s
        }
        var text = fmt(latitude, 2) + fmt(longitude, 3)
        if let a = altitude { text += (a < 0 ? "-" : "+") + String(format: "%07.3f", abs(a)) }
        return text + "/"
    }
}
