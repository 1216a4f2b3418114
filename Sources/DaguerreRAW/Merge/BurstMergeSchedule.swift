// Where and when the burst merge's steps run (SPEC P13; the algorithm apart from its schedule,
// as the develop's schedule keeps it): the frames' grey pyramids in parallel, the alignment's
// tile rows, the local means in bands of rows, then the merge one row of 2×2 blocks at a time,
// each worker writing its own 2 rows of photosites. What each step computes belongs to GreyPyramid,
// TileAlignment, LocalMeans and RobustTileMerge. Our own code (see BurstMerge).
import DaguerreCore

/// Runs a validated burst's merge on every core and returns the merged samples.
///
/// ```swift
/// let samples = BurstMergeSchedule.run(frames, layout: layout, noise: noise, options: options, shift: 2)
/// ```
enum BurstMergeSchedule {
    /// Block rows of local means per work item.
    static let meanRows = 32

    /// The merged mosaic's samples, multiplied by 2^`shift` (rounded, clamped to 16 bits).
    static func run(_ frames: [BayerImage], layout: BurstLayout, noise: BurstNoise, options: BurstMerge.Options, shift: Int) -> [UInt16] {
        withSamples(frames) { pointers in
            let fields = alignment(pointers, layout: layout, radii: options.searchRadii, noise: noise)
            let means = localMeans(pointers, layout: layout)
            defer { for m in means { m.deallocate() } }
            let window = TileGrid.raisedCosine(size: TileGrid.size)
            return withFields(fields) { fieldPointers in
                window.withUnsafeBufferPointer { window in
                    merge(
                        RobustTileMerge.Inputs(
                            frames: pointers, means: means.map { UnsafePointer($0) }, fields: fieldPointers,
                            reference: layout.referenceIndex, layout: layout,
                            grid: TileGrid(width: layout.quadWidth, height: layout.quadHeight),
                            robustness: MergeRobustness(noise: noise, threshold: options.motionThreshold), window: window.baseAddress!),
                        shift: shift)
                }
            }
        }
    }

    /// Each frame's grey pyramid (frames in parallel), then the coarse-to-fine tile search.
    static func alignment(_ frames: [UnsafePointer<UInt16>], layout: BurstLayout, radii: [Int], noise: BurstNoise) -> [[SIMD2<Int32>]] {
        let pyramids = [GreyPyramid](unsafeUninitializedCapacity: frames.count) { out, count in
            let dst = UnsafeTransfer(out.baseAddress!)
            let sources = UnsafeTransfer(frames)
            // Safety: item i initializes only element i; the frames outlive the loop.
            WorkerPool.share(workers: WorkerPool.processorCount, items: frames.count) { _, i in
                (dst.value + i).initialize(to: GreyPyramid(samples: sources.value[i], layout: layout))
            }
            count = frames.count
        }
        return TileAlignment.align(pyramids, reference: layout.referenceIndex, radii: radii, noise: noise)
    }

    /// Each frame's local means, in bands of rows on every core. The caller deallocates them.
    static func localMeans(_ frames: [UnsafePointer<UInt16>], layout: BurstLayout) -> [UnsafeMutablePointer<SIMD4<Float16>>] {
        let count = layout.quadWidth * layout.quadHeight
        let means = frames.map { _ in UnsafeMutablePointer<SIMD4<Float16>>.allocate(capacity: count) }
        let bands = (layout.quadHeight + meanRows - 1) / meanRows
        let shared = UnsafeTransfer((frames, means))
        // Safety: item (frame, band) writes only that band of that frame's means; the frames
        // are read-only and outlive the loop.
        WorkerPool.share(workers: WorkerPool.processorCount, items: frames.count * bands) { _, item in
            let (f, band) = item.quotientAndRemainder(dividingBy: bands)
            let rows = band * meanRows..<min((band + 1) * meanRows, layout.quadHeight)
            LocalMeans.fill(rows: rows, samples: shared.value.0[f], layout: layout, into: shared.value.1[f])
        }
        return means
    }

    /// The merge, one row of blocks (two rows of photosites) per work item, into 16-bit samples.
    static func merge(_ inputs: RobustTileMerge.Inputs, shift: Int) -> [UInt16] {
        let layout = inputs.layout
        let width = layout.width
        let height = layout.height
        let workers = WorkerPool.processorCount
        let scratch = (0..<workers).map { _ in RobustTileMerge.Scratch(width: layout.quadWidth) }
        let values = (0..<workers).map { _ in UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: layout.quadWidth) }
        defer {
            for s in scratch { s.deallocate() }
            for v in values { v.deallocate() }
        }
        let workspaces = UnsafeTransfer((scratch, values))
        // The 1.5·2²³ trick rounds a float below 2²² to the nearest integer in its low bits.
        let scale = SIMD4<Float>(repeating: Float(1 << shift))
        let magic = SIMD4<Float>(repeating: 12_582_912)
        return [UInt16](unsafeUninitializedCapacity: width * height) { out, count in
            let dst = UnsafeTransfer(out.baseAddress!)
            // Safety: item `qy` writes only photosite rows 2qy and 2qy + 1 (and the last, odd
            // row with the last item) with worker `worker`'s workspace; every input is read-only.
            WorkerPool.share(workers: workers, items: layout.quadHeight) { worker, qy in
                let rows = RobustTileMerge(inputs: inputs, scratch: workspaces.value.0[worker])
                let merged = workspaces.value.1[worker]
                rows.merge(row: qy, into: merged)
                let r0 = dst.value + 2 * qy * width
                let r1 = r0 + width
                for qx in 0..<layout.quadWidth {
                    var v = merged[qx] * scale
                    v.replace(with: 0, where: v .< 0)
                    v.replace(with: 65535, where: v .> 65535)
                    let code = SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(v + magic, to: SIMD4<UInt32>.self))
                    r0[2 * qx] = code[0]
                    r0[2 * qx + 1] = code[1]
                    r1[2 * qx] = code[2]
                    r1[2 * qx + 1] = code[3]
                }
                // An odd last column and row are not in any whole block: the reference's own.
                let reference = inputs.frames[inputs.reference]
                var odd = width & 1 == 1 ? [2 * qy, 2 * qy + 1] : []
                if qy == layout.quadHeight - 1, height & 1 == 1 { odd.append(height - 1) }
                for y in odd {
                    let xs = y == 2 * layout.quadHeight ? 0..<width : (width - 1)..<width
                    for x in xs { dst.value[y * width + x] = UInt16(min(Int(reference[y * width + x]) << shift, 65535)) }
                }
            }
            count = width * height
        }
    }

    /// Runs `body` with pointers to every frame's samples.
    static func withSamples<R>(_ frames: [BayerImage], _ body: ([UnsafePointer<UInt16>]) -> R) -> R {
        func nest(_ i: Int, _ pointers: [UnsafePointer<UInt16>]) -> R {
            guard i < frames.count else { return body(pointers) }
            return frames[i].samples.withUnsafeBufferPointer { nest(i + 1, pointers + [$0.baseAddress!]) }
        }
        return nest(0, [])
    }

    /// Runs `body` with pointers to every frame's alignment field.
    static func withFields<R>(_ fields: [[SIMD2<Int32>]], _ body: ([UnsafePointer<SIMD2<Int32>>]) -> R) -> R {
        func nest(_ i: Int, _ pointers: [UnsafePointer<SIMD2<Int32>>]) -> R {
            guard i < fields.count else { return body(pointers) }
            return fields[i].withUnsafeBufferPointer { nest(i + 1, pointers + [$0.baseAddress!]) }
        }
        return nest(0, [])
    }
}
