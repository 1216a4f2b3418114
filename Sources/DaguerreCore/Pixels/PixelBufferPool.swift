// Recycled pixel buffers (the CVPixelBufferPool analog, SPEC mapping): a video stage that makes
// one buffer per frame takes it from a pool, and the buffer's memory goes back to the pool when
// its last copy is gone. A fresh large buffer is mapped pages (``ZeroedBuffer``), and every one
// of its pages faults on first write and is unmapped on release: for a 640×480 preview movie
// that kernel work was an eighth of the CPU time.
import Synchronization

/// Makes pixel buffers of one size and format, reusing the memory of those released.
///
/// A buffer from ``makeBuffer()`` is an ordinary ``PixelBuffer`` (copy-on-write, `Sendable`);
/// when its last copy goes away, its memory returns to the pool, which keeps up to
/// ``maximumRetained`` released blocks for the next buffers. Unlike `PixelBuffer.init`, a
/// recycled buffer is not cleared: it holds the pixels last written into it, so use a pool
/// where every pixel is written (a decoder's or a render's output).
///
/// ```swift
/// let pool = try PixelBufferPool(width: 640, height: 480, format: .rgba8, colorSpace: .sRGB)
/// for _ in 0..<90 {
///     var frame = pool.makeBuffer()  // the memory of the frame before, once it is released
///     try context.render(image, to: &frame, bounds: nil, colorSpace: .sRGB)
/// }
/// ```
public final class PixelBufferPool: Sendable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let colorSpace: ColorSpace?
    public let alpha: PixelBuffer.AlphaMode
    /// How many released blocks the pool keeps; more are freed.
    public let maximumRetained: Int
    private let bytesPerRow: Int
    private let free = Mutex<[ZeroedBuffer]>([])

    /// A pool of `width` × `height` buffers; throws when the size is over `limits`.
    public init(
        width: Int, height: Int, format: PixelFormat, colorSpace: ColorSpace? = nil, alpha: PixelBuffer.AlphaMode = .premultiplied,
        maximumRetained: Int = 4, limits: Limits = .default
    ) throws(DaguerreError) {
        try limits.check(width: width, height: height, bytesPerPixel: format.bytesPerPixel, what: "Pixel buffer pool")
        self.width = width
        self.height = height
        self.format = format
        self.colorSpace = colorSpace
        self.alpha = alpha
        self.maximumRetained = max(0, maximumRetained)
        bytesPerRow = PixelBuffer.alignedRowBytes(width: width, format: format)
    }

    /// Whether this pool makes buffers of this size, format and colour space.
    public func matches(width: Int, height: Int, format: PixelFormat, colorSpace: ColorSpace?) -> Bool {
        width == self.width && height == self.height && format == self.format && colorSpace == self.colorSpace
    }

    /// Whether this pool makes buffers like `buffer` (size, format, colour space).
    public func matches(_ buffer: PixelBuffer) -> Bool {
        matches(width: buffer.width, height: buffer.height, format: buffer.format, colorSpace: buffer.colorSpace)
    }

    /// A buffer of the pool's size, format, colour space and alpha mode: a released block when
    /// there is one (its old pixels still in it), else a new zero-filled one.
    public func makeBuffer() -> PixelBuffer {
        let count = bytesPerRow * height
        let memory = free.withLock { $0.popLast() } ?? ZeroedBuffer(byteCount: count)
        return PixelBuffer(
            width: width, height: height, bytesPerRow: bytesPerRow, format: format, alpha: alpha, colorSpace: colorSpace,
            storage: PixelBuffer.Storage(memory: memory, count: count, pool: self))
    }

    /// Takes back the memory of a buffer whose last copy is gone.
    func recycle(_ memory: ZeroedBuffer) {
        free.withLock { blocks in
            if blocks.count < maximumRetained { blocks.append(memory) }
        }
    }
}
