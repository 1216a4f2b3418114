import DaguerreCore
import Synchronization

/// Transfer-curve lookup tables, built once per curve and shared by every render.
///
/// Keyed by the curve itself (`TransferFunction` is Hashable), so a lookup hashes a few
/// parameters, or a table curve's samples, rather than formatting them into a string.
final class LUTCache: Sendable {
    static let shared = LUTCache()

    private enum Kind: Hashable { case decode8, decode16, encodeHalfToFloat, decodeHalfToFloat, encodeHalfTo8, encodeHalfTo16 }
    private struct Key: Hashable {
        let curve: TransferFunction
        let kind: Kind
    }
    /// One of the three is filled. A struct, not an enum with two array payloads: Swift tags such
    /// an enum's case in the pointer's spare bits, and LeakSanitizer then reports the cached
    /// tables as leaked (fuzz runs stop on it).
    private struct Table: Sendable { var floats: [Float] = [], bytes: [UInt8] = [], words: [UInt16] = [] }
    private let tables = Mutex<[Key: Table]>([:])

    func decode8(_ t: TransferFunction) -> [Float] { floats(t, .decode8) { TransferLUTs.decode8(t) } }
    func decode16(_ t: TransferFunction) -> [Float] { floats(t, .decode16) { TransferLUTs.decode16(t) } }
    func encodeHalfToFloat(_ t: TransferFunction) -> [Float] { floats(t, .encodeHalfToFloat) { TransferLUTs.encodeHalfToFloat(t) } }
    func decodeHalfToFloat(_ t: TransferFunction) -> [Float] { floats(t, .decodeHalfToFloat) { TransferLUTs.decodeHalfToFloat(t) } }
    func encodeHalfTo8(_ t: TransferFunction) -> [UInt8] {
        table(Key(curve: t, kind: .encodeHalfTo8)) { Table(bytes: TransferLUTs.encodeHalfTo8(t)) }.bytes
    }

    /// Half-float bit pattern → 16-bit code: ``encodeHalfToFloat(_:)``'s value quantized by
    /// ``PixelPack`` itself (an RGBA16 pack of every entry), so one lookup gives the bits of the
    /// curve lookup followed by the pack, whatever the pack's rounding and clamping rules are.
    func encodeHalfTo16(_ t: TransferFunction) -> [UInt16] {
        table(Key(curve: t, kind: .encodeHalfTo16)) {
            let curve = encodeHalfToFloat(t)
            let pixels = curve.map { SIMD4<Float>($0, 0, 0, 0) }
            var packed = [UInt16](repeating: 0, count: 4 * pixels.count)
            pixels.withUnsafeBufferPointer { src in
                packed.withUnsafeMutableBytes { PixelPack.pack(src.baseAddress!, count: src.count, format: .rgba16, into: $0.baseAddress!) }
            }
            return Table(words: stride(from: 0, to: packed.count, by: 4).map { packed[$0] })
        }.words
    }

    private func floats(_ t: TransferFunction, _ kind: Kind, _ make: () -> [Float]) -> [Float] {
        table(Key(curve: t, kind: kind)) { Table(floats: make()) }.floats
    }

    private func table(_ key: Key, _ make: () -> Table) -> Table {
        if let v = tables.withLock({ $0[key] }) { return v }
        let v = make()
        tables.withLock { $0[key] = v }
        return v
    }
}
