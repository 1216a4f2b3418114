import Foundation

/// One process measured by `/usr/bin/time -f '%e %M %U %S'`: elapsed wall seconds, peak RSS, CPU.
struct Measurement: Codable {
    var wallSeconds: Double
    var peakRSSKiB: Int
    /// User + system CPU seconds (less disturbed than wall time when the machine is shared).
    var cpuSeconds: Double
    var peakRSSMiB: Double { Double(peakRSSKiB) / 1024 }
}

enum Shell {
    /// Runs argv (argv[0] looked up on PATH unless it has a slash), waits, returns status and the
    /// captured stdout + stderr.
    @discardableResult
    static func run(_ argv: [String], cwd: String? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs argv with inherited stdout/stderr (for long builds the user should watch).
    static func runVisible(_ argv: [String], cwd: String? = nil) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        p.standardOutput = FileHandle.standardError
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// The trimmed stdout of argv, or nil when it fails.
    static func capture(_ argv: [String]) -> String? {
        guard let r = try? run(argv), r.status == 0 else { return nil }
        return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs argv under `/usr/bin/time -f '%e %M'`, the child's output appended to `log`.
    static func timed(_ argv: [String], log: String, timeFile: String) throws -> Measurement {
        let fm = FileManager.default
        if !fm.fileExists(atPath: log) { _ = fm.createFile(atPath: log, contents: nil) }
        guard let logHandle = FileHandle(forWritingAtPath: log) else { throw BenchError("cannot open \(log)") }
        defer { try? logHandle.close() }
        logHandle.seekToEndOfFile()
        logHandle.write(Data(("$ " + argv.joined(separator: " ") + "\n").utf8))
        try? fm.removeItem(atPath: timeFile)

        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        p.arguments = ["-f", "%e %M %U %S", "-o", timeFile] + argv
        p.standardOutput = logHandle
        p.standardError = logHandle
        p.standardInput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let text = (try? String(contentsOfFile: timeFile, encoding: .utf8)) ?? ""
        guard p.terminationStatus == 0 else {
            let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: false).suffix(12).joined(separator: "\n")
            throw BenchError("exit status \(p.terminationStatus): \(argv.joined(separator: " "))\n\(tail)")
        }
        // With -o, time writes only the format line (plus a status line on failure).
        guard let last = text.split(separator: "\n").last,
            case let parts = last.split(separator: " "), parts.count == 4,
            let wall = Double(parts[0]), let rss = Int(parts[1]), let user = Double(parts[2]), let sys = Double(parts[3])
        else { throw BenchError("cannot parse /usr/bin/time output '\(text)'") }
        return Measurement(wallSeconds: wall, peakRSSKiB: rss, cpuSeconds: user + sys)
    }
}

/// Median, min and max of the repetitions of one measured thing.
struct Summary: Codable {
    var name: String
    var runs: [Measurement]
    var failures: [String]

    var ok: Bool { !runs.isEmpty }
    var medianWall: Double { median(runs.map(\.wallSeconds)) }
    var minWall: Double { runs.map(\.wallSeconds).min() ?? .nan }
    var maxWall: Double { runs.map(\.wallSeconds).max() ?? .nan }
    var medianRSSMiB: Double { median(runs.map(\.peakRSSMiB)) }
    var medianCPU: Double { median(runs.map(\.cpuSeconds)) }
    var maxRSSMiB: Double { runs.map(\.peakRSSMiB).max() ?? .nan }

    enum CodingKeys: String, CodingKey {
        case name, runs, failures, medianWallSeconds, minWallSeconds, maxWallSeconds, medianPeakRSSMiB, maxPeakRSSMiB, medianCPUSeconds
    }
    init(name: String) {
        self.name = name
        runs = []
        failures = []
    }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        runs = try c.decode([Measurement].self, forKey: .runs)
        failures = try c.decode([String].self, forKey: .failures)
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(runs, forKey: .runs)
        try c.encode(failures, forKey: .failures)
        if ok {
            try c.encode(medianWall, forKey: .medianWallSeconds)
            try c.encode(minWall, forKey: .minWallSeconds)
            try c.encode(maxWall, forKey: .maxWallSeconds)
            try c.encode(medianRSSMiB, forKey: .medianPeakRSSMiB)
            try c.encode(maxRSSMiB, forKey: .maxPeakRSSMiB)
            try c.encode(medianCPU, forKey: .medianCPUSeconds)
        }
    }
}

func median(_ xs: [Double]) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func fmt(_ x: Double, _ digits: Int = 2) -> String {
    x.isFinite ? String(format: "%.\(digits)f", x) : "—"
}

func log(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}
