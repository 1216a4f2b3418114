// `daguerre develop`'s RAW options, read from the command line through RAWFilter's option table
// (SPEC X1): each option's flag, help and check are declared once, there.
import ArgumentParser
import Daguerre

/// Splits a develop command line into input files and RAW adjustments.
///
/// ```swift
/// let (files, adjustments) = try RAWAdjustmentArguments.parse(["a.dng", "--exposure", "0.5", "--draft"])
/// // files == ["a.dng"], adjustments["exposure"] == "0.5", adjustments["draft"] == "1"
/// ```
enum RAWAdjustmentArguments {
    /// One line per option: flag, value and help.
    static var help: String {
        RAWFilter.options.map { option in
            let value: String
            switch option.value {
            case .toggle: value = ""
            case .text: value = " <name>"
            case .number: value = " <x>"
            }
            return "  --\(option.flag)\(value)  \(option.help)"
        }.joined(separator: "\n")
    }

    /// `arguments` as files and adjustments: `--flag value` or `--flag=value` for a RAW option
    /// (a switch's flag alone means on), anything else a file. An unknown flag or a bad value
    /// is a usage error naming it.
    static func parse(_ arguments: [String]) throws -> (files: [String], adjustments: RAWAdjustments) {
        var files: [String] = []
        var adjustments = RAWAdjustments()
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            guard word.hasPrefix("--"), word.count > 2 else {
                files.append(word)
                continue
            }
            let body = word.dropFirst(2)
            let name = String(body.split(separator: "=", maxSplits: 1)[0])
            guard let option = RAWFilter.option(named: name), option.flag == name else {
                let near = RAWFilter.options.map(\.flag).filter { $0.hasPrefix(String(name.prefix(3))) }
                throw ValidationError(
                    "Unknown option '\(word)'."
                        + (near.isEmpty ? "" : " Did you mean " + near.map { "--\($0)" }.joined(separator: ", ") + "?")
                        + " See daguerre develop --help.")
            }
            var value: String
            if let eq = body.firstIndex(of: "=") {
                value = String(body[body.index(after: eq)...])
            } else if case .toggle = option.value {
                value = "1"
            } else {
                guard i < arguments.count else { throw ValidationError("--\(option.flag) needs a value (\(option.rangeText)).") }
                value = arguments[i]
                i += 1
            }
            do { try adjustments.set(.text(value), for: option.flag) } catch {
                throw ValidationError("--\(option.flag) \(value): \(error)")
            }
        }
        return (files, adjustments)
    }
}
