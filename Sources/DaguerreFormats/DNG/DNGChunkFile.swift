// A DNG file kept open so its raw chunks can be read when a develop reaches them (SPEC X6): the
// reader loads the file without the main image's chunk data, which a 24 MP DNG's 28 MB mostly
// are, and each tile's bytes are read on their own, on the decoding thread. POSIX pread.
import DaguerreCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open regular file that chunks are read from with `pread` (safe from many threads at once).
///
/// ```swift
/// let file = try DNGChunkFile(path: "IMG_0001.dng")
/// var head = [UInt8](repeating: 0, count: 8)
/// try head.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }
/// ```
package final class DNGChunkFile: Sendable {
    let descriptor: Int32
    package let path: String
    /// The file's size when it was opened.
    package let size: Int

    /// Opens `path`; nil when it is not a regular file (a pipe or a device is read whole instead).
    package init?(path: String) throws(DaguerreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(operation: "open", path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        descriptor = fd; self.path = path; size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Fills `buffer` with the bytes at `offset`; a file that ends first (truncated since it was
    /// opened) is `.truncated`, a failing read `.io`.
    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(DaguerreError) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if n > 0 { done += n; continue }
            if n < 0, errno == EINTR { continue }
            if n == 0 { throw .truncated(format: "DNG", path: path) }
            throw .io(operation: "read", path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// The whole file except `skipped` (whose bytes are left unset), as one buffer the size of
    /// the file: the structure parses as from a whole read, and the skipped pages are never
    /// touched, so they cost neither a read nor memory.
    package func readAll(skipping skipped: Range<Int>) throws(DaguerreError) -> [UInt8] {
        try read(first: size, skipping: skipped)
    }

    /// The file's first `count` bytes (at most its size).
    package func prefix(_ count: Int) throws(DaguerreError) -> [UInt8] {
        let n = min(count, size)
        return try read(first: n, skipping: n..<n)
    }

    /// The first `size` bytes of the file, except `skipped`.
    private func read(first size: Int, skipping skipped: Range<Int>) throws(DaguerreError) -> [UInt8] {
        let gap = skipped.clamped(to: 0..<size)
        var failure: DaguerreError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            do throws(DaguerreError) {
                let raw = UnsafeMutableRawBufferPointer(buffer)
                try read(at: 0, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<gap.lowerBound]))
                try read(at: gap.upperBound, into: UnsafeMutableRawBufferPointer(rebasing: raw[gap.upperBound..<size]))
                count = size
            } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }
}
