import Crypto
import Foundation

/// A stable 64-bit digest of a recipe node: its kind, parameters and inputs (K1).
///
/// Digests key the intermediate cache and are printed by the print tree, so they must be the
/// same on every run and machine; Swift's `Hasher` is seeded per process, so SHA-256 (from
/// swift-crypto) is used and truncated to 64 bits.
///
/// ```swift
/// var d = DigestBuilder("GaussianBlur"); d.add(2.0); d.add(input.digest)
/// let key = d.finish()
/// ```
public struct Digest: Sendable, Hashable, CustomStringConvertible {
    public let value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public var description: String { "0x" + String(value, radix: 16, uppercase: false) }
}

/// Accumulates the bytes of a digest.
public struct DigestBuilder {
    private var hasher = SHA256()

    public init(_ kind: String) { add(kind) }

    public mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        add(UInt64(s.utf8.count))
    }
    public mutating func add(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { hasher.update(bufferPointer: $0) } }
    public mutating func add(_ v: Int) { add(UInt64(bitPattern: Int64(v))) }
    public mutating func add(_ v: Double) { add(v.bitPattern) }
    public mutating func add(_ v: Float) { add(Double(v)) }
    public mutating func add(_ v: Bool) { add(v ? 1 : 0 as UInt64) }
    public mutating func add(_ d: Digest) { add(d.value) }
    public mutating func add(_ values: [Double]) {
        add(values.count)
        for v in values { add(v) }
    }
    public mutating func add(bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }

    public func finish() -> Digest {
        let bytes = Array(hasher.finalize())
        var v: UInt64 = 0
        for i in 0..<8 { v = (v << 8) | UInt64(bytes[i]) }
        return Digest(v)
    }
}

extension DigestBuilder {
    /// A colour space by everything that changes its pixels: its name, matrix, curve (its
    /// parameters, or a table's samples) and, for LUT-based profiles, the profile's bytes. Two
    /// spaces that share a name but not a curve must not share cached results.
    public mutating func add(_ space: ColorSpace) {
        add(space.name)
        switch space.model {
        case .rgb(let m, let t):
            add(1)
            add(m.m)
            add(t)
        case .gray(let t):
            add(2)
            add(t)
        case .icc(let profile):
            add(3)
            profile.data.withUnsafeBytes { add(bytes: $0) }
        }
    }

    /// A transfer curve: its parametric form, or its sampled table.
    public mutating func add(_ t: TransferFunction) {
        if let p = t.parametricParameters { add(p) } else if case .table(let table) = t { add(table.forward.map(Double.init)) }
    }
}
