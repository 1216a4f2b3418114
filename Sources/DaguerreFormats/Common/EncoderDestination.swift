// Where an encoder's bytes go: a file that appears only when complete (AtomicFile), or memory
// (MemoryDestination, POSIX open_memstream) for encoders whose result is handed on as bytes,
// such as a camera's JPEG photo.
import DaguerreCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output an encoder writes through a C stdio stream.
///
/// ```swift
/// let memory = try MemoryDestination()
/// let jpeg = try JPEGEncoder(destination: memory, options: options)
/// try jpeg.writeRows(pixels, bytesPerRow: rowBytes, count: height)
/// try jpeg.finish()
/// let bytes = memory.bytes
/// ```
public protocol EncoderDestination: AnyObject {
    /// A name for messages: the file's path, or what the memory is for.
    var destination: String { get }
    /// The stream the C encoder writes into.
    func stream() throws(DaguerreError) -> UnsafeMutablePointer<FILE>
    /// Completes the output (the file is renamed into place; the memory is kept).
    func finish() throws(DaguerreError)
    /// Abandons the output.
    func abort()
    /// What the file system said when a write failed (e.g. "No space left on device"), if it
    /// did: encoders add it to their own messages, which name only the step that failed.
    var failureCause: String? { get }
}

extension EncoderDestination {
    public var failureCause: String? { nil }
}

extension AtomicFile: EncoderDestination {}

/// Encoded bytes kept in memory; ``bytes`` holds them once ``finish()`` has succeeded.
public final class MemoryDestination: EncoderDestination {
    public let destination: String
    private var pointer: UnsafeMutablePointer<CChar>?
    private var size = 0
    private var file: UnsafeMutablePointer<FILE>?
    /// The encoded bytes, after ``finish()``.
    public private(set) var bytes: [UInt8] = []

    public init(describing destination: String = "memory") throws(DaguerreError) {
        self.destination = destination
        guard let f = open_memstream(&pointer, &size) else {
            throw .io(operation: "open a memory stream for", path: destination, reason: String(cString: strerror(errno)))
        }
        file = f
    }

    deinit { abort() }

    public func stream() throws(DaguerreError) -> UnsafeMutablePointer<FILE> {
        guard let file else { throw .io(operation: "write", path: destination, reason: "the memory stream is closed") }
        return file
    }

    public func finish() throws(DaguerreError) {
        guard let f = file else { return }
        file = nil
        let failed = fflush(f) != 0 || ferror(f) != 0
        fclose(f)
        defer {
            free(pointer)
            pointer = nil
        }
        if failed { throw .io(operation: "write", path: destination, reason: String(cString: strerror(errno))) }
        if let p = pointer {
            bytes = p.withMemoryRebound(to: UInt8.self, capacity: size) { Array(UnsafeBufferPointer(start: $0, count: size)) }
        }
    }

    public func abort() {
        if let f = file { fclose(f) }
        file = nil
        free(pointer)
        pointer = nil
    }
}
