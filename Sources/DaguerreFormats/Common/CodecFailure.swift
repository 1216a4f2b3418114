// Turns the C bridges' status codes (libjpeg, libpng, libtiff glue in CDaguerreCodecs) into errors.
import CDaguerreCodecs
import DaguerreCore

extension DaguerreError {
    /// The typed error for a failed bridge call.
    ///
    /// The bridges classify what the library reported (truncation, corruption, I/O, size); this
    /// keeps the mapping to ``DaguerreError`` in one place so every format words it alike.
    ///
    /// ```swift
    /// throw DaguerreError.codec(DAG_TRUNCATED, format: "JPEG", message: "Premature end of JPEG file", path: p)
    /// ```
    static func codec(
        _ status: dag_status, format: String, message: String, path: String?,
        operation: String = "read"
    ) -> DaguerreError {
        switch status {
        case DAG_TRUNCATED:
            return .truncated(format: format, path: path)
        case DAG_IO:
            return .io(operation: operation, path: path ?? "(memory)", reason: message.isEmpty ? "\(format) I/O error" : message)
        case DAG_UNSUPPORTED:
            return .unsupported(feature: "\(format): \(message)", hint: "Convert the file to an 8-bit RGB \(format) first.")
        case DAG_TOO_LARGE:
            return .tooLarge(what: "\(format) decoder memory (\(message))", value: 0, limit: 0)
        default:
            return .corruptData(format: format, detail: message.isEmpty ? "the codec reported an error" : message, path: path)
        }
    }
}

/// A C string from a bridge's message buffer, or "" for NULL.
func bridgeMessage(_ p: UnsafePointer<CChar>?) -> String {
    guard let p else { return "" }
    return String(cString: p)
}
