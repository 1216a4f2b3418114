// The order a stable sort by a Double key gives, found by radix sort instead of comparisons.
// The noise estimate sorts some 100 000 blocks by level and then each level's blocks by texture
// (SPEC X3): as comparison sorts of 24-byte records that took about 15 ms of CPU, 3 % of a
// 24 MP develop, on the threads the develop waits for. The Swift standard library and
// swift-collections sort by comparison only. Our own code: a least-significant-digit radix sort
// over the keys' order-preserving bit patterns.

/// The permutation that sorts Doubles in ascending order and keeps equal ones in their original
/// order: exactly what the standard library's stable `sorted(by: <)` gives.
///
/// Equal means equal under `<`: −0 and +0 tie. NaN is not ordered by `<`, so a key that is NaN
/// makes ``ascending(_:)`` return nil (the caller then sorts by comparison).
///
/// ```swift
/// let levels = [0.3, -0.0, 0.1, 0.0, 0.1]
/// StableOrder.ascending(levels)    // [1, 3, 2, 4, 0]
/// ```
public enum StableOrder {
    /// Indices of `keys` in ascending key order, equal keys in index order; nil when a key is NaN.
    public static func ascending(_ keys: [Double]) -> [Int]? {
        var entries: [Entry] = []
        entries.reserveCapacity(keys.count)
        for (i, k) in keys.enumerated() {
            guard !k.isNaN else { return nil }
            entries.append(Entry(key: orderedBits(k), index: i))
        }
        guard entries.count > 1 else { return entries.map(\.index) }
        var other = entries
        var counts = [Int](repeating: 0, count: radix)
        entries.withUnsafeMutableBufferPointer { a in
            other.withUnsafeMutableBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { count in
                    var source = a
                    var target = b
                    var shift: UInt64 = 0
                    while shift < 64 {
                        // Digit `shift`: a counting pass, then a stable scatter. A digit that every
                        // key shares (the high bits of keys of one sign and scale) moves nothing.
                        count.update(repeating: 0)
                        for e in source { count[Int(truncatingIfNeeded: (e.key &>> shift) & mask)] += 1 }
                        let first = Int(truncatingIfNeeded: (source[0].key &>> shift) & mask)
                        if count[first] != source.count {
                            var start = 0
                            for d in 0..<radix {
                                let n = count[d]
                                count[d] = start
                                start += n
                            }
                            for e in source {
                                let d = Int(truncatingIfNeeded: (e.key &>> shift) & mask)
                                target[count[d]] = e
                                count[d] += 1
                            }
                            swap(&source, &target)
                        }
                        shift += bits
                    }
                    if source.baseAddress != a.baseAddress { a.baseAddress!.update(from: source.baseAddress!, count: source.count) }
                }
            }
        }
        return entries.map(\.index)
    }

    private struct Entry {
        var key: UInt64
        var index: Int
    }

    /// Digits of 11 bits: six passes over 64-bit keys, 2 048 counters (in the L1 cache).
    private static let bits: UInt64 = 11
    private static let radix = 1 << 11
    private static let mask = UInt64(radix - 1)

    /// A bit pattern whose unsigned order is `<`'s order of the (non-NaN) Doubles: the sign bit
    /// set on positive values, every bit flipped on negative ones; −0 is taken as +0 (`<` ties them).
    @inline(__always) static func orderedBits(_ v: Double) -> UInt64 {
        let b = (v == 0 ? 0 : v).bitPattern
        return b >> 63 == 0 ? b | (1 << 63) : ~b
    }
}
