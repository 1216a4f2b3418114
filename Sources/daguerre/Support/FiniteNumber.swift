// Number options that must be finite (issue #5: bad input gets a clear error).
import ArgumentParser

/// A number option that must be finite: "nan" or "inf" is a usage error naming the option
/// (ArgumentParser reports the value as invalid), not a value that reaches the develop.
///
/// ```swift
/// @Option(help: "Exposure in EV.") var exposure: FiniteNumber?   // raw.exposure = exposure?.value
/// ```
struct FiniteNumber: ExpressibleByArgument {
    let value: Double
    init?(argument: String) {
        guard let v = Double(argument), v.isFinite else { return nil }
        value = v
    }
}
