import DaguerreCore
import PropertyBased
import Testing

/// The radix order the noise estimate sorts its blocks with (SPEC X3) gives exactly the
/// permutation of the standard library's stable comparison sort, so the estimate's bins, and
/// every develop from an estimated profile, keep their bits.
@Suite struct StableOrderTests {
    /// What the standard library's stable sort gives: indices ascending by key, ties in order.
    static func reference(_ keys: [Double]) -> [Int] { Array(keys.indices).sorted { keys[$0] < keys[$1] } }

    /// 0 to 300 keys (the first draw picks how many) with many ties, both zeros, negatives,
    /// subnormals, huge values and infinities; with the first draw's bit 9 set, only small
    /// multiples of 1/8, whose keys share all but a few bits (so a single digit pass runs).
    static func keys(_ draws: [Int]) -> [Double] {
        let count = (draws.first ?? 0) % 301
        let kinds = (draws.first ?? 0) & 512 != 0 ? 1 : 9
        return draws.dropFirst().prefix(count).map { d in
            switch d % kinds {
            case 0: Double(d & 7) * 0.125 + 1
            case 1: -0.0
            case 2: 0.0
            case 3: Double(d >> 4) * 0.125 - 8
            case 4: Double(d >> 4) * .leastNonzeroMagnitude
            case 5: Double((d >> 4) - 32) * 1e300
            case 6: d & 16 == 0 ? .infinity : -.infinity
            default: Double(d) * 1e-7
            }
        }
    }

    @Test(
        "2 000 random key sets (ties, ±0, negatives, subnormals, huge values, infinities): the same permutation as the stable comparison sort"
    )
    func matchesStableSort() async {
        await propertyCheck(count: 2_000, input: Gen.int(in: 0...1023).array(of: 301)) { draws in
            let keys = Self.keys(draws)
            #expect(StableOrder.ascending(keys) == Self.reference(keys))
        }
    }

    @Test("60 000 keys with a few hundred distinct values: the same permutation (every digit pass runs)")
    func matchesStableSortOnLargeInput() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let keys = (0..<60_000).map { _ -> Double in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let d = Int(truncatingIfNeeded: state >> 33) % 700
            return d % 5 == 0 ? -Double(d) * 1e9 : Double(d) / 3
        }
        #expect(StableOrder.ascending(keys) == Self.reference(keys))
    }

    @Test("Edge cases: empty, one key, all equal, and NaN (not ordered by <: nil)")
    func edgeCases() {
        #expect(StableOrder.ascending([]) == [])
        #expect(StableOrder.ascending([2]) == [0])
        #expect(StableOrder.ascending([0.0, -0.0, 0.0]) == [0, 1, 2])
        #expect(StableOrder.ascending([0.3, -0.0, 0.1, 0.0, 0.1]) == [1, 3, 2, 4, 0])
        // Keys that differ in one digit only: one pass, whose result is copied back.
        #expect(StableOrder.ascending([1.5, 1.0, 1.5, 1.0]) == [1, 3, 0, 2])
        #expect(StableOrder.ascending([1, .nan, 0]) == nil)
        #expect(StableOrder.ascending([-.infinity, .infinity, -1, .greatestFiniteMagnitude]) == [0, 2, 3, 1])
    }
}
