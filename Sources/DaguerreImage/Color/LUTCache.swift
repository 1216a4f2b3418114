import DaguerreCore
import Synchronization

/// Transfer-curve lookup tables, built once per curve and shared by every render.
///
/// Keyed by the curve itself (`TransferFunction` is Hashable), so a lookup hashes a few
/// parameters, or a table curve's samples, rather than formatting them into a string.
final class LUTCache: Sendable {
    static let shared = LUTCache()

    private enum Kind: Hashable { case decode8, decode16, encodeHalfToFloat, decodeHalfToFloat, encodeHalfTo8 }
    private struct Key: Hashable { let curve: TransferFunction; let kind: Kind }
    private enum Table: Sendable { case floats([Float]), bytes([UInt8]) }
    private let tables = Mutex<[Key: Table]>([:])

    func decode8(_ t: TransferFunction) -> [Float] { floats(t, .decode8) { TransferLUTs.decode8(t) } }
    func decode16(_ t: TransferFunction) -> [Float] { floats(t, .decode16) { TransferLUTs.decode16(t) } }
    func encodeHalfToFloat(_ t: TransferFunction) -> [Float] { floats(t, .encodeHalfToFloat) { TransferLUTs.encodeHalfToFloat(t) } }
    func decodeHalfToFloat(_ t: TransferFunction) -> [Float] { floats(t, .decodeHalfToFloat) { TransferLUTs.decodeHalfToFloat(t) } }
    func encodeHalfTo8(_ t: TransferFunction) -> [UInt8] {
        if case let .bytes(v) = table(Key(curve: t, kind: .encodeHalfTo8), { .bytes(TransferLUTs.encodeHalfTo8(t)) }) { return v }
        return TransferLUTs.encodeHalfTo8(t)
    }

    private func floats(_ t: TransferFunction, _ kind: Kind, _ make: () -> [Float]) -> [Float] {
        if case let .floats(v) = table(Key(curve: t, kind: kind), { .floats(make()) }) { return v }
        return make()
    }

    private func table(_ key: Key, _ make: () -> Table) -> Table {
        if let v = tables.withLock({ $0[key] }) { return v }
        let v = make()
        tables.withLock { $0[key] = v }
        return v
    }
}
