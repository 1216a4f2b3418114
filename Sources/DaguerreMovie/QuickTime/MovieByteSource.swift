// The bytes of a movie being read: a file read with pread, or an array in memory.
import DaguerreCore
import DaguerreFormats
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random-access reads from a movie file or buffer, every range checked against the size.
///
/// Files are read with `pread` on one descriptor, which is safe from several threads at once,
/// so a ``MovieReader`` can be shared (it is Sendable). A read past the end is `.truncated`:
/// a movie whose `moov` promises samples beyond the file was cut short.
final class MovieByteSource: Sendable {
    private let descriptor: Int32
    private let memory: [UInt8]
    let size: Int
    let path: String?

    init(path: String) throws(DaguerreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(operation: "open", path: path, reason: String(cString: strerror(errno))) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .io(operation: "read", path: path, reason: "not a regular file")
        }
        descriptor = fd
        memory = []
        size = Int(st.st_size)
        self.path = path
    }

    init(bytes: [UInt8]) {
        descriptor = -1
        memory = bytes
        size = bytes.count
        path = nil
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// `count` bytes at `offset`; `.truncated` when the range passes the end.
    func read(at offset: UInt64, count: Int) throws(DaguerreError) -> [UInt8] {
        guard count >= 0, offset <= UInt64(size), UInt64(count) <= UInt64(size) - offset else {
            throw .truncated(format: "QuickTime", path: path)
        }
        if count == 0 { return [] }
        let start = Int(offset)
        if descriptor < 0 { return Array(memory[start..<(start + count)]) }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(start + done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { throw .truncated(format: "QuickTime", path: path) }
                throw .io(operation: "read", path: path ?? "(memory)", reason: String(cString: strerror(errno)))
            }
            done += n
        }
        return out
    }
}
