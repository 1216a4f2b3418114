// Where a MovieWriter's bytes go: an AtomicFile on disk, or memory.
import DaguerreCore
import DaguerreFormats
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The byte sink of a ``MovieWriter``: appends, and overwrites earlier bytes once (the `mdat`
/// size, known only at the end).
///
/// Files go through ``AtomicFile`` (temporary file, then rename), so a recording that fails
/// or is cancelled leaves nothing at the destination (SPEC conventions; L6: the movie URL must
/// be writable, which creating the sink proves before any frame is encoded).
final class MovieSink {
    private let file: AtomicFile?
    private let stream: UnsafeMutablePointer<FILE>?
    private(set) var data: [UInt8] = []
    private(set) var position: UInt64 = 0
    var path: String? { file?.destination }

    /// A sink writing to `destination` through a temporary file.
    init(destination: String) throws(DaguerreError) {
        let f = try AtomicFile(destination: destination)
        file = f
        stream = try f.stream()
    }

    /// A sink collecting the bytes in memory.
    init() {
        file = nil
        stream = nil
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(DaguerreError) {
        guard bytes.count > 0 else { return }
        if let stream {
            guard fwrite(bytes.baseAddress, 1, bytes.count, stream) == bytes.count else {
                throw .io(operation: "write", path: file?.destination ?? "(movie)", reason: String(cString: strerror(errno)))
            }
        } else {
            data.append(contentsOf: bytes)
        }
        position &+= UInt64(bytes.count)
    }

    func write(_ bytes: [UInt8]) throws(DaguerreError) {
        try bytes.withTypedBytes { (raw) throws(DaguerreError) in try write(raw) }
    }

    /// Overwrites bytes already written at `offset`, then continues at the end.
    func overwrite(at offset: UInt64, with bytes: [UInt8]) throws(DaguerreError) {
        guard offset + UInt64(bytes.count) <= position else {
            throw .invalidArgument(what: "Movie patch at \(offset)", problem: "it passes the end of the data written so far")
        }
        if let stream {
            let ok =
                fseeko(stream, off_t(offset), SEEK_SET) == 0
                && bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, stream) } == bytes.count
                && fseeko(stream, 0, SEEK_END) == 0
            guard ok else {
                throw .io(operation: "write", path: file?.destination ?? "(movie)", reason: String(cString: strerror(errno)))
            }
        } else {
            let start = Int(offset)
            data.replaceSubrange(start..<(start + bytes.count), with: bytes)
        }
    }

    /// Flushes and renames the file into place (no-op in memory).
    func finish() throws(DaguerreError) { try file?.finish() }

    /// Removes the temporary file (no-op in memory).
    func abort() { file?.abort() }
}
