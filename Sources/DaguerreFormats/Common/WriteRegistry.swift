// The process's files in the making (every AtomicFile between its creation and its commit):
// what an interruption must abandon, the commits that wait for each other (a Live Photo's
// halves), one lock under which files appear, and the count of files written. Also the two
// environment switches of the writers: DAGUERRE_TRACE_WRITES (a line on stderr as each file
// is begun and committed, for the crash tests) and DAGUERRE_NAMED_TEMPORARIES (the named
// fallback even where O_TMPFILE works).
import DaguerreCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Process-wide bookkeeping of ``AtomicFile``s. Internal; ``AtomicFile`` and
/// ``AtomicFileGroup`` are its interface.
final class WriteRegistry: Sendable {
    static let shared = WriteRegistry()

    /// A line on stderr as each file is begun and committed.
    static let traces = getenv("DAGUERRE_TRACE_WRITES").map { String(cString: $0) != "0" } ?? false
    /// Named temporaries even where the file system offers O_TMPFILE.
    static let namedOnly = getenv("DAGUERRE_NAMED_TEMPORARIES").map { String(cString: $0) != "0" } ?? false
    /// When this process began writing: a temporary older than this, and not locked, is stale.
    let start: timespec = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }()

    struct State: @unchecked Sendable {
        /// Named temporaries being written, by file (anonymous files need no removal: they die
        /// with their descriptor).
        var named: [ObjectIdentifier: String] = [:]
        /// Destinations whose files wait for their group's commit, by group.
        var held: [String: ObjectIdentifier] = [:]
        /// Finished files waiting for their group (kept alive here).
        var parked: [ObjectIdentifier: [AtomicFile]] = [:]
        var committed = 0
        var interrupted = false
        /// Directories already cleared of stale temporaries.
        var cleaned: Set<String> = []
    }

    private let state = Mutex(State())

    func trace(_ event: String, _ path: String) {
        guard Self.traces else { return }
        let line = Array("DAGUERRE_TRACE_WRITES \(event) \(path)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Clears `directory` of stale temporaries of ours, once per process.
    func cleanOnce(_ directory: String) {
        let first = state.withLock { $0.cleaned.insert(directory).inserted }
        if first { StaleTemporaries.remove(in: directory, olderThan: start) }
    }

    func begin(_ file: AtomicFile, named: String?) {
        if let named { state.withLock { $0.named[ObjectIdentifier(file)] = named } }
        trace("begin", file.destination)
    }

    func end(_ file: AtomicFile) {
        _ = state.withLock { $0.named.removeValue(forKey: ObjectIdentifier(file)) }
    }

    /// Places a finished file at its destination under the commit lock, or parks it when its
    /// destination belongs to a group that has not committed yet. True when parked.
    func commit(_ file: AtomicFile) throws(DaguerreError) -> Bool {
        try state.withLock { (s) throws(DaguerreError) -> Bool in
            guard !s.interrupted else { throw Self.interruptedError(file.destination) }
            if !s.held.isEmpty, let group = s.held[Self.key(file.destination)] {
                s.parked[group, default: []].append(file)
                return true
            }
            try file.place()
            s.committed += 1
            s.named.removeValue(forKey: ObjectIdentifier(file))
            trace("commit", file.destination)
            return false
        }
    }

    func hold(_ destinations: [String], for group: ObjectIdentifier) throws(DaguerreError) {
        try state.withLock { (s) throws(DaguerreError) in
            if let taken = destinations.first(where: { s.held[Self.key($0)] != nil }) {
                throw .invalidArgument(
                    what: "the file group for \(taken)", problem: "another group is writing that file; give each group its own files")
            }
            for d in destinations { s.held[Self.key(d)] = group }
        }
    }

    /// Places every parked file of `group` under one lock; if one fails, the ones placed are
    /// removed again and the others discarded.
    func commitGroup(_ group: ObjectIdentifier, destinations: [String]) throws(DaguerreError) {
        let keys = destinations.map(Self.key)
        let failure = state.withLock { (s) -> (DaguerreError, [AtomicFile])? in
            let files = s.parked.removeValue(forKey: group) ?? []
            for d in keys where s.held[d] == group { s.held.removeValue(forKey: d) }
            if s.interrupted { return (Self.interruptedError(destinations.first ?? ""), files) }
            let missing = zip(destinations, keys).filter { _, k in !files.contains { Self.key($0.destination) == k } }.map(\.0)
            if !missing.isEmpty {
                let problem = "\(missing.joined(separator: ", ")) was not finished; finish every file before committing"
                return (.invalidArgument(what: "the file group", problem: problem), files)
            }
            for (i, file) in files.enumerated() {
                do throws(DaguerreError) {
                    try file.place()
                } catch {
                    for placed in files[..<i] { unlink(placed.destination) }
                    return (error, Array(files[i...]))
                }
            }
            for file in files {
                s.named.removeValue(forKey: ObjectIdentifier(file))
                s.committed += 1
                trace("commit", file.destination)
            }
            return nil
        }
        guard let (error, unplaced) = failure else { return }
        for file in unplaced { file.discard() }
        throw error
    }

    /// Releases a group: its parked files are discarded.
    func abandonGroup(_ group: ObjectIdentifier, destinations: [String]) {
        state.withLock { s in
            for d in destinations.map(Self.key) where s.held[d] == group { s.held.removeValue(forKey: d) }
        }
        abandonParked(group)
    }

    private func abandonParked(_ group: ObjectIdentifier) {
        let files = state.withLock { $0.parked.removeValue(forKey: group) ?? [] }
        for file in files { file.discard() }
    }

    /// Stops every write: named temporaries are removed, parked files discarded, and no file
    /// is committed from now on. Returns how many files this process committed.
    func interrupt() -> Int {
        state.withLock { s in
            s.interrupted = true
            for path in s.named.values { unlink(path) }
            s.named = [:]
            for files in s.parked.values {
                for file in files { file.discard() }
            }
            s.parked = [:]
            return s.committed
        }
    }

    var committed: Int { state.withLock { $0.committed } }

    /// Where the bytes of the file finished for `destination` can be read while it waits for
    /// its group: its named temporary, or its descriptor under /proc; nil when none waits.
    func pendingPath(of destination: String) -> String? {
        state.withLock { s in
            guard !s.parked.isEmpty else { return nil }
            let key = Self.key(destination)
            for files in s.parked.values {
                if let file = files.first(where: { Self.key($0.destination) == key }) { return file.readablePath }
            }
            return nil
        }
    }

    /// One spelling per file: absolute, without `.` and `..`.
    static func key(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    static func interruptedError(_ path: String) -> DaguerreError {
        .io(operation: "commit", path: path, reason: "the process was interrupted; the file was abandoned")
    }
}
