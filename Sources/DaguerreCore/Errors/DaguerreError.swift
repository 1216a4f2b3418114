/// The one error type every Daguerre module throws.
///
/// Each case names what was wrong in its associated values; ``message`` says it in a sentence
/// and ``recovery`` says how to fix it (the SPEC's mapping of Apple's exceptions: "thrown, typed
/// errors with a message that says what was wrong and how to fix it").
///
/// ```swift
/// do { _ = try Image(contentsOf: url) }
/// catch let error as DaguerreError { print(error.message, error.recovery) }
/// ```
public enum DaguerreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A feature that is specified but not built yet, or not supported by design.
    case unsupported(feature: String, hint: String)
    /// A file or buffer is damaged: its bytes disagree with its format.
    case corruptData(format: String, detail: String, path: String?)
    /// A file ended before its format said it would.
    case truncated(format: String, path: String?)
    /// Declared dimensions or sizes exceed ``Limits``; refused before anything was allocated.
    case tooLarge(what: String, value: Int, limit: Int)
    /// A file could not be opened, read, written or renamed.
    case io(operation: String, path: String, reason: String)
    /// The file's format is none Daguerre reads.
    case unknownFormat(path: String)
    /// `applyingFilter` was given a name no filter has.
    case unknownFilter(name: String, suggestions: [String])
    /// A filter parameter is missing, of the wrong type, or out of range.
    case invalidParameter(filter: String, key: String, problem: String)
    /// An argument to an API call is not usable (an empty extent, a wrong buffer size, ...).
    case invalidArgument(what: String, problem: String)
    /// A colour space or ICC profile could not be used.
    case colorManagement(detail: String)
    /// A custom processor or kernel reported a failure.
    case processorFailed(name: String, reason: String)
    /// A capture session, device or output was set up in a way that cannot work (two cameras in
    /// one session, a preset the camera lacks, a missing usage description, denied access...);
    /// `fix` says what to change.
    case captureConfiguration(problem: String, fix: String)
    /// A photo capture request was refused before anything was captured (SPEC P6): `rule` names
    /// the rule it broke (as PhotoOutput's documentation lists them), `fix` what to change.
    case photoSettings(rule: String, problem: String, fix: String)
    /// Work was cancelled by its caller (an edit's `cancel()`); `what` names the work.
    case cancelled(what: String)

    /// What went wrong, in one sentence.
    public var message: String {
        switch self {
        case .unsupported(let feature, _):
            return "\(feature) is not supported yet."
        case .corruptData(let format, let detail, let path):
            return "The \(format) data\(path.map { " in \($0)" } ?? "") is damaged: \(detail)."
        case .truncated(let format, let path):
            return "The \(format) data\(path.map { " in \($0)" } ?? "") ends early: the file is truncated."
        case .tooLarge(let what, let value, let limit):
            return "\(what) is \(value), over the limit of \(limit)."
        case .io(let operation, let path, let reason):
            return "Could not \(operation) \(path): \(reason)."
        case .unknownFormat(let path):
            return "\(path) is in no format Daguerre reads (JPEG, PNG, TIFF, HEIC)."
        case .unknownFilter(let name, _):
            return "There is no filter named '\(name)'."
        case .invalidParameter(let filter, let key, let problem):
            return "Parameter \(key) of \(filter): \(problem)."
        case .invalidArgument(let what, let problem):
            return "\(what): \(problem)."
        case .colorManagement(let detail):
            return "Colour management failed: \(detail)."
        case .processorFailed(let name, let reason):
            return "The processor '\(name)' failed: \(reason)."
        case .captureConfiguration(let problem, _):
            return "Capture configuration: \(problem)."
        case .photoSettings(let rule, let problem, _):
            return "Photo settings refused (\(rule)): \(problem)."
        case .cancelled(let what):
            return "\(what) was cancelled."
        }
    }

    /// How to fix it.
    public var recovery: String {
        switch self {
        case .unsupported(_, let hint): return hint
        case .corruptData: return "Re-export the file from its source, or check that it was copied whole."
        case .truncated: return "The file was cut short (an interrupted copy or download); copy it again from its source."
        case .tooLarge: return "If the size is genuine, raise the limit with Limits (Limits.default or the reader's limits: parameter)."
        case .io(let operation, _, _):
            return operation.hasPrefix("write") || operation.hasPrefix("create") || operation.hasPrefix("rename")
                ? "Choose a destination in a directory you can write to, with free space."
                : "Check that the path exists and is readable."
        case .unknownFormat: return "Convert the file to JPEG, PNG, TIFF or HEIC first."
        case .unknownFilter(_, let suggestions):
            return suggestions.isEmpty
                ? "Run `daguerre filters` to list the filters."
                : "Did you mean \(suggestions.joined(separator: ", "))? Run `daguerre filters` to list them all."
        case .invalidParameter: return "Run `daguerre filters NAME` to see each parameter's type, range and default."
        case .invalidArgument: return "Pass a value that satisfies the condition above."
        case .colorManagement: return "Use a named colour space (sRGB, Display P3, ...) or an RGB matrix/TRC ICC profile."
        case .processorFailed: return "See the processor's own reason above."
        case .captureConfiguration(_, let fix): return fix
        case .photoSettings(_, _, let fix): return fix
        case .cancelled: return "Nothing was written; start it again to finish it."
        }
    }

    public var description: String { "\(message) \(recovery)" }
}

extension DaguerreError {
    /// The same error, naming `path` where the case has room for it and names none yet (readers
    /// of in-memory bytes throw without a path; their file-reading callers add it).
    ///
    /// ```swift
    /// do { return try read(bytes: bytes) } catch { throw error.at(path: path) }
    /// ```
    public func at(path: String) -> DaguerreError {
        switch self {
        case .corruptData(let format, let detail, nil): return .corruptData(format: format, detail: detail, path: path)
        case .truncated(let format, nil): return .truncated(format: format, path: path)
        default: return self
        }
    }
}
