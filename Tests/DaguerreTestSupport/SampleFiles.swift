// Files the interop tests wrote and judged, kept for anyone to judge again.
import Foundation

/// Keeps files that tests wrote and judged, when DAGUERRE_SAMPLES_DIR is set, so anyone can run
/// the judges on them again.
public enum SampleFiles {
    public static func keep(_ path: String, as name: String? = nil) {
        guard let dir = ProcessInfo.processInfo.environment["DAGUERRE_SAMPLES_DIR"], !dir.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let dest = URL(fileURLWithPath: dir).appendingPathComponent(name ?? URL(fileURLWithPath: path).lastPathComponent).path
        try? FileManager.default.removeItem(atPath: dest)
        try? FileManager.default.copyItem(atPath: path, toPath: dest)
    }
}
