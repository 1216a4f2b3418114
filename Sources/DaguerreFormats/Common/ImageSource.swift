// Where a decoder's bytes come from: a path or an in-memory file (no codec library involved).
import DaguerreCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The input of a decoder: a file on disk, or a whole file already in memory.
///
/// Decoders keep it so that a request for an earlier row can restart decoding from the top
/// (JPEG and PNG decode forward only).
///
/// ```swift
/// let source = ImageSource.file("in.png")
/// let header = try source.prefix(64)     // magic bytes, the PNG IHDR
/// ```
enum ImageSource {
    case file(String)
    case memory([UInt8])

    /// The path for error messages; nil for memory.
    var path: String? {
        if case let .file(p) = self { return p }
        return nil
    }

    /// The path, or "(memory)", for errors that need a path.
    var displayPath: String { path ?? "(memory)" }

    /// The whole file at `path`, or `.io` naming it.
    /// A regular file is read straight into the array (one copy, on huge pages when large:
    /// a 28 MB DNG through `Data` cost a second copy and 14 000 page faults); anything else
    /// (a pipe, a device) through Foundation.
    static func readFile(_ path: String) throws(DaguerreError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(operation: "read", path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else {
            do { return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }
            catch { throw .io(operation: "read", path: path, reason: error.localizedDescription) }
        }
        let size = Int(status.st_size)
        // Large files are read in parts on all cores: the kernel's copy and the first touch of
        // the pages (about 9 ms for a 28 MB DNG on one thread) split between them.
        let parts = size >= 8 << 20 ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
        // Per part: the bytes it read, and the errno that stopped it (0 for none).
        let done = UnsafeMutableBufferPointer<Int>.allocate(capacity: parts), failures = UnsafeMutableBufferPointer<Int32>.allocate(capacity: parts)
        defer { done.deallocate(); failures.deallocate() }
        done.initialize(repeating: 0); failures.initialize(repeating: 0)
        @Sendable func bounds(_ k: Int) -> (start: Int, end: Int) { (size * k / parts, size * (k + 1) / parts) }
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            HugePages.advise(base, count: size)
            let shared = UnsafeTransfer((base, done, failures))
            // Safety: each part writes only its own byte range of the buffer and its own slots.
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                let (base, done, failures) = shared.value
                let (start, end) = bounds(k)
                while start + done[k] < end {
                    let n = pread(fd, base + start + done[k], end - start - done[k], off_t(start + done[k]))
                    if n > 0 { done[k] += n; continue }
                    if n < 0, errno == EINTR { continue }
                    if n < 0 { failures[k] = errno }
                    return
                }
            }
            // A file that shrinks meanwhile gives the bytes up to its first short part; one that
            // grows, its first `size`.
            for k in 0..<parts {
                count += done[k]
                if done[k] < bounds(k).end - bounds(k).start { return }
            }
        }
        if let failure = failures.first(where: { $0 != 0 }) {
            throw .io(operation: "read", path: path, reason: String(cString: strerror(failure)))
        }
        return bytes
    }

    /// The first `count` bytes (fewer if the file is shorter).
    func prefix(_ count: Int) throws(DaguerreError) -> [UInt8] {
        switch self {
        case let .memory(bytes):
            return Array(bytes.prefix(count))
        case let .file(path):
            guard let f = fopen(path, "rb") else {
                throw .io(operation: "open", path: path, reason: String(cString: strerror(errno)))
            }
            defer { fclose(f) }
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, f) }
            if n < count, ferror(f) != 0 {
                throw .io(operation: "read", path: path, reason: String(cString: strerror(errno)))
            }
            return Array(buffer.prefix(n))
        }
    }
}
