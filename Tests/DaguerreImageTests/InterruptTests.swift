import DaguerreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `daguerre develop` of a batch stopped by Ctrl-C (SIGINT) or SIGTERM at random moments: the
/// photo in progress is abandoned, every finished one stays complete, nothing else is left, the
/// last line says how many were done, and the exit status says it was interrupted (130, 143).
@Suite("Stopping a batch: Ctrl-C and SIGTERM", .serialized)
struct InterruptTests {
    static let count = 20
    static let names = (1...count).map { String(format: "img-%02d", $0) }

    /// Twenty copies of one small DNG, and a run of the whole batch to the end with the write
    /// trace on: when its first file began and its last was committed.
    struct Batch: Sendable {
        let inputs: [String]
        let firstBegin: Double
        let lastCommit: Double
        /// The time one photo takes, on average.
        var perPhoto: Double { (lastCommit - firstBegin) / Double(count) }
    }

    static func makeBatch(in dir: TemporaryDirectory) throws -> Batch {
        let one = dir.path("one.dng")
        // 640×480 with --draft: about a quarter of a second a photo in a debug build, so a
        // stop lands mid-batch and, most of the time, mid-photo.
        try VirtualDNG.write(width: 640, height: 480, to: one)
        let inputs = names.map { dir.path("\($0).dng") }
        for input in inputs { try FileManager.default.copyItem(atPath: one, toPath: input) }
        let run = try ChildProcess.run(
            CLITests.cli, arguments(inputs, into: dir.path("whole")), environment: ["DAGUERRE_TRACE_WRITES": "1", "TMPDIR": dir.url.path])
        guard run.status == 0,
            let first = run.stderr.first(where: { $0.text.hasPrefix(KillHarness.traceBegin) }),
            let last = run.stderr.last(where: { $0.text.hasPrefix(KillHarness.traceCommit) })
        else { throw Judge.Failure(description: "the whole batch: exited \(run.shellStatus): \(run.errText.suffix(1000))") }
        let written = KillHarness.list(dir.path("whole"))
        guard written == names.map({ "\($0).jpg" }) else { throw Judge.Failure(description: "the whole batch wrote \(written)") }
        return Batch(inputs: inputs, firstBegin: first.seconds, lastCommit: last.seconds)
    }

    static func arguments(_ inputs: [String], into folder: String) -> [String] {
        ["develop"] + inputs + ["--draft", "-o", folder]
    }

    /// One stopped run and what it left.
    struct Stopped: Sendable {
        let run: ChildProcess.Run
        let entries: [String]
        let scratch: [String]
        /// The files the trace says were committed, by name.
        let committed: [String]
        /// How many files the trace says were begun.
        let begun: Int
        let verdicts: [CompleteFiles.Verdict]
        /// The first stderr line starting `daguerre: interrupted`.
        var interruptedLine: String? { run.stderr.first { $0.text.hasPrefix("daguerre: interrupted") }?.text }
    }

    static func stop(_ batch: Batch, plan: ChildProcess.Plan, in dir: TemporaryDirectory, name: String) throws -> Stopped {
        let out = dir.path(name)
        let scratch = dir.path(name + "-tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let run = try ChildProcess.run(
            CLITests.cli, arguments(batch.inputs, into: out), environment: ["DAGUERRE_TRACE_WRITES": "1", "TMPDIR": scratch], plan: plan,
            timeout: 120)
        let entries = KillHarness.list(out)
        let committed = run.stderr.filter { $0.text.hasPrefix(KillHarness.traceCommit) }.map {
            ($0.text.dropFirst(KillHarness.traceCommit.count) as NSString).lastPathComponent
        }
        let items = entries.compactMap { name in
            CompleteFiles.kind(ofFileNamed: name).map { CompleteFiles.Item(kind: $0, path: out + "/" + name) }
        }
        return Stopped(
            run: run, entries: entries, scratch: KillHarness.list(scratch), committed: committed.sorted(),
            begun: run.stderr.filter { $0.text.hasPrefix(KillHarness.traceBegin) }.count,
            verdicts: try CompleteFiles.judge(items))
    }

    /// The checks every stopped run must pass.
    static func check(_ s: Stopped, status: Int32, _ what: String) {
        let written = s.entries.filter { $0.hasSuffix(".jpg") }
        let sent = s.run.signalSentAt.map { String(format: "%.2f s", $0) } ?? "never"
        let progress = s.begun > s.committed.count ? "one in progress" : "none in progress"
        print(
            "\(what): signal at \(sent), exit \(s.run.shellStatus) after \(String(format: "%.2f", s.run.ended)) s,"
                + " \(written.count) of \(count) written, \(progress); \(s.interruptedLine ?? "no 'daguerre: interrupted' line")")
        #expect(s.run.signalSentAt != nil, "\(what): the batch ended before the signal was sent")
        let ending = s.run.signalled.map { "ended by signal \($0)" } ?? "exit status \(s.run.shellStatus)"
        #expect(s.run.status == status, "\(what): \(ending), not exit status \(status): \(s.run.errText.suffix(600))")
        // The finished photos, in order, and nothing else: no temporary, no half photo.
        #expect(s.entries == Array(names.prefix(written.count)).map { "\($0).jpg" }, "\(what): the folder holds \(s.entries)")
        #expect(s.scratch.isEmpty, "\(what): its temporary directory holds \(s.scratch)")
        #expect(s.committed == s.entries, "\(what): committed \(s.committed), present \(s.entries)")
        for v in s.verdicts { #expect(v.complete, "\(what): \(v.item.path): \(v.reason)") }
        let line = s.interruptedLine ?? ""
        #expect(!line.isEmpty, "\(what): no line starting 'daguerre: interrupted' on stderr: \(s.run.errText.suffix(600))")
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(numbers.contains(written.count), "\(what): '\(line)' does not say \(written.count) files were written")
    }

    @Test(
        "Ctrl-C at 5 random moments of a batch of 20 develops: exit 130, the finished photos complete, nothing else left",
        .timeLimit(.minutes(10)))
    func ctrlC() async throws {
        let dir = try TemporaryDirectory("ctrl-c")
        let results = try await onOwnThread { () throws -> (Batch, [Stopped]) in
            let batch = try Self.makeBatch(in: dir)
            // A random photo of the batch (by its `begin` line, as timing from the start would
            // drift with the machine's load), at a random point of the first half of the time a
            // photo took in the whole run. Never the last two photos: when the machine is less
            // loaded than it was for the whole run, the batch could end before the signal.
            let stops = try (0..<5).map { n in
                let plan = ChildProcess.Plan(
                    signal: SIGINT, after: .line(KillHarness.traceBegin, occurrence: Int.random(in: 1...(Self.count - 2))),
                    delay: Double.random(in: 0..<(batch.perPhoto / 2)))
                return try Self.stop(batch, plan: plan, in: dir, name: "stop-\(n)")
            }
            return (batch, stops)
        }
        print(String(format: "the whole batch: first begin %.2f s, last commit %.2f s", results.0.firstBegin, results.0.lastCommit))
        for (n, s) in results.1.enumerated() { Self.check(s, status: 130, "SIGINT \(n + 1)") }
        #expect(results.1.contains { !$0.entries.isEmpty && $0.entries.count < Self.count }, "no stop landed mid-batch")
    }

    @Test(
        "SIGTERM mid-batch exits 143 as cleanly; a second Ctrl-C right after the first exits at once, leaving no partial photo",
        .timeLimit(.minutes(10)))
    func sigtermAndSecondCtrlC() async throws {
        let dir = try TemporaryDirectory("sigterm")
        let (term, twice) = try await onOwnThread { () throws -> (Stopped, Stopped) in
            let batch = try Self.makeBatch(in: dir)
            let middle = ChildProcess.Plan.Anchor.line(KillHarness.traceBegin, occurrence: Self.count / 2)
            let term = try Self.stop(batch, plan: .init(signal: SIGTERM, after: middle, delay: batch.perPhoto / 2), in: dir, name: "term")
            let twice = try Self.stop(
                batch, plan: .init(signal: SIGINT, after: middle, delay: batch.perPhoto / 2, repeatAfter: 0.005), in: dir, name: "twice")
            return (term, twice)
        }
        Self.check(term, status: 143, "SIGTERM")
        #expect(twice.run.signalSentAt != nil, "two SIGINTs: the batch ended before the signal was sent")
        let sent = twice.run.signalSentAt ?? 0
        print(String(format: "two SIGINTs 5 ms apart at %.2f s: exit %d at %.2f s", sent, twice.run.shellStatus, twice.run.ended))
        #expect(twice.run.shellStatus == 130, "two SIGINTs: exit status \(twice.run.shellStatus): \(twice.run.errText.suffix(600))")
        #expect(twice.run.ended - sent < 1, "two SIGINTs: the process ran on for \(twice.run.ended - sent) s")
        for v in twice.verdicts { #expect(v.complete, "two SIGINTs: \(v.item.path): \(v.reason)") }
        let others = twice.entries.filter { !$0.hasSuffix(".jpg") } + twice.scratch
        #expect(others.isEmpty, "two SIGINTs left \(others)")
    }
}
