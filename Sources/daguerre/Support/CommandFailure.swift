// How an error from the library ends a command: the exit status and whether the usage line follows.
import ArgumentParser
import DaguerreCore

extension DaguerreError {
    /// The error a command throws for this one. A mistake in the arguments (an unknown filter, a
    /// parameter out of range, an output naming an original) is a usage error: the message, the usage
    /// line and exit status 64. Anything met while working (a missing or damaged file, a full
    /// disk, an unsupported feature) is a failure: the message alone and exit status 1.
    ///
    /// ```swift
    /// do { try execute() } catch { throw error.commandError }
    /// ```
    var commandError: any Error {
        switch self {
        case .invalidArgument, .unknownFilter, .invalidParameter: return ValidationError(description)
        default: return CommandFailure(message: description)
        }
    }
}

/// A command that failed while working: ArgumentParser prints `Error: ` and the message, without
/// the usage line, and exits with status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
