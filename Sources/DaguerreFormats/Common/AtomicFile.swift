// Files that appear only when complete, for every encoder. On Linux the bytes go to an unnamed
// file in the destination's directory (O_TMPFILE), linked into place at commit, so a process
// killed mid-write leaves nothing; where the file system has no O_TMPFILE, to a hidden named
// temporary that is renamed into place, and stale ones of ours are removed from a directory
// before it is written to. POSIX calls only (open, mkstemp, flock, fsync, linkat, rename): no
// library does this; the staging writer is the direct-file glue in CDaguerreCodecs.
import CDaguerreCodecs
import DaguerreCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that appears at its destination only when it is complete.
///
/// Encoders never write to the destination directly: a render that fails half way (a damaged
/// input, a full disk, a kill) must not leave a partial JPEG where a good one used to be, nor a
/// stray temporary beside it. The bytes go to a file in the destination's own directory (the
/// same file system) that has no name: `open(directory, O_TMPFILE)`. ``finish()`` flushes and
/// fsyncs it and gives it the destination's name with `linkat`; a file already there is
/// replaced atomically (by way of a hidden name and `rename`) unless `replacesExisting` is
/// false, when the commit fails instead (no-replace semantics). A process killed before the
/// commit leaves nothing: the kernel frees the unnamed file.
///
/// Where the file system refuses O_TMPFILE (or `DAGUERRE_NAMED_TEMPORARIES=1`), the bytes go to
/// a hidden temporary `.NAME.daguerre-XXXXXX`, renamed into place at commit. Each temporary is
/// locked (`flock`) while its writer lives, and before the first file is written into a
/// directory, temporaries of that pattern older than the process and not locked, left by a
/// killed process, are removed. SIGINT and SIGTERM are the command line's to handle: it calls
/// ``interruptAll()``, which removes the temporaries in progress.
///
/// ``abort()``, or releasing the object without finishing, abandons the file. Files that must
/// appear together (a Live Photo's still and movie) commit through an ``AtomicFileGroup``.
///
/// The bytes pass through a direct file (`dag_direct_file.h`): they are staged in memory and
/// written in aligned 4 MiB pieces with O_DIRECT, past the page cache, where the file system
/// allows it. A 24 MP 16-bit TIFF (144 MB) written through the page cache cost its writer 0.04
/// to 0.37 s of system time, most of it in copying into fresh cache pages; written directly it
/// costs almost none, and the fsync has nothing left to wait for.
///
/// Creating one also proves early that the destination is writable, before any pixel is rendered.
///
/// Not thread-safe: it belongs to one encoder.
///
/// ```swift
/// let file = try AtomicFile(destination: "/photos/out.jpg")
/// let fp = try file.stream()          // hand the FILE* to libjpeg / libpng
/// // ... write ...
/// try file.finish()                   // or file.abort()
/// ```
public final class AtomicFile {
    /// Where the finished file goes.
    public let destination: String
    /// Whether a file already at the destination is replaced (the default) or the commit fails.
    public let replacesExisting: Bool
    /// The hidden temporary file being written, or nil for an unnamed (O_TMPFILE) one.
    public let temporaryPath: String?
    /// The descriptor of the file being written; -1 once closed.
    private var descriptor: Int32
    /// The staging writer on `descriptor` (libtiff writes into it directly); nil once closed.
    private(set) var direct: OpaquePointer?
    private var file: UnsafeMutablePointer<FILE>?
    private var done = false

    /// Creates the file being written, in `destination`'s directory.
    /// Throws `.io(operation: "create a file in", path: directory, ...)` when the directory is
    /// missing, read-only or not writable.
    public convenience init(destination: String, replacesExisting: Bool = true) throws(DaguerreError) {
        try self.init(destination: destination, replacesExisting: replacesExisting, anonymous: !WriteRegistry.namedOnly)
    }

    /// `anonymous` false: a named temporary even where O_TMPFILE works (the fallback's tests).
    init(destination: String, replacesExisting: Bool, anonymous: Bool) throws(DaguerreError) {
        self.destination = destination
        self.replacesExisting = replacesExisting
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        let registry = WriteRegistry.shared
        registry.cleanOnce(directory)
        var fd: Int32 = -1
        var named: String?
        if anonymous {
            fd = dag_anonymous_open(directory)
            if fd < 0, ![EOPNOTSUPP, EISDIR, EINVAL, ENOSYS].contains(errno) {
                throw .io(operation: "create a file in", path: directory, reason: String(cString: strerror(errno)))
            }
        }
        if fd < 0 {
            var template = Array("\(directory)/.\(url.lastPathComponent).daguerre-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw .io(operation: "create a temporary file in", path: directory, reason: String(cString: strerror(errno)))
            }
            named = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
            // mkstemp creates 0600; a finished image should be readable like any other file.
            _ = fchmod(fd, 0o644)
        }
        // Locked while this process lives: a temporary is stale only once its lock is gone.
        _ = flock(fd, LOCK_EX | LOCK_NB)
        descriptor = fd
        temporaryPath = named
        registry.begin(self, named: named)
        guard let staging = dag_direct_open(fd, 1) else {
            abort()
            throw .io(operation: "allocate the 4 MiB staging buffer of", path: destination, reason: "out of memory")
        }
        direct = staging
    }

    deinit {
        if !done { abort() }
    }

    /// A buffered stdio stream on the file (created once; owned by this object).
    public func stream() throws(DaguerreError) -> UnsafeMutablePointer<FILE> {
        if let file { return file }
        guard let direct, let f = dag_direct_stream(direct) else {
            throw .io(operation: "open a stream on", path: destination, reason: String(cString: strerror(errno)))
        }
        file = f
        return f
    }

    /// Flushes and fsyncs the file, then gives it the destination's name (or, in a group,
    /// leaves it for the group's commit). On any failure the file is abandoned and `.io` is
    /// thrown.
    public func finish() throws(DaguerreError) {
        guard !done else { return }
        var failure: DaguerreError?
        func check(_ ok: Bool) {
            if !ok, failure == nil { failure = .io(operation: "write", path: destination, reason: String(cString: strerror(errno))) }
        }
        if let file { check(fflush(file) == 0 && ferror(file) == 0) }
        if failure == nil, let direct { check(dag_direct_flush(direct) == 0) }
        if failure == nil { check(fsync(descriptor) == 0) }
        if let failure {
            abort()
            throw failure
        }
        done = true
        do throws(DaguerreError) {
            _ = try WriteRegistry.shared.commit(self)
        } catch {
            WriteRegistry.shared.end(self)
            discard()
            throw error
        }
    }

    /// Writes `bytes` as the whole file at `path`, atomically.
    public static func write(_ bytes: [UInt8], to path: String, replacesExisting: Bool = true) throws(DaguerreError) {
        let file = try AtomicFile(destination: path, replacesExisting: replacesExisting)
        let f = try file.stream()
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
        guard written == bytes.count else {
            let reason = String(cString: strerror(errno))
            file.abort()
            throw .io(operation: "write", path: path, reason: reason)
        }
        try file.finish()
    }

    /// Abandons the file; the destination is untouched.
    public func abort() {
        guard !done else { return }
        done = true
        WriteRegistry.shared.end(self)
        discard()
    }

    /// Abandons every file this process is writing (their temporaries removed) and refuses
    /// every commit from now on; for a command interrupted by a signal, just before it exits.
    /// Returns how many files the process wrote.
    public static func interruptAll() -> Int { WriteRegistry.shared.interrupt() }

    /// How many files this process has written (committed) so far.
    public static var committedCount: Int { WriteRegistry.shared.committed }

    /// What the file system said when a write failed (e.g. "No space left on device"), or nil.
    public var failureCause: String? {
        let code = dag_direct_error(direct)
        return code == 0 ? nil : String(cString: strerror(code))
    }

    /// Where the file being written to `destination` can be read: `destination` itself, or,
    /// while the file is finished and waits for its ``AtomicFileGroup``, a path to its bytes
    /// (for a file made from another of its group, as a Motion Photo is from the movie).
    public static func readablePath(of destination: String) -> String {
        WriteRegistry.shared.pendingPath(of: destination) ?? destination
    }

    /// A path that opens this file's bytes (while it is open).
    var readablePath: String { temporaryPath ?? "/proc/self/fd/\(descriptor)" }

    // MARK: Commit (under the registry's lock)

    /// Gives the finished file the destination's name and closes it.
    func place() throws(DaguerreError) {
        defer { _ = closeFile() }
        if let temporaryPath {
            try renameTemporary(temporaryPath)
            return
        }
        if dag_anonymous_link(descriptor, destination) == 0 { return }
        let linkError = errno
        guard linkError == EEXIST, replacesExisting else { throw linkFailure(linkError) }
        // Replace atomically: a hidden name of the temporary pattern (removed as stale if the
        // process dies right here), then rename over the destination.
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        for _ in 0..<16 {
            let suffix = String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
            let hidden = "\(directory)/.\(url.lastPathComponent).daguerre-\(suffix)"
            if dag_anonymous_link(descriptor, hidden) == 0 {
                guard rename(hidden, destination) == 0 else {
                    let e = errno
                    unlink(hidden)
                    throw .io(operation: "rename the finished file to", path: destination, reason: String(cString: strerror(e)))
                }
                return
            }
            guard errno == EEXIST else { throw linkFailure(errno) }
        }
        throw linkFailure(EEXIST)
    }

    private func renameTemporary(_ temporary: String) throws(DaguerreError) {
        if replacesExisting {
            guard rename(temporary, destination) == 0 else {
                throw .io(operation: "rename the finished file to", path: destination, reason: String(cString: strerror(errno)))
            }
            return
        }
        if dag_rename_noreplace(temporary, destination) == 0 { return }
        var e = errno
        if e == EINVAL || e == ENOSYS {
            // No renameat2 here: a hard link fails on an existing name just the same.
            if link(temporary, destination) == 0 {
                unlink(temporary)
                return
            }
            e = errno
        }
        throw linkFailure(e)
    }

    private func linkFailure(_ e: Int32) -> DaguerreError {
        if e == EEXIST {
            return .io(
                operation: "create", path: destination,
                reason: "a file with that name already exists and was not to be replaced; choose another name or remove it")
        }
        return .io(operation: "give the finished file its name", path: destination, reason: String(cString: strerror(e)))
    }

    /// Closes the file and removes its temporary name, if any (the registry is not told).
    func discard() {
        _ = closeFile()
        if let temporaryPath { unlink(temporaryPath) }
    }

    private func closeFile() -> Int32 {
        defer {
            file = nil
            direct = nil
            descriptor = -1
        }
        var status: Int32 = 0
        if let file, fclose(file) != 0 { status = -1 }
        dag_direct_free(direct)
        if descriptor >= 0, close(descriptor) != 0 { status = -1 }
        return status
    }
}
