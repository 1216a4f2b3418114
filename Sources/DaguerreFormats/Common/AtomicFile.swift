// Temp-then-rename file creation for every encoder (POSIX: mkstemp, fsync, rename; no codec),
// written through the direct-file glue in CDaguerreCodecs.
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
/// input, a full disk, a crash) must not leave a partial JPEG where a good one used to be. So the
/// bytes go to a hidden temporary file in the destination's own directory (the same file system,
/// so `rename` is atomic), and ``finish()`` flushes, fsyncs and renames it over the destination.
/// ``abort()``, or releasing the object without finishing, unlinks the temporary file.
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
    /// The hidden temporary file being written.
    public let temporaryPath: String
    /// The descriptor of the temporary file; -1 once closed.
    private var descriptor: Int32
    /// The staging writer on `descriptor` (libtiff writes into it directly); nil once closed.
    private(set) var direct: OpaquePointer?
    private var file: UnsafeMutablePointer<FILE>?
    private var done = false

    /// Creates the temporary file next to `destination`.
    /// Throws `.io(operation: "create a temporary file in", path: directory, ...)` when the
    /// directory is missing or not writable.
    public init(destination: String) throws(DaguerreError) {
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var template = Array("\(directory)/.\(name).daguerre-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .io(operation: "create a temporary file in", path: directory, reason: String(cString: strerror(errno)))
        }
        descriptor = fd
        temporaryPath = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        // mkstemp creates 0600; a finished image should be readable like any other file.
        _ = fchmod(fd, 0o644)
        guard let staging = dag_direct_open(fd, 1) else {
            abort()
            throw .io(operation: "allocate the 4 MiB staging buffer of", path: temporaryPath, reason: "out of memory")
        }
        direct = staging
    }

    deinit {
        if !done { abort() }
    }

    /// A buffered stdio stream on the temporary file (created once; owned by this object).
    public func stream() throws(DaguerreError) -> UnsafeMutablePointer<FILE> {
        if let file { return file }
        guard let direct, let f = dag_direct_stream(direct) else {
            throw .io(operation: "open a stream on", path: temporaryPath, reason: String(cString: strerror(errno)))
        }
        file = f
        return f
    }

    /// Flushes, fsyncs and closes the temporary file, then renames it over the destination.
    /// On any failure the temporary file is removed and `.io` is thrown.
    public func finish() throws(DaguerreError) {
        guard !done else { return }
        var failure: DaguerreError?
        func check(_ ok: Bool) {
            if !ok, failure == nil { failure = .io(operation: "write", path: destination, reason: String(cString: strerror(errno))) }
        }
        if let file { check(fflush(file) == 0 && ferror(file) == 0) }
        if failure == nil, let direct { check(dag_direct_flush(direct) == 0) }
        if failure == nil { check(fsync(descriptor) == 0) }
        check(closeFile() == 0)
        if failure == nil, rename(temporaryPath, destination) != 0 {
            failure = .io(operation: "rename the finished file to", path: destination, reason: String(cString: strerror(errno)))
        }
        done = true
        if let failure {
            unlink(temporaryPath)
            throw failure
        }
    }

    /// Writes `bytes` as the whole file at `path`, atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws(DaguerreError) {
        let file = try AtomicFile(destination: path)
        let f = try file.stream()
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
        guard written == bytes.count else {
            let reason = String(cString: strerror(errno))
            file.abort()
            throw .io(operation: "write", path: path, reason: reason)
        }
        try file.finish()
    }

    /// Closes and removes the temporary file; the destination is untouched.
    public func abort() {
        guard !done else { return }
        done = true
        _ = closeFile()
        unlink(temporaryPath)
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
