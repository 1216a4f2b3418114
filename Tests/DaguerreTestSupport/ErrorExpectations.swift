// Checking that code refuses bad input with the right typed error.
import DaguerreCore
import Testing

/// Runs `body` and records an issue unless it throws a DaguerreError that `matches`.
public func expectDaguerreError(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ matches: (DaguerreError) -> Bool, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("\(what): expected an error, got none", sourceLocation: sourceLocation)
    } catch let error as DaguerreError {
        #expect(matches(error), "\(what): unexpected error \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(what): not a DaguerreError: \(error)", sourceLocation: sourceLocation)
    }
}

extension DaguerreError {
    public var isTruncated: Bool { if case .truncated = self { return true } else { return false } }
    public var isCorrupt: Bool { if case .corruptData = self { return true } else { return false } }
    public var isTooLarge: Bool { if case .tooLarge = self { return true } else { return false } }
    public var isUnsupported: Bool { if case .unsupported = self { return true } else { return false } }
    public var isIO: Bool { if case .io = self { return true } else { return false } }
}
