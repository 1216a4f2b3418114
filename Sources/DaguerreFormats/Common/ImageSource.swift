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
package enum ImageSource {
    case file(String)
    case memory([UInt8])

    /// The path for error messages; nil for memory.
    package var path: String? {
        if case .file(let p) = self { return p }
        return nil
    }

    /// The path, or "(memory)", for errors that need a path.
    package var displayPath: String { path ?? "(memory)" }

    /// The whole file at `path`, or `.io` naming it.
    /// A regular file is read straight into the array (one copy, on huge pages when large:
    /// a 28 MB DNG through `Data` cost a second copy and 14 000 page faults); anything else
    /// (a pipe, a device) through Foundation.
    package static func readFile(_ path: String) throws(DaguerreError) -> [UInt8] {
        guard let file = try RandomAccessFile(path: path), file.size > 0 else {
            do { return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) } catch {
                throw .io(operation: "read", path: path, reason: error.localizedDescription)
            }
        }
        let size = file.size
        // Large files are read in parts on all cores: the kernel's copy and the first touch of
        // the pages (about 9 ms for a 28 MB DNG on one thread) split between them.
        let parts = size >= 8 << 20 ? max(1, WorkerPool.processorCount) : 1
        @Sendable func bounds(_ k: Int) -> Range<Int> { (size * k / parts)..<(size * (k + 1) / parts) }
        // Per part: the bytes it read, or the error that stopped it.
        let done = TileResults<Int>(count: parts)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            HugePages.advise(base, count: size)
            let shared = UnsafeTransfer(base)
            // Safety: each part writes only its own byte range of the buffer.
            WorkerPool.forEach(parts) { k in
                let range = bounds(k)
                done.set(
                    k,
                    Result { () throws(DaguerreError) in
                        try file.read(
                            at: range.lowerBound,
                            into: UnsafeMutableRawBufferPointer(start: shared.value + range.lowerBound, count: range.count))
                    })
            }
            // A file that shrinks meanwhile gives the bytes up to its first short part; one that
            // grows, its first `size`.
            guard let read = try? done.collect() else { return }
            for k in 0..<parts {
                count += read[k]
                if read[k] < bounds(k).count { return }
            }
        }
        _ = try done.collect()
        return bytes
    }

    /// The first `count` bytes (fewer if the file is shorter).
    package func prefix(_ count: Int) throws(DaguerreError) -> [UInt8] {
        switch self {
        case .memory(let bytes):
            return Array(bytes.prefix(count))
        case .file(let path):
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
