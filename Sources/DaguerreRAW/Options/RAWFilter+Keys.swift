// RAWFilter by key (SPEC X1): the seed's code reads and sets CIRAWFilter options with
// `value(forKey:)` and `setValue(_:forKey:)` and Core Image's key names; the same names (without
// the kCI prefix) reach the typed properties through the option table (``RAWFilter/options``).
import DaguerreCore
import DaguerreImage

extension RAWFilter {
    /// The keys that are not an option of their own: the white point as a chromaticity, which
    /// sets the temperature and tint.
    static let chromaticityKeys = ["inputNeutralChromaticityX", "inputNeutralChromaticityY"]

    /// Every key ``value(forKey:)`` and ``setValue(_:forKey:)`` accept.
    public static var keys: [String] { options.flatMap { [$0.key] + $0.aliases } + chromaticityKeys }

    /// The option under `key` (Core Image's `value(forKey:)`); booleans read as 0 or 1.
    ///
    /// ```swift
    /// let amount = try raw.value(forKey: "inputLuminanceNoiseReductionAmount")
    /// ```
    public func value(forKey key: String) throws(DaguerreError) -> Double {
        if let i = Self.chromaticityKeys.firstIndex(of: key) {
            let xy = ColorTemperature.xy(temperature: neutralTemperature, tint: neutralTint)
            return i == 0 ? xy.x : xy.y
        }
        guard let option = Self.option(forKey: key) else { throw Self.unknown(key) }
        guard let v = option.number(in: self) else {
            throw .invalidParameter(
                filter: "RAWFilter", key: key, problem: "holds a name; read it as \(option.text(in: self)) with string(forKey:)")
        }
        return v
    }

    /// A text option under `key` (the pipeline version), or a number option as text.
    public func string(forKey key: String) throws(DaguerreError) -> String {
        guard let option = Self.option(forKey: key) else { throw Self.unknown(key) }
        return option.text(in: self)
    }

    /// Sets the option under `key` (Core Image's `setValue(_:forKey:)`); the value must be finite
    /// and inside the option's range.
    ///
    /// ```swift
    /// var raw = try RAWFilter(url: url)
    /// try raw.setValue(0.5, forKey: "inputEV")
    /// let image = try raw.outputImage()
    /// ```
    public mutating func setValue(_ value: Double, forKey key: String) throws(DaguerreError) {
        if let i = Self.chromaticityKeys.firstIndex(of: key) {
            guard value.isFinite else {
                throw .invalidParameter(filter: "RAWFilter", key: key, problem: "must be a finite number, not \(value)")
            }
            var xy = ColorTemperature.xy(temperature: neutralTemperature, tint: neutralTint)
            if i == 0 { xy.x = value } else { xy.y = value }
            (neutralTemperature, neutralTint) = ColorTemperature.temperatureAndTint(of: xy)
            return
        }
        guard let option = Self.option(forKey: key) else { throw Self.unknown(key) }
        try option.set(value, in: &self)
    }

    /// Sets a text option under `key` (the pipeline version: `"inputDecoderVersion"`).
    public mutating func setValue(_ value: String, forKey key: String) throws(DaguerreError) {
        guard let option = Self.option(forKey: key) else { throw Self.unknown(key) }
        try option.set(value, in: &self)
    }

    static func option(forKey key: String) -> RAWOption? { options.first { $0.key == key || $0.aliases.contains(key) } }

    static func unknown(_ key: String) -> DaguerreError {
        .invalidParameter(filter: "RAWFilter", key: key, problem: "is not a RAW option; use one of \(keys.joined(separator: ", "))")
    }
}
