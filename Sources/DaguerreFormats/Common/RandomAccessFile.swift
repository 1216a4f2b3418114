// An open regular file read with POSIX pread, safe from many threads at once (no library does
// less): every whole-file read of a decoder (``ImageSource/readFile(_:)``, in parts on all
// cores), and a DNG kept open so its raw chunks are read as a develop decodes them (SPEC X6).
import DaguerreCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open regular file, read at any offset from any thread.
///
/// ```swift
/// if let file = try RandomAccessFile(path: "IMG_0001.dng") {
///     let head = try file.prefix(8)              // "II*\0" and IFD0's offset
///     let rest = try file.readAll(skipping: 3956..<28_427_382)   // all but the tiles
/// }
/// ```
package final class RandomAccessFile: Sendable {
    let descriptor: Int32
    package let path: String
    /// The file's size when it was opened.
    package let size: Int

    /// Opens `path`; nil when it is not a regular file (a pipe or a device), which a caller
    /// reads another way. A file that cannot be opened is `.io` naming it.
    package init?(path: String) throws(DaguerreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(operation: "read", path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        descriptor = fd
        self.path = path
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Reads the bytes at `offset` into `buffer`; returns how many, fewer than the buffer only
    /// where the file ends (it may have shrunk since it was opened). A failing read is `.io`.
    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(DaguerreError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if n > 0 {
                done += n
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n == 0 { break }
            throw .io(operation: "read", path: path, reason: String(cString: strerror(errno)))
        }
        return done
    }

    /// Fills `buffer` with the bytes at `offset`; a file that ends first is `.truncated`, named
    /// as a `format` file.
    package func readFully(at offset: Int, into buffer: UnsafeMutableRawBufferPointer, format: String = "file") throws(DaguerreError) {
        guard try read(at: offset, into: buffer) == buffer.count else { throw .truncated(format: format, path: path) }
    }

    /// The whole file except `skipped` (whose bytes are left unset), as one buffer the size of
    /// the file: a structure parses as from a whole read, and the skipped pages are never
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
                try readFully(at: 0, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<gap.lowerBound]))
                try readFully(at: gap.upperBound, into: UnsafeMutableRawBufferPointer(rebasing: raw[gap.upperBound..<size]))
                count = size
            } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }
}
