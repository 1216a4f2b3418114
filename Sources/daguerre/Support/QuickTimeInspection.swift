// The QuickTime part of `daguerre inspect` (filled in with the MOV reader).
import DaguerreFormats

enum QuickTimeInspection {
    /// nil when the bytes are not a QuickTime/MP4 file.
    static func report(bytes: [UInt8], path: String) throws -> [String: Any]? { nil }
    static func contentIdentifier(bytes: [UInt8]) -> String? { nil }
}
