import DaguerreCore
import Testing

/// The memory helpers behind the develop's and the renderer's large buffers (SPEC X7): however
/// they are allocated (a fresh mapping at 1 MiB and more, malloc below), they start zero-filled,
/// and a `PixelBuffer` stays a value (copy on write) whichever storage it has.
@Suite struct LargeBufferTests {
    /// How many of `count` bytes at `p` are not zero.
    static func nonZeroBytes(_ p: UnsafeRawPointer, _ count: Int) -> Int {
        var n = 0
        for i in 0..<count where p.load(fromByteOffset: i, as: UInt8.self) != 0 { n += 1 }
        return n
    }

    @Test(arguments: [1, 4096, ZeroedPages.threshold - 1, ZeroedPages.threshold, 5 << 20])
    func zeroedBufferStartsZeroAndIsWritable(byteCount: Int) {
        let buffer = ZeroedBuffer(byteCount: byteCount)
        #expect(buffer.byteCount == byteCount)
        #expect(Int(bitPattern: buffer.pointer) % 64 == 0, "64-byte aligned")
        #expect(Self.nonZeroBytes(buffer.pointer, byteCount) == 0)
        buffer.pointer.storeBytes(of: 0xAB, toByteOffset: byteCount - 1, as: UInt8.self)
        #expect(buffer.pointer.load(fromByteOffset: byteCount - 1, as: UInt8.self) == 0xAB)
    }

    @Test func zeroedPagesMapOnlyLargeBlocks() throws {
        #expect(ZeroedPages.allocate(byteCount: ZeroedPages.threshold - 1) == nil)
        let size = 3 << 20
        let p = try #require(ZeroedPages.allocate(byteCount: size))
        defer { ZeroedPages.deallocate(p, byteCount: size) }
        #expect(Int(bitPattern: p) % 4096 == 0, "page aligned")
        #expect(Self.nonZeroBytes(p, size) == 0)
    }

    @Test func largePixelBufferIsZeroAndCopiesOnWrite() throws {
        // 1024 × 512 RGBAf = 8 MiB: mapped storage.
        var a = try PixelBuffer(width: 1024, height: 512, format: .rgbaf)
        a.withUnsafeBytes { #expect(Self.nonZeroBytes($0.baseAddress!, $0.count) == 0) }
        let b = a
        a.withUnsafeMutableBytes { $0.storeBytes(of: 1.5 as Float, as: Float.self) }
        a.withUnsafeBytes { #expect($0.load(as: Float.self) == 1.5) }
        b.withUnsafeBytes { #expect($0.load(as: Float.self) == 0, "the copy keeps the old value") }
    }
}
