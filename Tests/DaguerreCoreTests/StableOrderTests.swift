import DaguerreCore
import PropertyBased
import Testing

/// The radix order the noise estimate sorts its blocks with (SPEC X3) gives exactly the
/// permutation of the standard library's stable comparison sort, so the estimate's bins, and
/// every develop from an estimated profile, keep their bits.
@Suite struct StableOrderTests {
    /// What the standard library's stable sort gives: indices ascending by key, ties in order.
    static func reference(_ keys: [Double]) -> [Int] { Array(keys.indices).sorted { keys[$0] < keys[$1] } }

    /// Keys with many ties, both zeros, negatives, and values spanning scales (as block levels).
    static func keys(_ draws: [Int]) -> [Double] {
        draws.dropFirst(draws.first.map { $0 & 63 } ?? 0).map { d in
            switch d & 7 {
            case 0: -0.0
            case 1: 0.0
            case 2: Double(d >> 3) * 0.125 - 8
            case 3: Double(d >> 3) * 1e-300
            default: Double(d) * 1e-7
            }
        }
    }

    @Test("2 000 random key sets (ties, ±0, negatives, tiny and huge scales): the same permutation as the stable comparison sort")
    func matchesStableSort() async {
        await propertyCheck(count: 2_000, input: Gen.int(in: 0...1023).array(of: 300)) { draws in
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
        #expect(StableOrder.ascending([1, .nan, 0]) == nil)
        #expect(StableOrder.ascending([-.infinity, .infinity, -1, .greatestFiniteMagnitude]) == [0, 2, 3, 1])
    }
}
