// A track's sample tables as read: stsz/stz2, stts, ctts, stss, stsc, stco/co64. Daguerre's own
// parser (the reader's box layer is hand-written; see MovieReader).
import DaguerreCore
import DaguerreFormats

/// The sample tables of one track, validated and indexed for random access.
///
/// Kept compact: durations and composition offsets stay as runs with prefix sums, sizes as the
/// `stsz` entries (or one fixed size), chunks as offsets with each chunk's first sample; a
/// lookup is a binary search. Everything allocated is proportional to entries physically
/// present in the movie atom, so a table that *claims* billions of samples cannot make the
/// reader allocate them (a fixed-size table's count is also checked against
/// ``MovieReader/Options/maxSamplesPerTrack``).
///
/// Checks (ISO 14496-12 §8.6–8.7): entry counts fit their boxes; `stsc` first chunks start at
/// 1 and increase and samples-per-chunk are positive; the chunks hold at least the `stsz`
/// count; `stts` covers every sample; sync sample numbers are in range. Violations are
/// `.corruptData`, never traps.
///
/// ```swift
/// let table = try MovieReader(path: "IMG_0001.mov").tracks[0].sampleTable
/// table.sample(at: 3)?.offset
/// ```
public struct SampleTable: Sendable, Hashable {
    public let sampleCount: Int
    let fixedSize: Int?
    let sizes: [UInt32]
    /// Per-sample offsets when sizes vary (empty otherwise).
    let offsets: [UInt64]
    let chunkOffsets: [UInt64]
    /// First sample (0-based) of each chunk, plus the total at the end.
    let chunkFirstSample: [Int]
    // stts: run i covers samples sttsFirst[i]..<sttsFirst[i+1], starting at sttsTime[i].
    let sttsFirst: [Int]
    let sttsTime: [Int64]
    let sttsDelta: [Int64]
    let cttsFirst: [Int]
    let cttsOffset: [Int64]
    /// 0-based sync samples, sorted; nil when every sample is sync.
    let syncSamples: [Int]?
    /// Sum of all durations.
    public let totalDuration: Int64

    static let empty = SampleTable()

    private init() {
        sampleCount = 0
        fixedSize = nil
        sizes = []
        offsets = []
        chunkOffsets = []
        chunkFirstSample = [0]
        sttsFirst = [0]
        sttsTime = [0]
        sttsDelta = []
        cttsFirst = [0]
        cttsOffset = []
        syncSamples = nil
        totalDuration = 0
    }

    /// Parses the sample tables among the children of an `stbl` atom.
    init(children: [BoxHeader], in bytes: [UInt8], maxSamples: Int) throws(DaguerreError) {
        func find(_ t: FourCC) -> BoxHeader? { children.first { $0.type == t } }
        func corrupt(_ s: String) -> DaguerreError { .corruptData(format: "QuickTime", detail: s, path: nil) }

        // Sizes.
        var count = 0
        var fixed: Int?
        var sizes: [UInt32] = []
        if let stsz = find("stsz") {
            var r = ByteReader(bytes, range: stsz.bodyStart..<stsz.end, context: "stsz")
            try r.skip(4)
            let size = try r.u32()
            let n = Int(try r.u32())
            if size == 0 {
                guard n <= r.remaining / 4 else { throw corrupt("'stsz' lists \(n) sizes in \(r.remaining) bytes") }
                sizes.reserveCapacity(n)
                for _ in 0..<n { sizes.append(try r.u32()) }
            } else {
                fixed = Int(size)
            }
            count = n
        } else if let stz2 = find("stz2") {
            var r = ByteReader(bytes, range: stz2.bodyStart..<stz2.end, context: "stz2")
            try r.skip(7)
            let field = Int(try r.u8())
            let n = Int(try r.u32())
            guard [4, 8, 16].contains(field) else { throw corrupt("'stz2' field size \(field) is not 4, 8 or 16") }
            guard n <= r.remaining * 8 / field else { throw corrupt("'stz2' lists \(n) sizes in \(r.remaining) bytes") }
            sizes.reserveCapacity(n)
            var i = 0
            while i < n {
                switch field {
                case 4:
                    let b = try r.u8()
                    sizes.append(UInt32(b >> 4))
                    i += 1
                    if i < n {
                        sizes.append(UInt32(b & 0xF))
                        i += 1
                    }
                case 8:
                    sizes.append(UInt32(try r.u8()))
                    i += 1
                default:
                    sizes.append(UInt32(try r.u16()))
                    i += 1
                }
            }
            count = n
        }
        guard count <= maxSamples else { throw .tooLarge(what: "Samples in one track", value: count, limit: maxSamples) }
        if count == 0 {
            self = .empty
            return
        }

        // Chunk offsets.
        var chunkOffsets: [UInt64] = []
        if let stco = find("stco") ?? find("co64") {
            let wide = stco.type == "co64"
            var r = ByteReader(bytes, range: stco.bodyStart..<stco.end, context: stco.type.description)
            try r.skip(4)
            let n = Int(try r.u32())
            guard n <= r.remaining / (wide ? 8 : 4) else { throw corrupt("'\(stco.type)' lists \(n) chunks in \(r.remaining) bytes") }
            chunkOffsets.reserveCapacity(n)
            for _ in 0..<n { chunkOffsets.append(wide ? try r.u64() : UInt64(try r.u32())) }
        }
        // A table without chunk offsets (media data stripped, as in exiftool's test movies)
        // keeps its sizes and times; its samples have no offset and read as truncated.
        var chunkFirst: [Int] = [0]
        var offsets: [UInt64] = []
        if !chunkOffsets.isEmpty {

            // Samples per chunk.
            guard let stsc = find("stsc") else { throw corrupt("a track has samples but no 'stsc'") }
            var r = ByteReader(bytes, range: stsc.bodyStart..<stsc.end, context: "stsc")
            try r.skip(4)
            let runs = Int(try r.u32())
            guard runs >= 1, runs <= r.remaining / 12 else { throw corrupt("'stsc' lists \(runs) entries in \(r.remaining) bytes") }
            var firsts: [Int] = []
            var perChunk: [Int] = []
            for _ in 0..<runs {
                let first = Int(try r.u32())
                let n = Int(try r.u32())
                try r.skip(4)
                guard first >= 1, first > (firsts.last ?? 0), n >= 1 else {
                    throw corrupt("'stsc' entries must start at chunk 1, increase, and give at least one sample per chunk")
                }
                guard first <= chunkOffsets.count else { break }  // entries past the last chunk describe nothing
                firsts.append(first)
                perChunk.append(n)
            }
            guard firsts.first == 1 else { throw corrupt("'stsc' does not start at chunk 1") }
            chunkFirst.reserveCapacity(chunkOffsets.count + 1)
            var run = 0
            var total = 0
            for c in 0..<chunkOffsets.count {
                if run + 1 < firsts.count, c + 1 >= firsts[run + 1] { run += 1 }
                let (t, o) = total.addingReportingOverflow(perChunk[run])
                guard !o, t <= Int(UInt32.max) else { throw corrupt("'stsc' describes more samples than a track can hold") }
                total = t
                chunkFirst.append(total)
                if total >= count { break }
            }
            guard total >= count else { throw corrupt("the chunks hold \(total) samples but 'stsz' lists \(count)") }
            chunkOffsets = Array(chunkOffsets.prefix(chunkFirst.count - 1))

            // Offsets of variable-size samples.
            if fixed == nil {
                offsets.reserveCapacity(count)
                for c in 0..<chunkOffsets.count {
                    var o = chunkOffsets[c]
                    for s in chunkFirst[c]..<min(chunkFirst[c + 1], count) {
                        offsets.append(o)
                        o &+= UInt64(sizes[s])
                    }
                }
            }
        }

        // Durations.
        var sttsFirst: [Int] = [0]
        var sttsTime: [Int64] = [0]
        var sttsDelta: [Int64] = []
        if let stts = find("stts") {
            var r = ByteReader(bytes, range: stts.bodyStart..<stts.end, context: "stts")
            try r.skip(4)
            let n = Int(try r.u32())
            guard n <= r.remaining / 8 else { throw corrupt("'stts' lists \(n) entries in \(r.remaining) bytes") }
            var covered = 0
            var time: Int64 = 0
            for _ in 0..<n where covered < count {
                let c = Int(try r.u32())
                let d = Int64(try r.u32())
                guard c > 0 else { continue }
                covered = min(count, covered + c)
                time &+= d &* Int64(covered - sttsFirst[sttsFirst.count - 1])
                sttsDelta.append(d)
                sttsFirst.append(covered)
                sttsTime.append(time)
            }
            guard covered >= count else { throw corrupt("'stts' gives durations to \(covered) of \(count) samples") }
        } else {
            throw corrupt("a track has samples but no 'stts'")
        }

        // Composition offsets.
        var cttsFirst: [Int] = [0]
        var cttsOffset: [Int64] = []
        if let ctts = find("ctts") {
            var r = ByteReader(bytes, range: ctts.bodyStart..<ctts.end, context: "ctts")
            try r.skip(4)  // version and flags: version 0 says unsigned, but writers put negative values there too
            let n = Int(try r.u32())
            guard n <= r.remaining / 8 else { throw corrupt("'ctts' lists \(n) entries in \(r.remaining) bytes") }
            var covered = 0
            for _ in 0..<n where covered < count {
                let c = Int(try r.u32())
                let raw = try r.u32()
                guard c > 0 else { continue }
                covered = min(count, covered + c)
                cttsOffset.append(Int64(Int32(bitPattern: raw)))
                cttsFirst.append(covered)
            }
        }

        // Sync samples.
        var sync: [Int]?
        if let stss = find("stss") {
            var r = ByteReader(bytes, range: stss.bodyStart..<stss.end, context: "stss")
            try r.skip(4)
            let n = Int(try r.u32())
            guard n <= r.remaining / 4 else { throw corrupt("'stss' lists \(n) entries in \(r.remaining) bytes") }
            var list: [Int] = []
            list.reserveCapacity(n)
            for _ in 0..<n {
                let s = Int(try r.u32())
                guard s >= 1, s <= count else { throw corrupt("'stss' names sample \(s) of \(count)") }
                list.append(s - 1)
            }
            sync = list.sorted()
        }

        sampleCount = count
        fixedSize = fixed
        self.sizes = sizes
        self.offsets = offsets
        self.chunkOffsets = chunkOffsets
        chunkFirstSample = chunkFirst
        self.sttsFirst = sttsFirst
        self.sttsTime = sttsTime
        self.sttsDelta = sttsDelta
        self.cttsFirst = cttsFirst
        self.cttsOffset = cttsOffset
        syncSamples = sync
        totalDuration = sttsTime.last ?? 0
    }

    /// The last index `i` with `array[i] <= value` (array sorted ascending, array[0] <= value).
    private static func runIndex(_ array: [Int], _ value: Int) -> Int {
        var lo = 0
        var hi = array.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if array[mid] <= value { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Sample `index` (0-based), or nil when out of range.
    public func sample(at index: Int) -> MovieSample? {
        guard index >= 0, index < sampleCount else { return nil }
        let size: Int
        let offset: UInt64?
        if chunkOffsets.isEmpty {
            size = fixedSize ?? Int(sizes[index])
            offset = nil
        } else if let fixedSize {
            size = fixedSize
            let c = min(Self.runIndex(chunkFirstSample, index), chunkOffsets.count - 1)
            offset = chunkOffsets[c] &+ UInt64(index - chunkFirstSample[c]) &* UInt64(fixedSize)
        } else {
            size = Int(sizes[index])
            offset = offsets[index]
        }
        let t = min(Self.runIndex(sttsFirst, index), sttsDelta.count - 1)
        let decode = sttsTime[t] &+ Int64(index - sttsFirst[t]) &* sttsDelta[t]
        var composition: Int64 = 0
        if !cttsOffset.isEmpty {
            let c = Self.runIndex(cttsFirst, index)
            if c < cttsOffset.count { composition = cttsOffset[c] }
        }
        let isSync = syncSamples.map { Self.contains($0, index) } ?? true
        return MovieSample(
            index: index, offset: offset, size: size, decodeTime: decode, presentationTime: decode &+ composition,
            duration: sttsDelta[t], isSync: isSync)
    }

    private static func contains(_ sorted: [Int], _ v: Int) -> Bool {
        var lo = 0
        var hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == v
    }

    /// The last sync sample at or before `index` (0 when none is).
    public func syncSample(atOrBefore index: Int) -> Int {
        guard let syncSamples else { return max(0, index) }
        var best = 0
        for s in syncSamples { if s <= index { best = s } else { break } }
        return best
    }
}
