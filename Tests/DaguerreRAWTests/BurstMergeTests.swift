import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import DaguerreVirtualCamera
import Foundation
import Testing

@testable import DaguerreRAW

/// Still-image stabilization as burst fusion, measured on the virtual camera: at 5 lux, hand-held
/// (optical stabilization on, as the back camera has it), 8 frames of 1/15 s against one frame of
/// the burst and against one exposure of 8/15 s over the same time. SNR on the chart's neutral
/// 6.5 patch (raw green photosites, black subtracted); MTF50 of the slanted edge; a bright disc
/// crossing the wall below the chart during the burst for ghosts. The sensor is the back
/// camera's photosites on 1008 × 756 (same pitch and noise, the whole scene smaller) so the
/// debug build measures it in seconds; one burst serves every measurement.
@Suite struct BurstMergeTests {
    /// The burst, its long exposure, a 16-times-cleaner render of the reference frame (the same
    /// instant and exposure at 16 times the light and 1/16 the gain: the same signal, a quarter
    /// of the noise) and the merge.
    struct LowLight: Sendable {
        static let count = 8
        static let duration = 1.0 / 15
        /// The disc: 0.8 reflectance on the 0.18 wall, 0.25 fields/s, in the wall band below the chart.
        static let disc = MovingObject(centre: [0.15, 0.935], velocity: [0.25, 0], radius: 0.025, reflectance: [0.8, 0.8, 0.8])
        static let start = 0.2

        let burst: BurstScenes.Burst
        let truth: BayerImage
        let merged: BayerImage
        let mergeSeconds: Double

        init() throws {
            let profile = BurstScenes.profile(width: 1008, height: 756)
            let camera = VirtualCamera(profile: profile, seed: 5)
            camera.lux = 5
            camera.motion = .handheld
            camera.movingObjects = [Self.disc]
            burst = try BurstScenes.burst(camera: camera, count: Self.count, duration: Self.duration, iso: 400, start: Self.start)
            camera.lux = 5 * 16
            truth = try camera.captureStill(
                mode: profile.modes[0], at: Self.start, exposure: ExposureSettings(duration: Self.duration, iso: 25),
                whiteBalanceGains: [2, 1, 1.6]
            ).mosaic
            let clock = ContinuousClock.now
            merged = try BurstMerge().merge(burst.frames, reference: 0, noise: burst.noiseProfile)
            let elapsed = (ContinuousClock.now - clock).components
            mergeSeconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        }

        /// The photosites the disc covers at some time during the burst (its path, widened by its radius).
        static func discRegion(width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
            let end = disc.position(at: start + Double(count) * duration)
            let begin = disc.position(at: start)
            let w = Double(width)
            let rv = disc.radius / StudioScene.fieldHeight
            return (
                Int((begin.x - disc.radius) * w) - 4..<Int((end.x + disc.radius) * w) + 4,
                Int((begin.y - rv) * Double(height)) - 4..<Int((begin.y + rv) * Double(height)) + 4
            )
        }
    }

    static let lowLight = Result { try LowLight() }

    static let greyPatch = 20

    @Test("8 frames at 5 lux hand-held: at least 90 % of the √8 SNR gain on the grey patch, within 1 dB of one long exposure")
    func snrGain() throws {
        let s = try Self.lowLight.get()
        print("burst merge of 8 × 1008×756 (this build, not a benchmark): \(s.mergeSeconds) s")
        var rows: [String] = []
        for patch in StudioScene.neutralPatchIndices {
            let box = BurstScenes.patchBox(patch, in: s.merged, fraction: 0.7)
            let single = BurstScenes.decibels(BurstScenes.greenSNR(s.burst.frames[0], box: box))
            let fused = BurstScenes.decibels(BurstScenes.greenSNR(s.merged, box: box))
            let long = BurstScenes.decibels(BurstScenes.greenSNR(s.burst.long, box: box))
            rows.append(
                String(
                    format: "patch %d: one frame %.2f dB, fused %.2f dB (gain %+.2f), long %.2f dB (fused − long %+.2f)", patch, single,
                    fused, fused - single, long, fused - long))
            if patch == Self.greyPatch {
                #expect(fused - single >= 0.9 * BurstScenes.decibels(8.0.squareRoot()), "at least 90 % of the √8 gain in dB")
                #expect(fused - long >= -1, "within 1 dB of the long exposure")
                // The signal scale of one frame: the patch's level is the frames' mean level.
                let frames = s.burst.frames.map { BurstScenes.greenMean($0, box: box) }.reduce(0, +) / Double(s.burst.frames.count)
                let level = BurstScenes.greenMean(s.merged, box: box)
                print("grey patch level (of white − black): frames \(frames), fused \(level)")
                #expect(abs(level / frames - 1) <= 0.005)
            }
        }
        print(rows.joined(separator: "\n"))
    }

    @Test("The long exposure blurs the slanted edge under the shake; the fused photo keeps the sharpness of one short frame")
    func sharpness() throws {
        let s = try Self.lowLight.get()
        let single = BurstScenes.mtf50(s.burst.frames[0])
        let fused = BurstScenes.mtf50(s.merged)
        let long = BurstScenes.mtf50(s.burst.long)
        print("MTF50 (cycles/photosite): one frame \(single), fused \(fused), long exposure \(long)")
        #expect(fused >= 0.9 * single, "merging does not blur")
        #expect(long <= 0.8 * fused, "the long exposure is visibly softer")
    }

    @Test("A disc moving during the burst leaves no ghost: in its region the fused error is no worse than one frame's")
    func noGhost() throws {
        let s = try Self.lowLight.get()
        let region = LowLight.discRegion(width: s.merged.width, height: s.merged.height)
        let single = Self.rmsError(s.burst.frames[0], against: s.truth, in: region)
        let fused = Self.rmsError(s.merged, against: s.truth, in: region)
        // The same on a crop around the disc, merged with and without motion rejection: without
        // it the disc is smeared over its path (the test can see a ghost).
        let crop = (x: 64..<384, y: 596..<756)
        let frames = try s.burst.frames.map { try Self.crop($0, crop) }
        let truth = try Self.crop(s.truth, crop)
        var blind = BurstMerge.Options()
        blind.motionThreshold = 100
        let croppedRegion = (
            x: region.x.lowerBound - crop.x.lowerBound..<region.x.upperBound - crop.x.lowerBound,
            y: region.y.lowerBound - crop.y.lowerBound..<region.y.upperBound - crop.y.lowerBound
        )
        let robustCrop = Self.rmsError(try BurstMerge().merge(frames, noise: s.burst.noiseProfile), against: truth, in: croppedRegion)
        let blindCrop = Self.rmsError(
            try BurstMerge(options: blind).merge(frames, noise: s.burst.noiseProfile), against: truth, in: croppedRegion)
        let estimatedCrop = Self.rmsError(try BurstMerge().merge(frames), against: truth, in: croppedRegion)
        print(
            "disc region RMS error (of white − black): one frame \(single), fused \(fused); crop: fused \(robustCrop), estimated noise \(estimatedCrop), without rejection \(blindCrop)"
        )
        #expect(fused <= single)
        #expect(robustCrop <= single)
        #expect(estimatedCrop <= single)
        #expect(blindCrop >= 1.5 * single, "without rejection the disc would ghost")
    }

    @Test("The merged mosaic is one better frame to the DNG writer and the develop: the same level, less noise")
    func developsAsOneFrame() throws {
        let s = try Self.lowLight.get()
        // The chart's row of neutral patches.
        let box = (x: 48..<496, y: 320..<384)
        func develop(_ m: BayerImage) throws -> LinearPixels {
            var dng = DNGImage(raw: try Self.crop(m, box), uniqueCameraModel: "Daguerre Burst Test")
            dng.color = s.burst.calibration
            var raw = try RAWFilter(data: Data(try DNGWriter.data(for: dng)))
            raw.luminanceNoiseReductionAmount = 0
            return try LinearPixels(try raw.outputImage())
        }
        let one = try develop(s.burst.frames[0])
        let fused = try develop(s.merged)
        // The develop shows the DNG's default crop (the mosaic less a border on every side).
        let border = (x: (box.x.count - one.width) / 2, y: (box.y.count - one.height) / 2)
        try #require(fused.width == one.width && fused.height == one.height && border.x >= 0 && border.y >= 0)
        let patch = BurstScenes.patchBox(Self.greyPatch, in: s.merged, fraction: 0.7)
        let xs = patch.x.lowerBound - box.x.lowerBound - border.x..<patch.x.upperBound - box.x.lowerBound - border.x
        let ys = patch.y.lowerBound - box.y.lowerBound - border.y..<patch.y.upperBound - box.y.lowerBound - border.y
        try #require(xs.lowerBound >= 0 && ys.lowerBound >= 0 && xs.upperBound <= one.width && ys.upperBound <= one.height)
        func greenStatistics(_ p: LinearPixels) -> (mean: Double, deviation: Double) {
            let values = ys.flatMap { y in xs.map { x in p[x: x, y: y].y } }
            let mean = values.reduce(0, +) / Double(values.count)
            return (mean, (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot())
        }
        let a = greenStatistics(one)
        let b = greenStatistics(fused)
        print("developed grey patch (linear G): one frame \(a.mean) ± \(a.deviation), fused \(b.mean) ± \(b.deviation)")
        #expect(abs(b.mean / a.mean - 1) <= 0.03, "the same exposure")
        #expect(b.deviation <= 0.5 * a.deviation, "less noise")
    }

    /// RMS over `region` of the difference of two mosaics, each normalized to 0...1 by its own levels.
    static func rmsError(_ a: BayerImage, against b: BayerImage, in region: (x: Range<Int>, y: Range<Int>)) -> Double {
        func normalized(_ m: BayerImage, _ x: Int, _ y: Int) -> Double {
            let black = m.blackLevel[(y & 1) * 2 + (x & 1)]
            return (Double(m.samples[y * m.width + x]) - black) / (Double(m.whiteLevel) - black)
        }
        var sum = 0.0
        var n = 0.0
        for y in region.y {
            for x in region.x {
                let d = normalized(a, x, y) - normalized(b, x, y)
                sum += d * d
                n += 1
            }
        }
        return (sum / n).squareRoot()
    }

    /// The photosites of `m` in `box` (origin even, so the CFA order is kept).
    static func crop(_ m: BayerImage, _ box: (x: Range<Int>, y: Range<Int>)) throws -> BayerImage {
        var samples: [UInt16] = []
        samples.reserveCapacity(box.x.count * box.y.count)
        for y in box.y { samples.append(contentsOf: m.samples[y * m.width + box.x.lowerBound..<y * m.width + box.x.upperBound]) }
        return try BayerImage(
            width: box.x.count, height: box.y.count, pattern: m.pattern, bitsPerSample: m.bitsPerSample, samples: samples,
            blackLevel: m.blackLevel, whiteLevel: m.whiteLevel)
    }
}

/// The merge's contract on synthetic mosaics: exact where it must be, typed errors for bad input.
@Suite struct BurstMergeContractTests {
    /// A noise-free textured RGGB mosaic, shifted by (dx, dy) photosites (the scene moves).
    static func textured(width: Int, height: Int, dx: Int = 0, dy: Int = 0) throws -> BayerImage {
        let (m, _) = try NoiseScenes.mosaic(width: width, height: height, electrons: 0) { x, y, c in
            let u = Double(x - dx)
            let v = Double(y - dy)
            return 0.4 + 0.25 * sin(u * 0.21 + Double(c)) * cos(v * 0.17) + 0.15 * sin((u + 2 * v) * 0.05)
        }
        return m
    }

    static let profile: [(scale: Double, offset: Double)] = [(scale: 1e-4, offset: 1e-6)]

    @Test("Copies of one frame merge to that frame, with log₂ N more bits and levels scaled alike")
    func identicalFrames() throws {
        let frame = try Self.textured(width: 96, height: 64)
        let merged = try BurstMerge().merge([frame, frame, frame, frame], noise: Self.profile)
        #expect(merged.bitsPerSample == 16)
        #expect(merged.whiteLevel == frame.whiteLevel * 4)
        #expect(merged.blackLevel == frame.blackLevel.map { $0 * 4 })
        #expect(merged.pattern == frame.pattern)
        #expect(merged.samples == frame.samples.map { $0 * 4 })
        var options = BurstMerge.Options()
        options.keepsExtraPrecision = false
        #expect(try BurstMerge(options: options).merge([frame, frame], noise: Self.profile) == frame)
        #expect(try BurstMerge().merge([frame], noise: Self.profile) == frame)
    }

    @Test("Frames of a scene that moved by whole Bayer blocks are aligned back onto the reference exactly")
    func alignsShifts() throws {
        let (w, h) = (160, 128)
        let reference = try Self.textured(width: w, height: h)
        let moved = try [(4, -6), (-10, 2), (8, 12)].map { try Self.textured(width: w, height: h, dx: $0.0, dy: $0.1) }
        var options = BurstMerge.Options()
        options.keepsExtraPrecision = false
        let merged = try BurstMerge(options: options).merge([reference] + moved, noise: Self.profile)
        // Away from the borders (where a moved frame has nothing to give) every photosite is the reference's.
        var worst = 0
        for y in 24..<h - 24 {
            for x in 24..<w - 24 { worst = max(worst, abs(Int(merged.samples[y * w + x]) - Int(reference.samples[y * w + x]))) }
        }
        #expect(worst <= 1, "largest difference \(worst) codes")
    }

    @Test("Odd sizes: the last column and row are the reference's, the rest merged")
    func oddSize() throws {
        let a = try Self.textured(width: 101, height: 75)
        let b = try Self.textured(width: 101, height: 75, dx: 2)
        let merged = try BurstMerge().merge([a, b], noise: Self.profile)
        #expect(merged.width == 101 && merged.height == 75)
        for y in 0..<75 { #expect(merged.samples[y * 101 + 100] == a.samples[y * 101 + 100] * 2) }
        for x in 0..<101 { #expect(merged.samples[74 * 101 + x] == a.samples[74 * 101 + x] * 2) }
    }

    @Test("Bad bursts are typed errors that say what is wrong")
    func errors() throws {
        let frame = try Self.textured(width: 64, height: 48)
        func invalid(_ e: DaguerreError) -> Bool { if case .invalidArgument = e { return true } else { return false } }
        let merge = BurstMerge()
        expectDaguerreError("empty burst", invalid) { _ = try merge.merge([]) }
        expectDaguerreError("reference out of range", invalid) { _ = try merge.merge([frame, frame], reference: 2, noise: Self.profile) }
        expectDaguerreError("negative reference", invalid) { _ = try merge.merge([frame, frame], reference: -1, noise: Self.profile) }
        let other = try Self.textured(width: 66, height: 48)
        expectDaguerreError("different sizes", invalid) { _ = try merge.merge([frame, other], noise: Self.profile) }
        var pattern = frame
        pattern.pattern = .bggr
        expectDaguerreError("different CFA order", invalid) { _ = try merge.merge([frame, pattern], noise: Self.profile) }
        var levels = frame
        levels.blackLevel = [0, 0, 0, 0]
        expectDaguerreError("different levels", invalid) { _ = try merge.merge([frame, levels], noise: Self.profile) }
        var bits = frame
        bits.bitsPerSample = 12
        expectDaguerreError("different depth", invalid) { _ = try merge.merge([frame, bits], noise: Self.profile) }
        var short = frame
        short.samples.removeLast(7)
        expectDaguerreError("samples short of the size", invalid) { _ = try merge.merge([frame, short], noise: Self.profile) }
        var black = frame
        black.blackLevel = [.nan, 0, 0, 0]
        expectDaguerreError("a black level that is not a number", invalid) { _ = try merge.merge([black, black], noise: Self.profile) }
        var xTrans = frame
        xTrans.xTrans = .standard
        expectDaguerreError("X-Trans frames", { if case .unsupported = $0 { return true } else { return false } }) {
            _ = try merge.merge([xTrans, xTrans], noise: Self.profile)
        }
        let tiny = try BayerImage(width: 1, height: 1, pattern: .rggb)
        expectDaguerreError("no whole 2×2 block", invalid) { _ = try merge.merge([tiny, tiny], noise: Self.profile) }
        expectDaguerreError("a noise profile of two pairs", invalid) {
            _ = try merge.merge([frame, frame], noise: [(1e-4, 1e-6), (1e-4, 1e-6)])
        }
        expectDaguerreError("a negative noise scale", invalid) { _ = try merge.merge([frame, frame], noise: [(-1, 0)]) }
        expectDaguerreError("a bad noise profile with one frame", invalid) { _ = try merge.merge([frame], noise: [(.nan, 0)]) }
        expectDaguerreError("too many frames", invalid) {
            _ = try merge.merge(Array(repeating: frame, count: BurstMerge.maxFrames + 1), noise: Self.profile)
        }
        var options = BurstMerge.Options()
        options.searchRadii = []
        expectDaguerreError("no search radii", invalid) { _ = try BurstMerge(options: options).merge([frame, frame], noise: Self.profile) }
        options = BurstMerge.Options()
        options.motionThreshold = .infinity
        expectDaguerreError("an infinite threshold", invalid) {
            _ = try BurstMerge(options: options).merge([frame, frame], noise: Self.profile)
        }
        var limits = Limits.default
        limits.maxPixels = 1000
        expectDaguerreError("over the limits", { if case .tooLarge = $0 { return true } else { return false } }) {
            _ = try BurstMerge(limits: limits).merge([frame, frame], noise: Self.profile)
        }
    }
}
