import Foundation

/// Runs the independent judges the tests compare against (Pillow, OpenCV, colour-science,
/// exiftool...). A judge that is missing is a test failure with the command that installs it:
/// `scripts/test` installs every judge before running the tests.
public enum Judge {
    /// The repository root (found from this file's path, so tests run from any directory).
    public static let repoRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()
    /// `Tests/judges`, where the Python judge scripts live.
    public static let scripts = repoRoot.appendingPathComponent("Tests/judges")
    /// `Tests/Resources`: the photographs (`kodak24/`) and the files of other cameras and tools
    /// (`third-party/`) that tests read; each folder's README gives origin and licence.
    public static let testdata = repoRoot.appendingPathComponent("Tests/Resources")

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// `value`, or a ``Failure`` saying what was missing: `#require` for code that runs
    /// outside a test's task (``onOwnThread(_:)``).
    public static func need<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T {
        guard let value else { throw Failure(description: "missing: \(what())") }
        return value
    }

    /// What ffmpeg says (at `-v error`, on stderr) while it decodes every stream of `path` to
    /// nothing: empty for a file it reads cleanly. Throws when ffmpeg fails outright.
    public static func ffmpegDecodeMessages(_ path: String) throws -> String {
        try runCapturing("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"]).stderr
    }

    /// Throws unless Python's XML parser (ElementTree) reads `text` as well-formed XML.
    public static func parseXML(_ text: String) throws {
        try run("python3", ["-c", "import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read())"], stdin: Data(text.utf8))
    }

    /// Runs `executable` with `arguments`; returns stdout. Throws with stderr on a non-zero exit.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> String {
        try runCapturing(executable, arguments, stdin: stdin).stdout
    }

    /// Runs `executable` with `arguments`; returns stdout and stderr (judges such as ffmpeg
    /// report problems on stderr and still exit 0). Throws with stderr on a non-zero exit.
    public static func runCapturing(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (
        stdout: String, stderr: String
    ) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [executable] + arguments
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let (outData, errData) = readToEnd(out, err)
        p.waitUntilExit()
        let stdout = String(decoding: outData, as: UTF8.self)
        let stderr = String(decoding: errData, as: UTF8.self)
        guard p.terminationStatus == 0 else {
            throw Failure(
                description: "\(executable) \(arguments.joined(separator: " ")) exited \(p.terminationStatus): "
                    + stderr + "\nIf a judge is missing, run scripts/setup.")
        }
        return (stdout, stderr)
    }

    /// Everything `handle` gives until end of file. Foundation's `readDataToEndOfFile()` traps
    /// when a signal interrupts its read (EINTR, as a child process ending can); this retries.
    public static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: buffer[0..<n])
            } else if n == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// Both pipes read to the end at once, so that a chatty child cannot block on a full pipe.
    public static func readToEnd(_ out: Pipe, _ err: Pipe) -> (out: Data, err: Data) {
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = readToEnd(err.fileHandleForReading)
            group.leave()
        }
        let outData = readToEnd(out.fileHandleForReading)
        group.wait()
        return (outData, errData)
    }

    /// Runs `Tests/judges/<script>` with python3 and parses its stdout as JSON.
    public static func python(_ script: String, _ arguments: [String]) throws -> [String: Any] {
        let out = try run("python3", [scripts.appendingPathComponent(script).path] + arguments)
        guard let obj = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] else {
            throw Failure(description: "\(script) printed no JSON object: \(out.prefix(500))")
        }
        return obj
    }
}

/// A fresh directory under the system temp directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public init(_ name: String = "daguerre-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ file: String) -> String { url.appendingPathComponent(file).path }
    /// Names of the files in the directory (to check that no temporary file was left behind).
    public func contents() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] }
    /// Removes the directory now; an error says why it could not be (a test that fills it with
    /// hundreds of megabytes calls this, so a failure is seen instead of a leftover).
    public func remove() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
    deinit { try? remove() }
}
