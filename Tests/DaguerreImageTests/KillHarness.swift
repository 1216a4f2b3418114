import DaguerreTestSupport
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A writer the kill harness stops: a `daguerre` command that writes its files into a folder.
///
/// ```swift
/// KillWriter(name: "JPEG", arguments: ["apply", Kodak.url(9).path, "-o", "{out}/out.jpg"], outputs: ["out.jpg"], kills: 40, namedKills: 8)
/// ```
struct KillWriter: Sendable {
    let name: String
    /// The command's arguments; `{out}` stands for the output folder, `{dng}` for a 1280×960
    /// DNG of the virtual camera.
    let arguments: [String]
    /// The files a finished run leaves in the folder.
    let outputs: [String]
    /// Two outputs that must be there together or not at all (a Live Photo's still and movie).
    var pair: (still: String, movie: String)? = nil
    /// How many runs to kill with the default writer (anonymous O_TMPFILE files on Linux).
    let kills: Int
    /// How many runs to kill with named temporary files (DAGUERRE_NAMED_TEMPORARIES=1), all in
    /// one folder, followed by one run to the end that must clear what the killed runs left.
    let namedKills: Int

    func arguments(into folder: String, dng: String) -> [String] {
        arguments.map { $0.replacingOccurrences(of: "{out}", with: folder).replacingOccurrences(of: "{dng}", with: dng) }
    }
}

/// Kills writers with SIGKILL at many points of their writes and checks what each kill left
/// (SPEC X5: files are written atomically): the destination absent or a complete, valid file
/// (``CompleteFiles``), nothing else in the output folder or the child's temporary directory,
/// and a Live Photo's still and movie both there and paired, or neither.
///
/// Each writer runs once to the end first, with `DAGUERRE_TRACE_WRITES=1`, to time its write:
/// from the first `begin` line to the last `commit`. The kills are then spread over that window
/// (stratified: one in each equal slice, at a random point of it), timed from the run's own
/// first `begin` line, plus three before it. Two children run at a time.
///
/// ```swift
/// let report = try KillHarness(root: try TemporaryDirectory("kills")).run(KillHarness.writers)
/// print(report.table)
/// ```
struct KillHarness: Sendable {
    let root: TemporaryDirectory
    /// The input of the writers that develop a DNG.
    var dng: String { root.path("input-1280x960.dng") }

    static let traceBegin = "DAGUERRE_TRACE_WRITES begin "
    static let traceCommit = "DAGUERRE_TRACE_WRITES commit "
    /// The named temporary file's pattern: `.NAME.daguerre-XXXXXX`.
    static let temporaryMarker = ".daguerre-"
    /// Kills before the first `begin`, at these fractions of the time it took to come.
    static let beforeBegin = [0.3, 0.6, 0.9]

    /// The writers that make files (every format, the Live Photo pair, the Motion Photo). The
    /// tests build optimized, so the inputs are large enough that each write lasts long enough
    /// to be killed in (a 768×512 JPEG was written in 50 ms, a 640×480 DNG in 4 ms).
    static let writers: [KillWriter] = {
        let kodak = Kodak.url(9).path
        let sensor = ["--sensor", "640x480"]
        return [
            KillWriter(
                name: "JPEG", arguments: ["apply", kodak, "--filter", "LanczosScaleTransform", "inputScale=4", "-o", "{out}/out.jpg"],
                outputs: ["out.jpg"], kills: 64, namedKills: 8),
            KillWriter(name: "PNG", arguments: ["apply", kodak, "-o", "{out}/out.png"], outputs: ["out.png"], kills: 64, namedKills: 8),
            // develop writes TIFF 16 uncompressed (apply's LZW needs a codec tifffile lacks).
            KillWriter(
                name: "TIFF 16", arguments: ["develop", "{dng}", "--draft", "-o", "{out}/out.tif"], outputs: ["out.tif"], kills: 64,
                namedKills: 8),
            // Eight named runs (five of them killed during the write): its write lasts about 20 ms
            // optimized, and on a loaded machine a kill sent on seeing the trace line can come
            // after the commit.
            KillWriter(
                name: "DNG", arguments: ["capture", "--raw", "--sensor", "2560x1920", "-o", "{out}"], outputs: ["photo-1.dng"], kills: 16,
                namedKills: 8),
            // One second: on a loaded machine the virtual camera's first frames come late, and a
            // shorter recording may get none.
            KillWriter(
                name: "MOV", arguments: ["record", "--seconds", "1", "--device", "front", "-o", "{out}/clip.mov"], outputs: ["clip.mov"],
                kills: 16, namedKills: 4),
            KillWriter(
                name: "Live Photo", arguments: ["capture", "--live"] + sensor + ["-o", "{out}"], outputs: ["photo-1.jpg", "photo-1.mov"],
                pair: ("photo-1.jpg", "photo-1.mov"), kills: 12, namedKills: 3),
            KillWriter(
                name: "Motion Photo", arguments: ["capture", "--motion-photo"] + sensor + ["-o", "{out}"], outputs: ["photo-1.MP.jpg"],
                kills: 12, namedKills: 3),
        ]
    }()

    /// A run to the end: when the writer began and finished writing, and what it wrote.
    struct Calibration: Sendable {
        let firstBegin: Double
        let lastCommit: Double
        var window: Double { lastCommit - firstBegin }
        let folder: String
    }

    /// What one killed run did and left.
    struct Observation: Sendable {
        let named: Bool
        let run: ChildProcess.Run
        /// The destinations the trace says were begun and committed before the child died.
        let begun: Set<String>
        let committed: Set<String>
        /// The writer's outputs that were committed (by name).
        let allOutputsCommitted: Bool
        /// The kill's time after the run's first `begin`; nil when it came before any `begin`
        /// (or no kill was sent).
        let sinceBegin: Double?
        /// Names in the output folder, and in the child's temporary directory, after the kill.
        let entries: [String]
        let scratch: [String]
        /// Names that are neither an output nor (with named temporaries) a temporary file.
        let strays: [String]
        /// Named temporary files found (named mode: the next run in the folder must clear them).
        let temporaries: [String]
        /// The outputs found, to judge (copies, in named mode, as the next run overwrites them).
        let judged: [CompleteFiles.Item]
        let halfPair: Bool

        var killed: Bool { run.signalled == SIGKILL }
        /// Killed after the write began and before all its outputs were committed.
        var inWindow: Bool { killed && !begun.isEmpty && !allOutputsCommitted }
        var beforeBegin: Bool { killed && begun.isEmpty }
    }

    /// The runs with named temporaries, all in one folder, and the run to the end after them.
    struct NamedSeries: Sendable {
        let observations: [Observation]
        let final: ChildProcess.Run
        let finalEntries: [String]
        let finalScratch: [String]
        let judged: [CompleteFiles.Item]
    }

    /// One writer's figures.
    struct Figures: Sendable {
        let writer: String
        let window: Double
        var runs = 0
        var kills = 0
        var inWindow = 0
        var beforeBegin = 0
        var afterCommit = 0
        /// Runs that ended on their own before the kill came.
        var finished = 0
        var partials = 0
        var leftovers = 0
        var halfPairs = 0
        var namedKills = 0
        var namedInWindow = 0
        /// Named temporaries seen right after named-mode kills (expected: nothing can remove
        /// them at a SIGKILL), all of which the next run must clear.
        var namedStale = 0
        /// Files left after the named series' run to the end (must be 0).
        var namedLeftAfterCleanup = 0
    }

    struct Report: Sendable {
        var figures: [Figures] = []
        /// Everything that went wrong, each with the run's command and what it left.
        var failures: [String] = []
        /// Truncated copies of good files that the judge took for complete (must be none: a
        /// judge that cannot see a cut file would make the partial count meaningless).
        var judgeMisses: [String] = []
        /// One line per run: when it was killed, what it had begun and committed, what it left.
        var details: [String] = []
        var seconds = 0.0

        var totalKills: Int { figures.reduce(0) { $0 + $1.kills + $1.namedKills } }
        var table: String {
            var lines = [
                "writer        window   runs  kills in-window before after finished partial leftover half-pair |"
                    + " named: kills in-window stale left"
            ]
            for f in figures {
                lines.append(
                    f.writer.padding(toLength: 12, withPad: " ", startingAt: 0)
                        + String(
                            format: " %6.1f ms %5d %6d %9d %6d %5d %8d %7d %8d %9d | %12d %9d %5d %4d", f.window * 1000, f.runs, f.kills,
                            f.inWindow, f.beforeBegin, f.afterCommit, f.finished, f.partials, f.leftovers, f.halfPairs, f.namedKills,
                            f.namedInWindow, f.namedStale, f.namedLeftAfterCleanup))
            }
            lines.append(String(format: "%d SIGKILLs in %.0f s", totalKills, seconds))
            return lines.joined(separator: "\n")
        }
    }

    // MARK: - Running

    /// Calibrates each writer, kills it at the planned points (two children at a time), judges
    /// every file the kills left, and counts.
    func run(_ writers: [KillWriter]) throws -> Report {
        let started = ChildProcess.now()
        var report = Report()
        try VirtualDNG.write(width: 1280, height: 960, to: dng)
        var calibrations: [Calibration?] = []
        for (w, writer) in writers.enumerated() {
            do {
                // The fastest of three runs: one slowed by a busy machine would stretch the window
                // and put the planned kills after a faster run's commit.
                var c = try calibrate(writer, index: w, attempt: 0)
                for attempt in 1..<3 {
                    let next = try calibrate(writer, index: w, attempt: attempt)
                    if next.window < c.window { c = next }
                }
                calibrations.append(c)
                report.judgeMisses += try judgeSeesTruncation(writer, c)
            } catch {
                calibrations.append(nil)
                report.failures.append("\(writer.name): calibration: \(error)")
            }
        }

        enum Job: Sendable {
            case kill(writer: Int, number: Int, plan: ChildProcess.Plan)
            case named(writer: Int, plans: [ChildProcess.Plan])
        }
        var jobs: [(cost: Double, job: Job)] = []
        for (w, writer) in writers.enumerated() {
            guard let c = calibrations[w] else { continue }
            for (n, plan) in plans(c, count: writer.kills).enumerated() {
                jobs.append((cost(of: plan, c), .kill(writer: w, number: n, plan: plan)))
            }
            let named = plans(c, count: writer.namedKills)
            jobs.append((named.reduce(c.lastCommit) { $0 + cost(of: $1, c) }, .named(writer: w, plans: named)))
        }
        // The longest first, so that the two workers finish together.
        jobs.sort { $0.cost > $1.cost }
        let queue = Mutex(
            (
                next: 0, observations: [[Observation]](repeating: [], count: writers.count),
                series: [NamedSeries?](repeating: nil, count: writers.count), failures: [String]()
            ))
        let work = jobs.map(\.job)
        let calibrated = calibrations
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                let i = queue.withLock { q -> Int in
                    defer { q.next += 1 }
                    return q.next
                }
                guard i < work.count else { return }
                switch work[i] {
                case .kill(let w, let n, let plan):
                    let folder = root.path("\(w)/kill-\(n)")
                    do {
                        var o = try kill(writers[w], plan: plan, folder: folder, named: false, calibration: calibrated[w]!)
                        // A run faster than the calibration can commit before its kill (and finish,
                        // or be killed on its way out): try again sooner, at most twice (a run
                        // that still finishes counts as finished).
                        var sooner = plan
                        for attempt in 1...2
                        where (o.killed ? o.allOutputsCommitted : o.run.status == 0) && sooner.after != .start {
                            sooner.delay /= 2
                            o = try kill(
                                writers[w], plan: sooner, folder: folder + "-sooner\(attempt)", named: false, calibration: calibrated[w]!)
                        }
                        queue.withLock { $0.observations[w].append(o) }
                    } catch {
                        queue.withLock { $0.failures.append("\(writers[w].name): kill \(n): \(error)") }
                    }
                case .named(let w, let plans):
                    do {
                        let s = try namedSeries(writers[w], plans: plans, folder: root.path("\(w)/named"), calibration: calibrated[w]!)
                        queue.withLock { $0.series[w] = s }
                    } catch {
                        queue.withLock { $0.failures.append("\(writers[w].name): named series: \(error)") }
                    }
                }
            }
        }
        let (observations, series, failures) = queue.withLock { ($0.observations, $0.series, $0.failures) }
        report.failures += failures

        // Judge every file the kills left, one judge per writer, two at a time.
        let verdicts = Mutex([[CompleteFiles.Verdict]](repeating: [], count: writers.count))
        let judgeFailures = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: writers.count) { w in
            let items = observations[w].flatMap(\.judged) + (series[w]?.observations.flatMap(\.judged) ?? []) + (series[w]?.judged ?? [])
            do {
                let v = try CompleteFiles.judge(items)
                verdicts.withLock { $0[w] = v }
            } catch {
                judgeFailures.withLock { $0.append("\(writers[w].name): judge: \(error)") }
            }
        }
        report.failures += judgeFailures.withLock { $0 }
        let judged = verdicts.withLock { $0 }

        for (w, writer) in writers.enumerated() {
            guard let c = calibrations[w] else { continue }
            var f = Figures(writer: writer.name, window: c.window)
            for o in observations[w] { report.details.append("\(writer.name): \(describe(o)) left \(o.entries) and \(o.scratch)") }
            for o in series[w]?.observations ?? [] {
                report.details.append("\(writer.name): named \(describe(o)) left \(o.entries)")
            }
            for o in observations[w] {
                f.runs += 1
                if o.killed { f.kills += 1 } else if o.run.status == 0 { f.finished += 1 }
                if o.inWindow { f.inWindow += 1 }
                if o.beforeBegin { f.beforeBegin += 1 }
                if o.killed && o.allOutputsCommitted { f.afterCommit += 1 }
                let left = o.strays + o.temporaries + o.scratch
                f.leftovers += left.count
                if !left.isEmpty { report.failures.append("\(writer.name): \(describe(o)) left \(left)") }
                if o.halfPair {
                    f.halfPairs += 1
                    report.failures.append("\(writer.name): \(describe(o)) left half a pair: \(o.entries)")
                }
                if !o.killed, o.run.status != 0 {
                    report.failures.append(
                        "\(writer.name): a run exited \(o.run.shellStatus) before its kill: \(o.run.errText.suffix(800))")
                }
            }
            if let s = series[w] {
                for o in s.observations {
                    if o.killed { f.namedKills += 1 }
                    if o.inWindow { f.namedInWindow += 1 }
                    f.namedStale += o.temporaries.count
                    if o.halfPair {
                        f.halfPairs += 1
                        report.failures.append("\(writer.name): named \(describe(o)) left half a pair: \(o.entries)")
                    }
                    if !o.strays.isEmpty {
                        f.leftovers += o.strays.count
                        report.failures.append("\(writer.name): named \(describe(o)) left \(o.strays)")
                    }
                }
                let left = s.finalEntries.filter { !writer.outputs.contains($0) } + s.finalScratch
                f.namedLeftAfterCleanup = left.count
                if s.final.status != 0 {
                    report.failures.append(
                        "\(writer.name): the named series' last run exited \(s.final.shellStatus): \(s.final.errText.suffix(800))")
                }
                if !left.isEmpty {
                    report.failures.append("\(writer.name): after the named series' run to the end, the folders still hold \(left)")
                }
                if f.namedInWindow > 0 && f.namedStale == 0 {
                    report.failures.append(
                        "\(writer.name): \(f.namedInWindow) named-temporary runs killed mid-write, yet no temporary file was seen"
                            + " after any: is the named fallback on?"
                    )
                }
            }
            for v in judged[w] where !v.complete {
                f.partials += 1
                report.failures.append("\(writer.name): \(v.item.path) (\(v.item.kind)) is not complete: \(v.reason)")
            }
            report.figures.append(f)
        }
        report.seconds = ChildProcess.now() - started
        return report
    }

    /// The environment of every child: the trace on, its temporary directory in `scratch`.
    func environment(scratch: String, named: Bool) -> [String: String?] {
        ["DAGUERRE_TRACE_WRITES": "1", "TMPDIR": scratch, "DAGUERRE_NAMED_TEMPORARIES": named ? "1" : nil]
    }

    /// Runs the writer to the end; its first `begin` and last `commit` time the write.
    func calibrate(_ writer: KillWriter, index: Int, attempt: Int) throws -> Calibration {
        let folder = root.path("\(index)/calibration-\(attempt)")
        let (out, scratch) = try makeFolders(folder)
        let run = try ChildProcess.run(
            CLITests.cli, writer.arguments(into: out, dng: dng), environment: environment(scratch: scratch, named: false))
        guard run.status == 0 else { throw Judge.Failure(description: "exited \(run.shellStatus): \(run.errText.suffix(1000))") }
        let begins = run.stderr.filter { $0.text.hasPrefix(Self.traceBegin) }
        let commits = run.stderr.filter { $0.text.hasPrefix(Self.traceCommit) }
        guard let first = begins.first, let last = commits.last else {
            throw Judge.Failure(description: "no DAGUERRE_TRACE_WRITES begin and commit lines on stderr: \(run.errText.suffix(1000))")
        }
        let entries = Self.list(out)
        guard Set(entries) == Set(writer.outputs), Self.list(scratch).isEmpty else {
            throw Judge.Failure(
                description: "a run to the end left \(entries) and \(Self.list(scratch)) in its temporary directory, not \(writer.outputs)")
        }
        let verdicts = try CompleteFiles.judge(items(for: writer, in: out, entries: entries).items)
        if let bad = verdicts.first(where: { !$0.complete }) {
            throw Judge.Failure(description: "a run to the end wrote \(bad.item.path), which is not complete: \(bad.reason)")
        }
        return Calibration(firstBegin: first.seconds, lastCommit: last.seconds, folder: out)
    }

    /// Truncated copies of the calibration's files (at half, and one byte short) that the
    /// judge nevertheless calls complete: none, or the partial count means nothing.
    func judgeSeesTruncation(_ writer: KillWriter, _ c: Calibration) throws -> [String] {
        let cut = c.folder + "-truncated"
        var cutItems: [CompleteFiles.Item] = []
        for (n, keep) in ["half", "short"].enumerated() {
            let dir = cut + "/\(keep)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for name in writer.outputs {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: c.folder + "/" + name))
                let whole = dir + "/" + name
                try bytes.write(to: URL(fileURLWithPath: whole))
                // The pair judged whole but for one half cut.
                let cutName = writer.pair?.movie ?? name
                if name == cutName { try bytes.prefix(n == 0 ? bytes.count / 2 : bytes.count - 1).write(to: URL(fileURLWithPath: whole)) }
            }
            cutItems += items(for: writer, in: dir, entries: writer.outputs).items
        }
        return try CompleteFiles.judge(cutItems).filter(\.complete).map { "\($0.item.path) (\($0.item.kind)): \($0.reason)" }
    }

    /// The points to kill at: three before the first `begin`, the rest stratified over the
    /// window (and a little past it, so the moment of the commit is in reach). The strata are
    /// squared, denser towards the window's start: the parent reads `begin` a little late and a
    /// short write often runs faster than when it was calibrated, so evenly spread kills land
    /// after the commit too often to judge the window itself.
    func plans(_ c: Calibration, count: Int) -> [ChildProcess.Plan] {
        let before = Self.beforeBegin.prefix(max(0, min(3, count - 2))).map {
            ChildProcess.Plan(signal: SIGKILL, after: .start, delay: c.firstBegin * $0)
        }
        let m = count - before.count
        let span = c.window * 1.05
        let during = (0..<m).map { k in
            ChildProcess.Plan(
                signal: SIGKILL, after: .line(Self.traceBegin), delay: span * pow((Double(k) + Double.random(in: 0..<1)) / Double(m), 2))
        }
        return before + during
    }

    func cost(of plan: ChildProcess.Plan, _ c: Calibration) -> Double {
        plan.after == .start ? plan.delay : c.firstBegin + plan.delay
    }

    /// One run, killed as planned, and what it left. `keep`: where to copy the outputs found
    /// for judging (the named series reuses its folder).
    func kill(
        _ writer: KillWriter, plan: ChildProcess.Plan, folder: String, named: Bool, calibration: Calibration, keep: String? = nil
    ) throws -> Observation {
        let (out, scratch) = try makeFolders(folder)
        let run = try ChildProcess.run(
            CLITests.cli, writer.arguments(into: out, dng: dng), environment: environment(scratch: scratch, named: named), plan: plan,
            timeout: 120)
        return try observe(writer, run: run, out: out, scratch: scratch, named: named, keep: keep)
    }

    /// The kills with named temporary files, one after another in one folder, then a run to the
    /// end there, which must leave nothing but its outputs.
    func namedSeries(_ writer: KillWriter, plans: [ChildProcess.Plan], folder: String, calibration: Calibration) throws -> NamedSeries {
        var observations: [Observation] = []
        for (n, plan) in plans.enumerated() {
            observations.append(
                try kill(writer, plan: plan, folder: folder, named: true, calibration: calibration, keep: folder + "/keep-\(n)"))
        }
        let (out, scratch) = try makeFolders(folder)
        // The finished files of the killed runs go (a capture refuses to overwrite them); their
        // temporaries stay, for the run to the end to clear.
        for name in Self.list(out) where writer.outputs.contains(name) {
            try? FileManager.default.removeItem(atPath: out + "/" + name)
        }
        let final = try ChildProcess.run(
            CLITests.cli, writer.arguments(into: out, dng: dng), environment: environment(scratch: scratch, named: true), timeout: 120)
        let entries = Self.list(out)
        return NamedSeries(
            observations: observations, final: final, finalEntries: entries, finalScratch: Self.list(scratch),
            judged: items(for: writer, in: out, entries: entries).items)
    }

    func observe(
        _ writer: KillWriter, run: ChildProcess.Run, out: String, scratch: String, named: Bool, keep: String?
    ) throws -> Observation {
        var begun = Set<String>()
        var committed = Set<String>()
        for line in run.stderr {
            if line.text.hasPrefix(Self.traceBegin) { begun.insert(String(line.text.dropFirst(Self.traceBegin.count))) }
            if line.text.hasPrefix(Self.traceCommit) { committed.insert(String(line.text.dropFirst(Self.traceCommit.count))) }
        }
        let committedNames = Set(committed.map { ($0 as NSString).lastPathComponent })
        let firstBegin = run.stderr.first { $0.text.hasPrefix(Self.traceBegin) }?.seconds
        let entries = Self.list(out)
        // A Motion Photo's movie is written in the scratch folder (TMPDIR): its temporary counts too.
        let temporaries = named ? (entries + Self.list(scratch)).filter { $0.contains(Self.temporaryMarker) } : []
        let strays = entries.filter { !writer.outputs.contains($0) && !temporaries.contains($0) }
        var found = entries.filter { writer.outputs.contains($0) }
        var place = out
        if let keep {
            try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            for name in found { try FileManager.default.copyItem(atPath: out + "/" + name, toPath: keep + "/" + name) }
            place = keep
            found = Self.list(keep)
        }
        let (items, half) = items(for: writer, in: place, entries: found)
        // With named temporaries the scratch folder is shared by the series: judged at its end.
        let scratchLeft = named ? [] : Self.list(scratch)
        return Observation(
            named: named, run: run, begun: begun, committed: committed,
            allOutputsCommitted: writer.outputs.allSatisfy { committedNames.contains($0) },
            sinceBegin: run.signalSentAt.flatMap { t in firstBegin.map { t - $0 } }, entries: entries, scratch: scratchLeft,
            strays: strays, temporaries: temporaries, judged: items, halfPair: half)
    }

    /// The judge's items for the outputs found in `folder`: a pair as one item; whether only
    /// half of a pair is there.
    func items(for writer: KillWriter, in folder: String, entries: [String]) -> (items: [CompleteFiles.Item], halfPair: Bool) {
        var names = entries.filter { writer.outputs.contains($0) }
        var items: [CompleteFiles.Item] = []
        var half = false
        if let pair = writer.pair {
            let has = (names.contains(pair.still), names.contains(pair.movie))
            if has.0 && has.1 {
                items.append(.init(kind: "pair", path: "\(folder)/\(pair.still),\(folder)/\(pair.movie)"))
                names.removeAll { $0 == pair.still || $0 == pair.movie }
            } else if has.0 || has.1 {
                half = true
            }
        }
        for name in names {
            if let kind = CompleteFiles.kind(ofFileNamed: name) { items.append(.init(kind: kind, path: "\(folder)/\(name)")) }
        }
        return (items, half)
    }

    func describe(_ o: Observation) -> String {
        let when =
            o.sinceBegin.map { String(format: "%+.1f ms from the first begin", $0 * 1000) }
            ?? o.run.signalSentAt.map { String(format: "%.0f ms after the start, before any begin", $0 * 1000) } ?? "no kill sent"
        let how = o.killed ? "SIGKILL \(when)" : "a run that exited \(o.run.shellStatus) (\(when))"
        return "\(how), begun \(o.begun.sorted()), committed \(o.committed.sorted()),"
    }

    /// `folder/out` and `folder/tmp` (the child's TMPDIR), created.
    func makeFolders(_ folder: String) throws -> (out: String, scratch: String) {
        let out = folder + "/out"
        let scratch = folder + "/tmp"
        for dir in [out, scratch] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        return (out, scratch)
    }

    /// Every name in a folder, hidden ones too.
    static func list(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
