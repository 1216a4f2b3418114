// Transparent huge pages for the develop's large buffers (SPEC X7: develop speed), on
// request. A 24 MP develop touches about 190 MB of fresh memory (the file, the mosaic, the
// chunk and window buffers, the workspaces). Linux serves 2 MiB pages to ranges marked
// MADV_HUGEPAGE (its default THP mode is "madvise"), which cuts the page faults by 512, and on
// a machine of its own that is cheaper. But on virtual machines that hand free memory back to
// the host (virtio-balloon free page reporting, as on this project's Firecracker machines), a
// huge page is taken from exactly the large free blocks the host has reclaimed: each fault
// then waits for the host to supply and clear 2 MiB. Measured there, whole 24 MP develops after
// another program ran: median 0.49 s with the advice and 0.45 s without, worst 0.67 against
// 0.54 s (Benchmarks/README.md). So the advice is off unless DAGUERRE_HUGE_PAGES=1.
// Our own code: a few lines over madvise(2).
#if canImport(Glibc)
    import Glibc
#endif

/// Asks the kernel to back a large buffer with 2 MiB pages, when huge pages are wanted
/// (``enabled``: the environment variable `DAGUERRE_HUGE_PAGES=1`).
///
/// Call it right after allocating, before the first write: pages already touched stay small.
/// Only the buffer's 2 MiB-aligned interior is advised, so memory outside the buffer is never
/// affected; buffers under ``threshold`` are left alone. Advice only: on kernels or systems
/// without transparent huge pages it does nothing, and the pixels never depend on it.
///
/// ```swift
/// let p = UnsafeMutablePointer<Float>.allocate(capacity: 16 << 20)
/// HugePages.advise(p, count: 16 << 20)
/// ```
public enum HugePages {
    /// The smallest buffer worth advising (smaller ones rarely hold a whole aligned huge page).
    public static let threshold = 4 << 20
    static let size = 2 << 20
    /// Whether ``advise(_:byteCount:)`` advises at all: `DAGUERRE_HUGE_PAGES=1` in the
    /// environment (read once). Off by default; see the file's header for why.
    public static let enabled: Bool = {
        #if canImport(Glibc)
            guard let value = getenv("DAGUERRE_HUGE_PAGES") else { return false }
            return String(cString: value) == "1"
        #else
            return false
        #endif
    }()

    /// Advises the 2 MiB-aligned pages inside `byteCount` bytes at `start`.
    public static func advise(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
            guard byteCount >= threshold, enabled else { return }
            let base = Int(bitPattern: start)
            let first = (base + size - 1) & ~(size - 1)
            let end = (base + byteCount) & ~(size - 1)
            guard end > first, let p = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(p, end - first, MADV_HUGEPAGE)
        #endif
    }

    /// Advises a typed buffer of `count` elements.
    @inlinable public static func advise<T>(_ start: UnsafeMutablePointer<T>, count: Int) {
        advise(UnsafeMutableRawPointer(start), byteCount: count * MemoryLayout<T>.stride)
    }
}
