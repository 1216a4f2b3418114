import DaguerreCore
import Synchronization

/// Transfer-curve lookup tables, built once per curve and shared by every render.
final class LUTCache: Sendable {
    static let shared = LUTCache()
    private let tables = Mutex<[String: [Float]]>([:])
    private let bytes = Mutex<[String: [UInt8]]>([:])

    private func key(_ t: TransferFunction, _ kind: String) -> String { "\(kind):\(t)" }

    func decode8(_ t: TransferFunction) -> [Float] { floats(key(t, "d8")) { TransferLUTs.decode8(t) } }
    func decode16(_ t: TransferFunction) -> [Float] { floats(key(t, "d16")) { TransferLUTs.decode16(t) } }
    func encodeHalfToFloat(_ t: TransferFunction) -> [Float] { floats(key(t, "ehf")) { TransferLUTs.encodeHalfToFloat(t) } }
    func decodeHalfToFloat(_ t: TransferFunction) -> [Float] { floats(key(t, "dhf")) { TransferLUTs.decodeHalfToFloat(t) } }
    func encodeHalfTo8(_ t: TransferFunction) -> [UInt8] {
        let k = key(t, "eh8")
        if let v = bytes.withLock({ $0[k] }) { return v }
        let v = TransferLUTs.encodeHalfTo8(t)
        bytes.withLock { $0[k] = v }
        return v
    }
    private func floats(_ k: String, _ make: () -> [Float]) -> [Float] {
        if let v = tables.withLock({ $0[k] }) { return v }
        let v = make()
        tables.withLock { $0[k] = v }
        return v
    }
}
