// Temp-then-rename file creation for every encoder (POSIX: mkstemp, fsync, rename; no codec).
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
    public private(set) var descriptor: Int32
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
    }

    deinit {
        if !done { abort() }
    }

    /// A buffered stdio stream on the temporary file (created once; owned by this object).
    public func stream() throws(DaguerreError) -> UnsafeMutablePointer<FILE> {
        if let file { return file }
        guard descriptor >= 0, let f = fdopen(descriptor, "wb") else {
            throw .io(operation: "open a stream on", path: temporaryPath, reason: String(cString: strerror(errno)))
        }
        file = f
        return f
    }

    /// Bytes written since the last writeback was started.
    private var unsynced = 0
    /// How much is written between writebacks.
    static let writebackInterval = 8 << 20

    /// Tells the file that `byteCount` more bytes went into it; every ``writebackInterval``
    /// bytes it starts writing them to disk in the background (`sync_file_range`), so that the
    /// fsync in ``finish()`` waits only for the tail. A 144 MB TIFF's fsync took 0.12 s when it
    /// all waited for the end. Only a hint: errors are left for `finish()` to report.
    public func wrote(byteCount: Int) {
        unsynced += byteCount
        guard unsynced >= Self.writebackInterval, descriptor >= 0 else { return }
        unsynced = 0
        if let file { fflush(file) }
        _ = dag_start_writeback(descriptor)
    }

    /// Flushes, fsyncs and closes the temporary file, then renames it over the destination.
    /// On any failure the temporary file is removed and `.io` is thrown.
    public func finish() throws(DaguerreError) {
        guard !done else { return }
        var failure: DaguerreError?
        if let file {
            if fflush(file) != 0 || ferror(file) != 0 {
                failure = .io(operation: "write", path: destination, reason: String(cString: strerror(errno)))
            }
        }
        if failure == nil, fsync(descriptor) != 0 {
            failure = .io(operation: "write", path: destination, reason: String(cString: strerror(errno)))
        }
        if closeFile() != 0, failure == nil {
            failure = .io(operation: "write", path: destination, reason: String(cString: strerror(errno)))
        }
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
        defer { file = nil; descriptor = -1 }
        if let file { return fclose(file) }
        if descriptor >= 0 { return close(descriptor) }
        return 0
    }
}
