import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `daguerre` command run as a child process that is sent a signal at a chosen moment: the
/// crash-safety tests' way of killing a writer mid-write (SIGKILL) or stopping a batch (SIGINT,
/// SIGTERM), as a power cut or a user at the keyboard would.
///
/// The child's stdout and stderr are read as they come, each line stamped with the time since
/// the spawn (monotonic clock), so a signal can be timed from a line the child prints (with
/// `DAGUERRE_TRACE_WRITES=1`, the `begin` of a file) and the lines printed before the child died
/// say how far it got.
///
/// ```swift
/// let plan = ChildProcess.Plan(signal: SIGKILL, after: .line("DAGUERRE_TRACE_WRITES begin"), delay: 0.02)
/// let run = try ChildProcess.run(CLITests.cli, ["apply", input, "-o", output],
///                                environment: ["DAGUERRE_TRACE_WRITES": "1"], plan: plan)
/// #expect(run.signalled == SIGKILL)
/// ```
enum ChildProcess {
    /// What ends a run early: a signal, sent `delay` seconds after the anchor.
    struct Plan: Sendable {
        enum Anchor: Sendable, Equatable {
            /// The spawn.
            case start
            /// The stderr line that starts with this text, the first one or the `occurrence`-th.
            case line(String, occurrence: Int = 1)
        }
        var signal: Int32
        var after: Anchor
        var delay: Double
        /// A second signal (the same one) this many seconds after the first: a second Ctrl-C.
        var repeatAfter: Double? = nil
    }

    /// A line the child printed, with the time it was read (seconds since the spawn).
    struct Line: Sendable {
        let seconds: Double
        let text: String
    }

    /// How a run went.
    struct Run: Sendable {
        let stdout: [Line]
        let stderr: [Line]
        /// The exit status when the child exited; nil when a signal ended it.
        let status: Int32?
        /// The signal that ended the child; nil when it exited.
        let signalled: Int32?
        /// When the (first) planned signal was sent, in seconds since the spawn; nil when the
        /// child had ended before (or its anchor line never came).
        let signalSentAt: Double?
        /// When the child was seen to end, in seconds since the spawn.
        let ended: Double

        var errText: String { stderr.map(\.text).joined(separator: "\n") }
        var outText: String { stdout.map(\.text).joined(separator: "\n") }
        /// The exit status as a shell reports it: 128 + the signal for a signalled child.
        var shellStatus: Int32 { status ?? 128 + (signalled ?? 0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// Runs `executable` with `arguments` (its environment: this process's, with `environment`
    /// over it; a nil value removes the variable), sends the plan's signal, and reads its output until it ends. A child still
    /// running after `timeout` seconds is killed and reported as a failure.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:], plan: Plan? = nil, timeout: Double = 300
    ) throws -> Run {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Not inherited by children other tests spawn meanwhile (they would hold the pipes open).
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // The child starts with default signal handling and nothing blocked, whatever the test
        // runner set for itself, in a process group of its own.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, s) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let env = variables.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            for p in argv + envp { free(p) }
        }
        var pid: pid_t = 0
        let start = now()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        defer {
            close(outPipe[0])
            close(errPipe[0])
        }

        var streams = [LineStream(fd: outPipe[0]), LineStream(fd: errPipe[0])]
        var deadline: Double? = plan.flatMap { $0.after == .start ? start + $0.delay : nil }
        var sentAt: Double?
        var anchorLines = 0
        var repeated = false
        var timedOut = false
        while streams.contains(where: { !$0.closed }) {
            let t = now()
            if let plan, let d = deadline, sentAt == nil, t >= d {
                kill(pid, plan.signal)
                sentAt = now() - start
            }
            if let plan, let first = sentAt, let again = plan.repeatAfter, !repeated, t - start >= first + again {
                kill(pid, plan.signal)
                repeated = true
            }
            if t - start > timeout, !timedOut {
                kill(pid, SIGKILL)
                timedOut = true
            }
            // Wake for output, for the next signal, or every 50 ms to check the time limit.
            var wait = 0.05
            if let d = deadline, sentAt == nil { wait = min(wait, max(0, d - t)) }
            if let first = sentAt, let again = plan?.repeatAfter, !repeated { wait = min(wait, max(0, start + first + again - t)) }
            if wait < 0.002 {
                // poll counts in milliseconds: the last stretch before a signal is slept exactly
                // (the pipes hold what the child prints meanwhile).
                var span = timespec(tv_sec: 0, tv_nsec: Int(wait * 1e9))
                nanosleep(&span, nil)
                if wait > 0 { continue }
            }
            var fds = streams.filter { !$0.closed }.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(max(0, wait * 1000 - 1)))
            guard ready > 0 else { continue }
            for fd in fds where fd.revents != 0 {
                guard let i = streams.firstIndex(where: { $0.fd == fd.fd }) else { continue }
                for line in streams[i].read(at: now() - start) {
                    if let plan, deadline == nil, case .line(let prefix, let occurrence) = plan.after, i == 1, line.text.hasPrefix(prefix) {
                        anchorLines += 1
                        if anchorLines == occurrence { deadline = start + line.seconds + plan.delay }
                    }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let ended = now() - start
        if timedOut {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) still ran after \(timeout) s; killed")
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7f
        return Run(
            stdout: streams[0].lines, stderr: streams[1].lines, status: signal == 0 ? (status >> 8) & 0xff : nil,
            signalled: signal == 0 ? nil : signal, signalSentAt: sentAt, ended: ended)
    }

    /// One pipe, read into lines.
    private struct LineStream {
        let fd: Int32
        var closed = false
        var pending: [UInt8] = []
        var lines: [Line] = []

        /// Reads what is there; returns the lines it completed.
        mutating func read(at seconds: Double) -> [Line] {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n == 0 || (errno != EINTR && errno != EAGAIN) { closed = true }
                if closed, !pending.isEmpty {
                    lines.append(Line(seconds: seconds, text: String(decoding: pending, as: UTF8.self)))
                    pending = []
                    return [lines[lines.count - 1]]
                }
                return []
            }
            pending += buffer[0..<n]
            var completed: [Line] = []
            while let newline = pending.firstIndex(of: 0x0A) {
                completed.append(Line(seconds: seconds, text: String(decoding: pending[..<newline], as: UTF8.self)))
                pending.removeSubrange(...newline)
            }
            lines += completed
            return completed
        }
    }
}
