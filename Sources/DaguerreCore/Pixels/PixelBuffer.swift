/// An owned, 64-byte-aligned block of interleaved pixels: the CVPixelBuffer analog (SPEC mapping).
///
/// A value type with copy-on-write storage, so it is `Sendable` and can be handed between
/// threads. Pixels in RGBA formats are premultiplied by alpha unless ``alpha`` says otherwise
/// (file readers produce straight alpha; the engine premultiplies on read).
///
/// ```swift
/// var buf = try PixelBuffer(width: 64, height: 64, format: .rgbaf)
/// buf.withUnsafeMutableBytes { raw in raw.storeBytes(of: 1.0 as Float, as: Float.self) }
/// ```
public struct PixelBuffer: Sendable {
    public enum AlphaMode: Sendable, Hashable { case premultiplied, straight }

    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let format: PixelFormat
    public var alpha: AlphaMode
    public var colorSpace: ColorSpace?
    private var storage: Storage

    final class Storage: @unchecked Sendable {
        // Safety: the pointer is owned by this object and only written through
        // `PixelBuffer.withUnsafeMutableBytes`, which copies first unless uniquely referenced.
        /// Large buffers are mapped zero pages (``ZeroedBuffer``): renders write every byte, and
        /// clearing them first cost a serial pass over all of them.
        private let memory: ZeroedBuffer
        /// The pixels' bytes (the memory holds at least one).
        let count: Int
        /// Where the memory goes back to when the last buffer using it is gone.
        private let pool: PixelBufferPool?
        var pointer: UnsafeMutableRawPointer { memory.pointer }
        init(count: Int) {
            self.count = count
            memory = ZeroedBuffer(byteCount: count)
            pool = nil
        }
        init(memory: ZeroedBuffer, count: Int, pool: PixelBufferPool) {
            self.memory = memory
            self.count = count
            self.pool = pool
        }
        deinit { pool?.recycle(memory) }
    }

    /// A buffer over `storage` (a pool's), with the geometry the pool made it for.
    init(
        width: Int, height: Int, bytesPerRow: Int, format: PixelFormat, alpha: AlphaMode, colorSpace: ColorSpace?, storage: Storage
    ) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
        self.alpha = alpha
        self.colorSpace = colorSpace
        self.storage = storage
    }

    /// A zero-filled buffer. Throws when the size is over `limits` (checked before allocating).
    public init(
        width: Int, height: Int, format: PixelFormat, colorSpace: ColorSpace? = nil,
        alpha: AlphaMode = .premultiplied, limits: Limits = .default
    ) throws(DaguerreError) {
        try limits.check(width: width, height: height, bytesPerPixel: format.bytesPerPixel, what: "Pixel buffer")
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = Self.alignedRowBytes(width: width, format: format)
        self.alpha = alpha
        self.colorSpace = colorSpace
        storage = Storage(count: bytesPerRow * height)
    }

    public var byteCount: Int { bytesPerRow * height }

    /// The row stride of a buffer made here: whole 64-byte lines.
    static func alignedRowBytes(width: Int, format: PixelFormat) -> Int { (width * format.bytesPerPixel + 63) & ~63 }

    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage.pointer, count: storage.count))
    }
    public mutating func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        if !isKnownUniquelyReferenced(&storage) {
            let copy = Storage(count: storage.count)
            copy.pointer.copyMemory(from: storage.pointer, byteCount: storage.count)
            storage = copy
        }
        return try body(UnsafeMutableRawBufferPointer(start: storage.pointer, count: storage.count))
    }
    /// The address of row `y` (read-only).
    public func rowAddress(_ y: Int) -> UnsafeRawPointer { UnsafeRawPointer(storage.pointer + y * bytesPerRow) }
}
