// Large zero-filled buffers straight from the kernel (SPEC X7: develop and draft re-render
// speed).
// A fresh anonymous mapping is already zero, page by page, when it is first touched; allocating
// with malloc and then writing zeros touches every page twice (the fault, then the memset) and
// does it all on the allocating thread. A render's output and intermediate buffers (55 MB for a
// 2048-pixel draft) were a tenth of a re-render, and a develop's first 37 MB chunk a serial
// 25 ms before its workers started. Our own code: a few lines over mmap(2).
#if canImport(Glibc)
    import Glibc
#endif

/// Zero-filled memory for large buffers, mapped rather than allocated and cleared.
///
/// The pages are zeroed by the kernel when first written, on whichever thread writes them (the
/// render's workers, in parallel), and the mapping is advised for huge pages. Below
/// ``threshold``, or where mapping fails, ``allocate(byteCount:)`` returns nil and the caller
/// allocates and clears as usual.
///
/// ```swift
/// if let p = ZeroedPages.allocate(byteCount: 64 << 20) {
///     defer { ZeroedPages.deallocate(p, byteCount: 64 << 20) }
///     // p[0..<64 MiB] reads as zero
/// }
/// ```
public enum ZeroedPages {
    /// The smallest buffer worth its own mapping (malloc's own threshold is 128 KiB to 32 MiB).
    public static let threshold = 1 << 20

    /// A page-aligned, zero-filled block of `byteCount` bytes, or nil.
    public static func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
            guard byteCount >= threshold,
                let p = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                p != MAP_FAILED
            else { return nil }
            HugePages.advise(p, byteCount: byteCount)
            return p
        #else
            return nil
        #endif
    }

    /// Returns a block from ``allocate(byteCount:)`` (with the same size).
    public static func deallocate(_ p: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
            _ = munmap(p, byteCount)
        #endif
    }
}

/// An owned, zero-filled block of bytes: mapped pages when it is large (``ZeroedPages``),
/// else allocated and cleared.
///
/// ```swift
/// let chunk = ZeroedBuffer(byteCount: 37 << 20)
/// chunk.pointer.storeBytes(of: 1 as Float, as: Float.self)
/// ```
public final class ZeroedBuffer: @unchecked Sendable {
    // Safety: the memory is owned here; writers coordinate through their own types (a
    // `PixelBuffer` copies before writing when shared, a develop chunk has one owner at a time).
    public let pointer: UnsafeMutableRawPointer
    public let byteCount: Int
    private let mapped: Bool

    /// At least one byte; aligned to 64 bytes (a page when mapped).
    public init(byteCount: Int) {
        self.byteCount = max(byteCount, 1)
        if let p = ZeroedPages.allocate(byteCount: self.byteCount) {
            pointer = p
            mapped = true
        } else {
            pointer = UnsafeMutableRawPointer.allocate(byteCount: self.byteCount, alignment: 64)
            pointer.initializeMemory(as: UInt8.self, repeating: 0, count: self.byteCount)
            mapped = false
        }
    }

    deinit { if mapped { ZeroedPages.deallocate(pointer, byteCount: byteCount) } else { pointer.deallocate() } }
}
