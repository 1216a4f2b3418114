// The sample tables of one track being written: sizes, durations, sync samples, chunks.
// Written by hand (Daguerre's own QuickTime writer; see MovieWriter).
import DaguerreCore
import DaguerreFormats

/// Accumulates what a track's `stbl` atom will say, compactly, while its samples stream to
/// the file: durations and composition offsets as runs (`stts`, `ctts`), sync sample numbers
/// only once a non-sync sample appears (`stss`), chunk offsets and sample counts (`stco` /
/// `co64`, `stsc`), and sizes unless every sample has the same one (PCM audio: one entry
/// however many thousand frames, `stsz` with a sample size).
///
/// ```swift
/// var table = SampleTableBuilder(fixedSampleSize: nil)
/// try table.append(count: 1, size: 1200, duration: 40, compositionOffset: 0, isSync: true, offset: 48, newChunk: true)
/// ```
struct SampleTableBuilder {
    struct Run<Value: Equatable> {
        var count: UInt32
        var value: Value
    }
    struct Chunk {
        var offset: UInt64
        var samples: UInt32
    }

    /// Every sample's size when fixed (PCM); then `sizes` stays empty.
    let fixedSampleSize: UInt32?
    private(set) var sampleCount = 0
    private(set) var sizes: [UInt32] = []
    private(set) var durations: [Run<UInt32>] = []
    private(set) var compositionOffsets: [Run<Int32>] = []
    private(set) var syncSamples: [UInt32] = []
    private(set) var allSync = true
    private(set) var chunks: [Chunk] = []
    /// Sum of durations, in the media timescale.
    private(set) var mediaDuration: Int64 = 0
    private(set) var dataBytes: UInt64 = 0

    init(fixedSampleSize: UInt32?) { self.fixedSampleSize = fixedSampleSize }

    var hasCompositionOffsets: Bool { compositionOffsets.contains { $0.value != 0 } }
    var hasNegativeCompositionOffsets: Bool { compositionOffsets.contains { $0.value < 0 } }

    /// Adds `count` samples of `size` bytes each, stored back to back from `offset`.
    mutating func append(
        count: Int, size: UInt32, duration: UInt32, compositionOffset: Int32, isSync: Bool,
        offset: UInt64, newChunk: Bool
    ) throws(DaguerreError) {
        guard count > 0 else { return }
        let (total, overflow) = sampleCount.addingReportingOverflow(count)
        guard !overflow, total < Int(UInt32.max) else {
            throw .tooLarge(what: "Samples in one track", value: overflow ? Int.max : total, limit: Int(UInt32.max) - 1)
        }
        if let fixedSampleSize, fixedSampleSize != size {
            throw .invalidArgument(what: "Sample of \(size) bytes", problem: "this track's samples are all \(fixedSampleSize) bytes")
        }
        if fixedSampleSize == nil { sizes.append(contentsOf: repeatElement(size, count: count)) }
        if let last = durations.last, last.value == duration {
            durations[durations.count - 1].count += UInt32(count)
        } else {
            durations.append(Run(count: UInt32(count), value: duration))
        }
        if let last = compositionOffsets.last, last.value == compositionOffset {
            compositionOffsets[compositionOffsets.count - 1].count += UInt32(count)
        } else {
            compositionOffsets.append(Run(count: UInt32(count), value: compositionOffset))
        }
        if !isSync, allSync {
            // The first non-sync sample: every earlier one was sync.
            allSync = false
            syncSamples = sampleCount > 0 ? Array(1...UInt32(sampleCount)) : []
        } else if isSync, !allSync {
            for k in 0..<count { syncSamples.append(UInt32(sampleCount + k + 1)) }
        }
        if newChunk || chunks.isEmpty {
            chunks.append(Chunk(offset: offset, samples: UInt32(count)))
        } else {
            chunks[chunks.count - 1].samples += UInt32(count)
        }
        sampleCount = total
        mediaDuration &+= Int64(duration) * Int64(count)
        dataBytes &+= UInt64(size) * UInt64(count)
    }

    /// Writes stts, ctts, stss, stsc, stsz and stco/co64 (after the caller's stsd).
    func write(into w: inout ByteWriter) {
        w.fullBox("stts") { w in
            w.u32(UInt32(durations.count))
            for run in durations {
                w.u32(run.count)
                w.u32(run.value)
            }
        }
        if hasCompositionOffsets {
            // Version 1 allows negative offsets (ISO 14496-12 §8.6.1.3).
            w.fullBox("ctts", version: hasNegativeCompositionOffsets ? 1 : 0) { w in
                w.u32(UInt32(compositionOffsets.count))
                for run in compositionOffsets {
                    w.u32(run.count)
                    w.i32(run.value)
                }
            }
        }
        if !allSync {
            w.fullBox("stss") { w in
                w.u32(UInt32(syncSamples.count))
                for s in syncSamples { w.u32(s) }
            }
        }
        w.fullBox("stsc") { w in
            var runs: [(first: UInt32, samples: UInt32)] = []
            for (i, chunk) in chunks.enumerated() where runs.last?.samples != chunk.samples {
                runs.append((UInt32(i + 1), chunk.samples))
            }
            w.u32(UInt32(runs.count))
            for run in runs {
                w.u32(run.first)
                w.u32(run.samples)
                w.u32(1)
            }
        }
        w.fullBox("stsz") { w in
            if let fixedSampleSize {
                w.u32(fixedSampleSize)
                w.u32(UInt32(sampleCount))
            } else if let first = sizes.first, sizes.allSatisfy({ $0 == first }) {
                w.u32(first)
                w.u32(UInt32(sampleCount))
            } else {
                w.u32(0)
                w.u32(UInt32(sampleCount))
                for s in sizes { w.u32(s) }
            }
        }
        if chunks.contains(where: { $0.offset > UInt64(UInt32.max) }) {
            w.fullBox("co64") { w in
                w.u32(UInt32(chunks.count))
                for c in chunks { w.u64(c.offset) }
            }
        } else {
            w.fullBox("stco") { w in
                w.u32(UInt32(chunks.count))
                for c in chunks { w.u32(UInt32(c.offset)) }
            }
        }
    }
}
