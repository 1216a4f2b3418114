import Dispatch

/// Lookup tables that make transfer curves cheap in pixel loops (I2: "fast analytic paths").
///
/// Decoding 8- and 16-bit data is a table index. Encoding linear values indexes a table by the
/// value's Float16 bit pattern: 65 536 entries cover every half value, negative and extended
/// ones included, and F16C makes the conversion one instruction. Encoding through half is exact
/// to 8 bits (an 8-bit value survives linearisation to half and back: tested).
///
/// ```swift
/// let dec = TransferLUTs.decode8(.sRGB)       // 256 Floats
/// let enc = TransferLUTs.encodeHalfTo8(.sRGB) // UInt8 per Float16 bit pattern
/// ```
public enum TransferLUTs {
    /// The 65 536 entries of a half-indexed table, `entry(bits)` each, computed in 16 blocks on
    /// all cores: each entry is a `pow` or two, and a render builds its output table before its
    /// first row, when the other core has nothing else to do (3 ms serial at 24 MP). Every entry
    /// is the same function of its index, so the table is the same whichever block runs where.
    static func halfTable<T: Sendable>(_ entry: @Sendable (Int) -> T) -> [T] {
        let count = 65536
        let blocks = 16
        let size = count / blocks
        return [T](unsafeUninitializedCapacity: count) { buffer, n in
            let out = UnsafeTransfer(buffer.baseAddress!)
            WorkerPool.forEach(blocks) { b in
                for bits in (b * size)..<((b + 1) * size) { (out.value + bits).initialize(to: entry(bits)) }
            }
            n = count
        }
    }

    public static func decode8(_ t: TransferFunction) -> [Float] {
        (0..<256).map { Float(t.decode(Double($0) / 255)) }
    }
    public static func decode16(_ t: TransferFunction) -> [Float] {
        (0..<65536).map { Float(t.decode(Double($0) / 65535)) }
    }
    /// Encoded value scaled to `scale` (255 or 65535), rounded and clamped, per half bit pattern.
    public static func encodeHalf<T: FixedWidthInteger & UnsignedInteger & Sendable>(_ t: TransferFunction, scale: Double, as: T.Type)
        -> [T]
    {
        halfTable { (bits: Int) -> T in
            let h = Float16(bitPattern: UInt16(bits))
            let v = Double(Float(h))
            if !v.isFinite { return v > 0 ? T(scale) : 0 }
            let e = t.encode(v) * scale
            return T(min(max(e.rounded(), 0), scale))
        }
    }
    public static func encodeHalfTo8(_ t: TransferFunction) -> [UInt8] { encodeHalf(t, scale: 255, as: UInt8.self) }
    /// Encoded floats per half bit pattern (unclamped: extended range survives).
    public static func encodeHalfToFloat(_ t: TransferFunction) -> [Float] {
        halfTable { (bits: Int) -> Float in
            let v = Double(Float(Float16(bitPattern: UInt16(bits))))
            return v.isFinite ? Float(t.encode(v)) : Float(v)
        }
    }
    public static func decodeHalfToFloat(_ t: TransferFunction) -> [Float] {
        halfTable { (bits: Int) -> Float in
            let v = Double(Float(Float16(bitPattern: UInt16(bits))))
            return v.isFinite ? Float(t.decode(v)) : Float(v)
        }
    }
}
