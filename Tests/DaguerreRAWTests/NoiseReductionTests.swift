import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreRAW

/// Synthetic raw data with a known noise model (deterministic: SeededRandom).
enum NoiseScenes {
    /// A Poisson deviate: Knuth's product of uniforms below a mean of 30, above it the normal
    /// deviate with the same mean and variance, rounded.
    static func poisson(_ mean: Double, _ rng: inout SeededRandom) -> Double {
        guard mean > 0 else { return 0 }
        if mean < 30 {
            let limit = exp(-mean)
            var k = 0.0
            var p = 1.0
            repeat {
                k += 1
                p *= Double(rng.next() >> 11) / Double(1 << 53)
            } while p > limit
            return k - 1
        }
        return (mean + mean.squareRoot() * gaussian(&rng)).rounded()
    }

    /// A standard normal deviate (Box–Muller).
    static func gaussian(_ rng: inout SeededRandom) -> Double {
        let u1 = max(Double(rng.next() >> 11) / Double(1 << 53), 1e-300)
        let u2 = Double(rng.next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// `width` × `height` standard normal deviates (row-major) from `seed`: white texture for a
    /// scene, the same in every colour.
    static func grain(width: Int, height: Int, seed: UInt64) -> [Double] {
        var rng = SeededRandom(seed: seed)
        return (0..<(width * height)).map { _ in gaussian(&rng) }
    }

    /// A 14-bit RGGB mosaic (black 512, white 16383) of `scene(x, y, colour)` (linear 0...1)
    /// seen by a sensor with `electrons` at white and `readNoise` electrons of read noise, and
    /// the DNG NoiseProfile of that sensor. `electrons` 0 gives the noise-free mosaic.
    static func mosaic(
        width: Int, height: Int, electrons: Double, readNoise: Double = 3, seed: UInt64 = 1, xTrans: Bool = false,
        scene: (Int, Int, Int) -> Double
    ) throws -> (BayerImage, NoiseModel) {
        var m = try BayerImage(width: width, height: height, pattern: .rggb, bitsPerSample: 14)
        if xTrans { m.xTrans = .standard }
        m.blackLevel = [512, 512, 512, 512]
        m.whiteLevel = 16383
        let range = Double(16383 - 512)
        var rng = SeededRandom(seed: seed)
        for y in 0..<height {
            for x in 0..<width {
                let v = max(0, min(1, scene(x, y, m.layout.color(x: x, y: y))))
                var dn = v * range
                if electrons > 0 {
                    let g = electrons / range  // electrons per DN
                    dn = (poisson(v * electrons, &rng) + readNoise * gaussian(&rng)) / g
                }
                m.samples[y * width + x] = UInt16(max(0, min(16383, (512 + dn).rounded())))
            }
        }
        guard electrons > 0 else { return (m, .zero) }
        let g = electrons / range
        return (m, NoiseModel(scale: 1 / electrons, offset: (readNoise * readNoise + g * g / 12) / (electrons * electrons)))
    }

    /// Smooth ramps, flat patches, dark corners and a few hard edges: every level from black to
    /// near white, with little texture.
    static func smooth(_ x: Int, _ y: Int, _ c: Int, width: Int, height: Int) -> Double {
        let u = Double(x) / Double(width)
        let v = Double(y) / Double(height)
        let base = [0.02 + 0.8 * u * v, 0.01 + 0.85 * u, 0.03 + 0.7 * v][c]
        let patch = (x / 96 + y / 96) % 3 == 0 ? 0.1 : 0
        return base * (1 - 0.3 * patch) + patch
    }

    /// The linearized samples of a mosaic, row-major.
    static func linear(_ m: BayerImage) -> [Float] {
        m.samples.map { (Float($0) - 512) / Float(16383 - 512) }
    }

    /// A wide noisy frame of ``smooth(_:_:_:width:height:)`` repeating every `period` columns,
    /// its profile, a noise reduction sized for it, and its linearized samples denoised by that
    /// as one full-frame window.
    static func denoisedFrame(
        width w: Int, height h: Int, electrons: Double, period: Int, step: DCT4PlaneDenoiser.BlockStep,
        pilot: MosaicNoiseReduction.Pilot = .perPlane
    ) throws
        -> (mosaic: BayerImage, profile: CFANoiseProfile, nr: MosaicNoiseReduction, full: [Float])
    {
        let (mosaic, model) = try mosaic(width: w, height: h, electrons: electrons) { x, y, c in
            smooth(x % period, y, c, width: period, height: h)
        }
        let profile = CFANoiseProfile(uniform: model)
        var full = linear(mosaic)
        let nr = try MosaicNoiseReduction(maxWidth: w, maxHeight: h, workers: 2)
        full.withUnsafeMutableBufferPointer { b in
            nr.denoise(
                MosaicWindow(x: 0, y: 0, width: w, height: h, stride: w, samples: b.baseAddress!), profile: profile, amount: 1,
                blockStep: step, pilot: pilot)
        }
        return (mosaic, profile, nr, full)
    }
}

/// DCT4-2S, the raw noise reduction of pipeline version 3 (SPEC X3).
@Suite struct NoiseReductionTests {
    /// The orthonormal 4-point DCT-II in Double, D[u][k] = c_u·cos(π(2k+1)u/8) (c_0 = 1/2, c_u = 1/√2).
    static let referenceDCT: [[Double]] = (0..<4).map { u in (0..<4).map { k in referenceDCT(u, k) } }
    private static func referenceDCT(_ u: Int, _ k: Int) -> Double {
        let c: Double = u == 0 ? 0.5 : 0.5.squareRoot()
        return c * cos(Double.pi * Double((2 * k + 1) * u) / 8)
    }

    /// Whole-sample mirroring into `0 ..< n`, written out for the references.
    static func referenceMirror(_ i: Int, _ n: Int) -> Int { i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i }

    /// REPORT §3 written out directly, in Double: whole-sample mirror by 3, every 4×4 block
    /// (`step` 1) or the blocks at origins −3, −1, 1, … in each direction (`step` 2: pipeline
    /// version 4, research/noise/scratch/s_stride.py), hard-threshold pilot, Wiener stage.
    static func referenceDenoise(_ plane: [Double], rows: Int, columns: Int, amount: Double, step: Int = 1) -> [Double] {
        let d = Self.referenceDCT
        let mirror = Self.referenceMirror
        func blocks(_ src: [Double], _ body: (Int, Int, [[Double]]) -> Void) {
            for i in Swift.stride(from: -3, to: rows, by: step) {
                for j in Swift.stride(from: -3, to: columns, by: step) {
                    var b = [[Double]](repeating: [0, 0, 0, 0], count: 4)
                    for k in 0..<4 { for l in 0..<4 { b[k][l] = src[mirror(i + k, rows) * columns + mirror(j + l, columns)] } }
                    var c = [[Double]](repeating: [0, 0, 0, 0], count: 4)
                    for u in 0..<4 {
                        for v in 0..<4 {
                            var s = 0.0
                            for k in 0..<4 { for l in 0..<4 { s += d[u][k] * b[k][l] * d[v][l] } }
                            c[u][v] = s
                        }
                    }
                    body(i, j, c)
                }
            }
        }
        func aggregate(_ i: Int, _ j: Int, _ c: [[Double]], _ w: Double, _ num: inout [Double], _ den: inout [Double]) {
            for k in 0..<4 {
                for l in 0..<4 {
                    let r = i + k
                    let q = j + l
                    guard r >= 0, r < rows, q >= 0, q < columns else { continue }
                    var e = 0.0
                    for u in 0..<4 { for v in 0..<4 { e += d[u][k] * c[u][v] * d[v][l] } }
                    num[r * columns + q] += w * e
                    den[r * columns + q] += w
                }
            }
        }
        var num = [Double](repeating: 0, count: plane.count)
        var den = num
        blocks(plane) { i, j, c in
            var c = c
            var kept = 1.0
            for u in 0..<4 { for v in 0..<4 where u + v > 0 { if abs(c[u][v]) > 2.5 * amount { kept += 1 } else { c[u][v] = 0 } } }
            aggregate(i, j, c, 1 / kept, &num, &den)
        }
        let pilot = zip(num, den).map { $0 / $1 }
        var pilotBlocks: [[[Double]]] = []
        blocks(pilot) { _, _, p in pilotBlocks.append(p) }
        num = [Double](repeating: 0, count: plane.count)
        den = num
        var n = 0
        blocks(plane) { i, j, c in
            let p = pilotBlocks[n]
            n += 1
            var c = c
            var energy = 0.0
            for u in 0..<4 {
                for v in 0..<4 {
                    let g = p[u][v] * p[u][v] / (p[u][v] * p[u][v] + amount * amount)
                    c[u][v] *= g
                    energy += g * g
                }
            }
            aggregate(i, j, c, 1 / max(energy, 1e-6), &num, &den)
        }
        return zip(num, den).map { $0 / $1 }
    }

    @Test(
        "The SIMD plane denoiser equals REPORT §3 written out in Double (up to Float32 rounding), at block step 1 (version 3) and 2 (version 4), for odd and even sizes",
        arguments: [
            (DCT4PlaneDenoiser.BlockStep.every, 13, 29), (.alternate, 13, 29), (.alternate, 14, 30), (.alternate, 4, 4),
            (.alternate, 17, 37),
        ])
    func planeMatchesReference(step: DCT4PlaneDenoiser.BlockStep, rows: Int, columns: Int) throws {
        var rng = SeededRandom(seed: 7)
        let plane = (0..<(rows * columns)).map { i in
            20 + 6 * sin(Double(i % columns) / 3) + (i / columns > 6 ? 8 : 0) + NoiseScenes.gaussian(&rng)
        }
        let reference = Self.referenceDenoise(plane, rows: rows, columns: columns, amount: 1, step: step == .every ? 1 : 2)
        let denoiser = try DCT4PlaneDenoiser(maxRows: 20, maxColumns: 40)
        for r in 0..<rows {
            let row = denoiser.inputRow(r)
            for c in 0..<columns { row[c] = Float(plane[r * columns + c]) }
        }
        denoiser.denoise(rows: rows, columns: columns, amount: 1, blockStep: step)
        var worst = 0.0
        for r in 0..<rows {
            let z = denoiser.outputRow(r)
            for c in 0..<columns { worst = max(worst, abs(Double(z[c]) - reference[r * columns + c])) }
        }
        #expect(worst < 1e-3, "largest difference \(worst) (noise σ is 1)")
        // The noise is reduced: the error against the noise-free plane falls well below σ = 1.
        let clean = (0..<(rows * columns)).map { i in 20 + 6 * sin(Double(i % columns) / 3) + (i / columns > 6 ? 8 : 0) }
        let before = zip(plane, clean).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        let after = zip(reference, clean).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        #expect(after < 0.5 * before, "squared error \(before) → \(after)")
    }

    /// Denoises the window (x0, y0, x1, y1) of the `width` × `height` linearized mosaic
    /// `original` on its own and counts the samples of its valid part (``MosaicNoiseReduction/halo(_:)``
    /// from each cut edge) that differ from the full frame's `full`.
    static func windowMismatches(
        _ window: (Int, Int, Int, Int), of original: [Float], width w: Int, height h: Int, against full: [Float],
        nr: MosaicNoiseReduction, profile: CFANoiseProfile, step: DCT4PlaneDenoiser.BlockStep, pilot: MosaicNoiseReduction.Pilot
    ) -> Int {
        let (x0, y0, x1, y1) = window
        var part = [Float](repeating: 0, count: (x1 - x0) * (y1 - y0))
        for r in y0..<y1 { for c in x0..<x1 { part[(r - y0) * (x1 - x0) + c - x0] = original[r * w + c] } }
        part.withUnsafeMutableBufferPointer { b in
            nr.denoise(
                MosaicWindow(x: x0, y: y0, width: x1 - x0, height: y1 - y0, stride: x1 - x0, samples: b.baseAddress!), profile: profile,
                amount: 1, blockStep: step, pilot: pilot)
        }
        let m = MosaicNoiseReduction.halo(pilot)
        var mismatches = 0
        for r in (y0 == 0 ? 0 : y0 + m)..<(y1 == h ? h : y1 - m) {
            for c in (x0 == 0 ? 0 : x0 + m)..<(x1 == w ? w : x1 - m) where part[(r - y0) * (x1 - x0) + c - x0] != full[r * w + c] {
                mismatches += 1
            }
        }
        return mismatches
    }

    @Test(
        "A window of the mosaic denoises bit-identically to the full frame inside its valid part (12 photosites from cut edges); at block step 2 for windows on the grid (rows multiples of 4, columns of 32)",
        arguments: [DCT4PlaneDenoiser.BlockStep.every, .alternate])
    func windowsEqualFullFrame(step: DCT4PlaneDenoiser.BlockStep) throws {
        // 4400 photosites wide: a plane of 2200 samples runs in three column strips.
        let (w, h) = (4400, 150)
        let (mosaic, profile, nr, full) = try NoiseScenes.denoisedFrame(width: w, height: h, electrons: 1667, period: 200, step: step)
        let original = NoiseScenes.linear(mosaic)
        #expect(zip(full, original).contains { $0 != $1 }, "noise reduction changed nothing")
        // Windows with cut edges on every side, at the image borders, odd and even rows.
        let windows =
            step == .every
            ? [(32, 20, 160, 90), (0, 0, 96, 64), (48, 57, 200, 150), (16, 1, 130, 149), (2032, 30, 4400, 150), (0, 60, 2090, 120)]
            : [(32, 20, 160, 90), (0, 0, 96, 64), (64, 56, 200, 150), (32, 4, 130, 149), (2016, 28, 4400, 150), (0, 60, 2091, 121)]
        for window in windows {
            let mismatches = Self.windowMismatches(
                window, of: original, width: w, height: h, against: full, nr: nr, profile: profile, step: step, pilot: .perPlane)
            #expect(mismatches == 0, "window \(window): \(mismatches) samples differ from the full frame")
        }
    }

    @Test(
        "Version 7's joint pilot: a window denoises bit-identically to the full frame inside its valid part (14 photosites from cut edges), for windows ending on odd and even rows and columns, frames whose planes differ by a column (one strip fewer in one plane) and by a row",
        arguments: [(4400, 150), (4097, 133)])
    func jointWindowsEqualFullFrame(width w: Int, height h: Int) throws {
        let (mosaic, profile, nr, full) = try NoiseScenes.denoisedFrame(
            width: w, height: h, electrons: 1667, period: 200, step: .alternate, pilot: .jointCFA)
        let original = NoiseScenes.linear(mosaic)
        #expect(zip(full, original).contains { $0 != $1 }, "noise reduction changed nothing")
        // Cut ends at every residue the joint blocks care about (x1, y1 ≡ 7 mod 8 among them).
        let windows = [
            (32, 20, 160, 90), (0, 0, 96, 64), (64, 56, 207, 143), (32, 4, 135, h), (2016, 28, w, h), (0, 60, 2095, 127),
            (1024, 0, 3071, 101),
        ].map { ($0.0, $0.1, min($0.2, w), min($0.3, h)) }
        for window in windows {
            let mismatches = Self.windowMismatches(
                window, of: original, width: w, height: h, against: full, nr: nr, profile: profile, step: .alternate, pilot: .jointCFA)
            #expect(mismatches == 0, "window \(window): \(mismatches) samples differ from the full frame")
        }
    }

    /// The joint pilot written out in Double: non-overlapping 4×4 blocks from plane row
    /// `gridOrigin`, rows and columns whole-sample mirrored, each plane's 2-D DCT-II, the 2×2
    /// cell's Haar transform across the planes, coefficients at or under 2.5 set to 0 except the
    /// sum's DC, and back.
    static func referenceJointPilot(_ planes: [[Double]], rows: [Int], columns: [Int], gridOrigin: Int) -> [[Double]] {
        let d = Self.referenceDCT
        let mirror = Self.referenceMirror
        var out = (0..<4).map { [Double](repeating: 0, count: rows[$0] * columns[$0]) }
        var r0 = gridOrigin
        while r0 < rows.max()! {
            var c0 = 0
            while c0 < columns.max()! {
                // c[k][u][v]
                var c = [[[Double]]](repeating: [[Double]](repeating: [0, 0, 0, 0], count: 4), count: 4)
                for k in 0..<4 {
                    for u in 0..<4 {
                        for v in 0..<4 {
                            var sum = 0.0
                            for i in 0..<4 {
                                for j in 0..<4 {
                                    let x = planes[k][mirror(r0 + i, rows[k]) * columns[k] + mirror(c0 + j, columns[k])]
                                    sum += d[u][i] * d[v][j] * x
                                }
                            }
                            c[k][u][v] = sum
                        }
                    }
                }
                let haar: [[Double]] = [[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]]
                var h = c
                for u in 0..<4 {
                    for v in 0..<4 {
                        for a in 0..<4 {
                            var s = 0.0
                            for k in 0..<4 { s += 0.5 * haar[a][k] * c[k][u][v] }
                            h[a][u][v] = (a == 0 && u == 0 && v == 0) || abs(s) > 2.5 ? s : 0
                        }
                    }
                }
                for k in 0..<4 {
                    for i in 0..<4 {
                        for j in 0..<4 {
                            let r = r0 + i
                            let col = c0 + j
                            guard r >= 0, r < rows[k], col < columns[k] else { continue }
                            var x = 0.0
                            for u in 0..<4 {
                                for v in 0..<4 {
                                    var back = 0.0
                                    for a in 0..<4 { back += 0.5 * haar[a][k] * h[a][u][v] }
                                    x += d[u][i] * d[v][j] * back
                                }
                            }
                            out[k][r * columns[k] + col] = x
                        }
                    }
                }
                c0 += 4
            }
            r0 += 4
        }
        return out
    }

    @Test(
        "The joint pilot equals its definition written out in Double (up to Float32 rounding), for planes of equal sizes and planes a row and a column apart, on the grid and two rows off it",
        arguments: [(13, 29, 0), (14, 30, -2), (11, 37, 0), (9, 11, -2)])
    func jointPilotMatchesReference(rows: Int, columns: Int, gridOrigin: Int) throws {
        var rng = SeededRandom(seed: 11)
        // Planes 0 and 1 one row taller than 2 and 3 when `rows` is odd; 0 and 2 one column wider.
        let sizes = (0..<4).map { k in (rows - (rows % 2 == 1 && k >= 2 ? 1 : 0), columns - (columns % 2 == 1 && k % 2 == 1 ? 1 : 0)) }
        let planes = sizes.map { size in
            (0..<(size.0 * size.1)).map { i in
                20 + 6 * sin(Double(i % size.1) / 3) + (i / size.1 > 4 ? 8 : 0) + NoiseScenes.gaussian(&rng)
            }
        }
        let spaces = try (0..<4).map { _ in try DCT4PlaneDenoiser(maxRows: 20, maxColumns: 40) }
        for k in 0..<4 {
            for r in 0..<sizes[k].0 {
                let row = spaces[k].inputRow(r)
                for c in 0..<sizes[k].1 { row[c] = Float(planes[k][r * sizes[k].1 + c]) }
            }
            spaces[k].extendInputColumns(rows: 0..<sizes[k].0, columns: sizes[k].1)
        }
        let planeRows = SIMD4(sizes[0].0, sizes[1].0, sizes[2].0, sizes[3].0)
        let planeColumns = SIMD4(sizes[0].1, sizes[1].1, sizes[2].1, sizes[3].1)
        JointCFAPilot.make(
            blockRows: 0..<((planeRows.max() - gridOrigin + 3) / 4), gridOrigin: gridOrigin, rows: planeRows, columns: planeColumns,
            amount: 1, noiseScales: SIMD16(repeating: 1), input: { k, r in UnsafePointer(spaces[k].inputRow(r)) },
            output: { k, r in spaces[k].pilotRow(r) })
        let reference = Self.referenceJointPilot(
            planes, rows: sizes.map(\.0), columns: sizes.map(\.1), gridOrigin: gridOrigin)
        var worst = 0.0
        var changed = false
        for k in 0..<4 {
            for r in 0..<sizes[k].0 {
                let row = spaces[k].pilotRow(r)
                for c in 0..<sizes[k].1 {
                    worst = max(worst, abs(Double(row[c]) - reference[k][r * sizes[k].1 + c]))
                    changed = changed || abs(Double(row[c]) - planes[k][r * sizes[k].1 + c]) > 0.5
                }
            }
        }
        #expect(worst < 1e-3, "largest difference \(worst) (noise σ is 1)")
        #expect(changed, "the pilot equals the noisy planes")
    }

    @Test(
        "Column strips run as separate items give each plane exactly as denoising it whole in one workspace",
        arguments: [DCT4PlaneDenoiser.BlockStep.every, .alternate])
    func stripsEqualWholePlane(step: DCT4PlaneDenoiser.BlockStep) throws {
        // 4400 × 90: planes of 2200 columns, three strips each (two boundaries).
        let (w, h) = (4400, 90)
        let (mosaic, profile, _, strips) = try NoiseScenes.denoisedFrame(width: w, height: h, electrons: 833, period: 300, step: step)
        // The reference: each plane stabilized, denoised and inverted whole, with no strips.
        var whole = NoiseScenes.linear(mosaic)
        for position in 0..<4 {
            let vst = GeneralizedAnscombe(profile.planes[position])
            let r0 = position >> 1
            let c0 = position & 1
            let rows = (h - r0 + 1) / 2
            let columns = (w - c0 + 1) / 2
            let plane = try DCT4PlaneDenoiser(maxRows: rows, maxColumns: columns)
            whole.withUnsafeMutableBufferPointer { b in
                for r in 0..<rows {
                    vst.forward(everyOther: b.baseAddress! + (r0 + 2 * r) * w + c0, count: columns, into: plane.inputRow(r))
                }
                plane.denoise(rows: rows, columns: columns, amount: 1, blockStep: step)
                for r in 0..<rows { vst.inverse(plane.outputRow(r), count: columns, everyOther: b.baseAddress! + (r0 + 2 * r) * w + c0) }
            }
        }
        let differing = zip(strips, whole).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) samples differ from the whole-plane run")
        #expect(whole != NoiseScenes.linear(mosaic), "noise reduction changed nothing")
    }

    @Test(
        "Stabilizing the codes themselves gives the linearized window's denoised samples bit for bit (cut windows at odd and even offsets, both block steps and version 7's joint pilot, three strips, codes below black, a plane in the Gaussian limit); with a plane to leave as it is, or tables of another profile, it declines and touches nothing",
        arguments: [
            (DCT4PlaneDenoiser.BlockStep.every, MosaicNoiseReduction.Pilot.perPlane), (.alternate, .perPlane), (.alternate, .jointCFA),
        ])
    func codesEqualLinearizedWindow(step: DCT4PlaneDenoiser.BlockStep, pilot: MosaicNoiseReduction.Pilot) throws {
        let (w, h) = (4400, 96)
        // A dark band (codes at and below black, where the stabilizing transform clamps) across
        // the smooth scene.
        var (mosaic, model) = try NoiseScenes.mosaic(width: w, height: h, electrons: 1667, seed: 7) { x, y, c in
            x % 700 < 60 ? 0 : NoiseScenes.smooth(x % 300, y, c, width: 300, height: h)
        }
        // Black levels that differ by position, so each table must be its own position's.
        mosaic.blackLevel = [512, 500, 520, 508]
        let gaussian = NoiseModel(scale: model.offset * 1e-4, offset: model.offset)
        #expect(GeneralizedAnscombe(gaussian).isGaussian)
        let profile = CFANoiseProfile(planes: [model, NoiseModel(scale: model.scale * 1.2, offset: model.offset), model, gaussian])
        let codes = StabilizedCodes(layout: mosaic.layout, profile: profile)
        let nr = try MosaicNoiseReduction(maxWidth: w, maxHeight: h, workers: 2)
        try mosaic.samples.withUnsafeBufferPointer { s in
            let rows = MosaicRows(whole: try #require(s.baseAddress), width: w, height: h)
            for (x0, y0, x1, y1) in [(0, 0, w, h), (32, 4, 4000, 90), (33, 5, 2084, 91), (64, 8, 300, 40)] {
                let (ww, wh) = (x1 - x0, y1 - y0)
                // The window path: the develop's own linearize, then the noise reduction.
                var linearized = [Float](repeating: .nan, count: ww * wh)
                linearized.withUnsafeMutableBufferPointer { b in
                    let window = MosaicWindow(x: x0, y: y0, width: ww, height: wh, stride: ww, samples: b.baseAddress!)
                    DenoisedMosaic.linearize(mosaic.layout, from: rows, into: window)
                }
                let original = linearized
                linearized.withUnsafeMutableBufferPointer { b in
                    nr.denoise(
                        MosaicWindow(x: x0, y: y0, width: ww, height: wh, stride: ww, samples: b.baseAddress!), profile: profile, amount: 1,
                        blockStep: step, pilot: pilot)
                }
                #expect(linearized != original, "window \(x0),\(y0): noise reduction changed nothing")
                var fromCodes = [Float](repeating: .nan, count: ww * wh)
                let done = fromCodes.withUnsafeMutableBufferPointer { b in
                    nr.denoise(
                        MosaicWindow(x: x0, y: y0, width: ww, height: wh, stride: ww, samples: b.baseAddress!), codes: rows,
                        stabilized: codes,
                        profile: profile, amount: 1, blockStep: step, pilot: pilot)
                }
                #expect(done)
                let differing = zip(fromCodes, linearized).filter { $0.bitPattern != $1.bitPattern }.count
                #expect(differing == 0, "window \(x0),\(y0)–\(x1),\(y1): \(differing) samples differ from the linearized window's")
            }
            // A noise-free plane is left linearized, which only the window path can do; tables
            // made for another profile are not used.
            let partial = CFANoiseProfile(planes: [model, .zero, model, model])
            for (tables, asked) in [
                (StabilizedCodes(layout: mosaic.layout, profile: partial), partial), (codes, CFANoiseProfile(uniform: model)),
            ] {
                var untouched = [Float](repeating: 7, count: 64 * 64)
                let declined = untouched.withUnsafeMutableBufferPointer { b in
                    !nr.denoise(
                        MosaicWindow(x: 0, y: 0, width: 64, height: 64, stride: 64, samples: b.baseAddress!), codes: rows,
                        stabilized: tables,
                        profile: asked, amount: 1, blockStep: step)
                }
                #expect(declined && untouched.allSatisfy { $0 == 7 })
            }
        }
    }

    @Test(
        "On a flat noisy field the noise falls more than 4× in σ and the level stays unbiased; amount 0 and a noise-free profile leave the mosaic untouched"
    )
    func flatField() throws {
        let (w, h) = (128, 128)
        for electrons in [1667.0, 833.0] {
            let (mosaic, model) = try NoiseScenes.mosaic(width: w, height: h, electrons: electrons, seed: UInt64(electrons)) { _, _, _ in
                0.18
            }
            var x = NoiseScenes.linear(mosaic)
            let before = Self.stats(x)
            let nr = try MosaicNoiseReduction(maxWidth: w, maxHeight: h, workers: 2)
            x.withUnsafeMutableBufferPointer { b in
                nr.denoise(
                    MosaicWindow(x: 0, y: 0, width: w, height: h, stride: w, samples: b.baseAddress!),
                    profile: CFANoiseProfile(uniform: model), amount: 1)
            }
            let after = Self.stats(x)
            #expect(after.sigma * 4 < before.sigma, "σ \(before.sigma) → \(after.sigma)")
            #expect(abs(after.mean - 0.18) < 0.002, "mean \(after.mean)")
            for (profile, amount) in [(CFANoiseProfile(uniform: model), Float(0)), (.noiseFree, 1)] {
                var y = NoiseScenes.linear(mosaic)
                y.withUnsafeMutableBufferPointer { b in
                    nr.denoise(
                        MosaicWindow(x: 0, y: 0, width: w, height: h, stride: w, samples: b.baseAddress!), profile: profile, amount: amount)
                }
                #expect(y == NoiseScenes.linear(mosaic))
            }
        }
    }

    static func stats(_ x: [Float]) -> (mean: Double, sigma: Double) {
        let mean = x.reduce(0.0) { $0 + Double($1) } / Double(x.count)
        let variance = x.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(x.count)
        return (mean, variance.squareRoot())
    }

    @Test("The DNG NoiseProfile maps to Bayer positions: one pair for all, three pairs by CFA colour; unusable ones are refused")
    func profileFromDNG() {
        let one = CFANoiseProfile(dng: [(2e-4, 1e-6)], cfaPattern: [0, 1, 1, 2])
        #expect(one?.planes == [NoiseModel](repeating: NoiseModel(scale: 2e-4, offset: 1e-6), count: 4))
        let three = CFANoiseProfile(dng: [(1e-4, 1e-6), (2e-4, 2e-6), (3e-4, 3e-6)], cfaPattern: [1, 0, 2, 1])
        #expect(three?.planes.map(\.scale) == [2e-4, 1e-4, 3e-4, 2e-4])
        #expect(CFANoiseProfile(dng: [(0, 0)], cfaPattern: [0, 1, 1, 2])?.hasNoise == false)
        #expect(CFANoiseProfile(dng: [], cfaPattern: [0, 1, 1, 2]) == nil)
        #expect(CFANoiseProfile(dng: [(1, 0), (1, 0)], cfaPattern: [0, 1, 1, 2]) == nil)
        #expect(CFANoiseProfile(dng: [(.nan, 0)], cfaPattern: [0, 1, 1, 2]) == nil)
        #expect(CFANoiseProfile(dng: [(-1, 1e-6)], cfaPattern: [0, 1, 1, 2]) == nil)
        #expect(CFANoiseProfile(dng: [(1e300, 1e-6)], cfaPattern: [0, 1, 1, 2]) == nil)
    }

    @Test("The variance-stabilizing transform gives unit noise and inverts; the Gaussian limit stays exact in Float32")
    func anscombe() {
        let model = NoiseModel(scale: 6e-4, offset: 3.2e-6)
        let vst = GeneralizedAnscombe(model)
        for x: Float in [0.01, 0.18, 0.9] {
            let slope = (vst.forward(x + 1e-4) - vst.forward(x - 1e-4)) / 2e-4
            #expect(
                abs(slope * Float(model.sigma(at: Double(x))) - 1) < 0.02,
                "σ after the VST at \(x): \(slope * Float(model.sigma(at: Double(x))))")
            #expect(abs(vst.inverse(vst.forward(x)) - x) < 2e-4)
        }
        let gaussian = GeneralizedAnscombe(NoiseModel(scale: 0, offset: 1e-6))
        #expect(gaussian.isGaussian && abs(gaussian.forward(0.5) - 500) < 1e-3 && abs(gaussian.inverse(500) - 0.5) < 1e-6)
    }

    @Test("Workspaces of hostile sizes are refused before allocation")
    func hostileSizes() {
        #expect(throws: DaguerreError.self) { _ = try DCT4PlaneDenoiser(maxRows: 1 << 40, maxColumns: 1 << 40) }
        #expect(throws: DaguerreError.self) { _ = try DCT4PlaneDenoiser(maxRows: 0, maxColumns: 10) }
        #expect(throws: DaguerreError.self) { _ = try MosaicNoiseReduction(maxWidth: Int.max, maxHeight: 2, workers: 2) }
    }
}

/// The noise estimate for files without a NoiseProfile.
@Suite struct NoiseEstimatorTests {
    @Test(
        "On a synthetic Poisson–Gaussian mosaic (ISO 1600- and 3200-like) the estimated σ is within 15 % of the truth at levels 0.05, 0.18 and 0.5 in every plane; a noise-free mosaic gives a negligible profile"
    )
    func estimate() throws {
        let (w, h) = (1024, 768)
        for electrons in [1667.0, 833.0] {
            let (mosaic, truth) = try NoiseScenes.mosaic(width: w, height: h, electrons: electrons, seed: 3) { x, y, c in
                NoiseScenes.smooth(x, y, c, width: w, height: h)
            }
            let estimate = NoiseEstimator.estimate(mosaic, region: IntRect(x: 0, y: 0, width: w, height: h))
            for (p, model) in estimate.planes.enumerated() {
                for level in [0.05, 0.18, 0.5] {
                    let ratio = model.sigma(at: level) / truth.sigma(at: level)
                    #expect(
                        abs(ratio - 1) < 0.15,
                        "\(electrons) e⁻, plane \(p), level \(level): σ estimated \(model.sigma(at: level)), true \(truth.sigma(at: level))"
                    )
                }
            }
        }
        let (clean, _) = try NoiseScenes.mosaic(width: w, height: h, electrons: 0) { x, y, c in
            NoiseScenes.smooth(x, y, c, width: w, height: h)
        }
        let estimate = NoiseEstimator.estimate(clean, region: IntRect(x: 0, y: 0, width: w, height: h))
        #expect(estimate.isNegligible(), "noise-free mosaic: \(estimate.planes)")
        // Too small to estimate: no noise reduction.
        #expect(!NoiseEstimator.estimate(clean, region: IntRect(x: 0, y: 0, width: 20, height: 20)).hasNoise)
    }

    @Test(
        "A mosaic whose planes exceed the bound is read in evenly spread bands of two rows of blocks (as a 24 MP one is) and still estimates σ within 15 % of the truth; planes within the bound use every block; the mosaic still in its DNG, decoded only in those bands, gives the same estimate bit for bit"
    )
    func sampledBands() throws {
        let (w, h) = (1024, 768)
        let whole = IntRect(x: 0, y: 0, width: w, height: h)
        let (mosaic, truth) = try NoiseScenes.mosaic(width: w, height: h, electrons: 1667, seed: 5) { x, y, c in
            NoiseScenes.smooth(x, y, c, width: w, height: h)
        }
        // 64 × 48 blocks a plane, 128 in a band of 34 rows: a bound of 1 536 reads 12 of the 23
        // bands that fit.
        let area = try #require(NoiseEstimator.Area(whole, width: w, height: h))
        let tops = [0, 32, 96, 160, 224, 288, 352, 416, 480, 544, 608, 672]
        #expect(area.bands(maxBlocks: 1536) == tops.map { $0..<($0 + 34) })
        #expect(area.bands(maxBlocks: 64 * 48) == nil)
        let all = NoiseEstimator.estimate(mosaic, region: whole)
        let sampled = NoiseEstimator.estimate(mosaic, region: whole, maxBlocks: 1536)
        let band = try #require(area.clipped(to: 224..<258))
        #expect((0..<4).map { band.plane(position: $0).blockRows } == [2, 2, 2, 2])
        #expect((0..<4).map { band.plane(position: $0).blockColumns } == [64, 64, 64, 64])
        for p in 0..<4 {
            for level in [0.05, 0.18, 0.5] {
                // About 1 500 blocks a plane here (a 24 MP plane keeps about 25 000), so the bins
                // are small.
                let s = sampled.planes[p].sigma(at: level)
                let t = truth.sigma(at: level)
                #expect(abs(s / t - 1) < 0.15, "plane \(p), level \(level): σ sampled \(s), true \(t)")
            }
        }
        #expect(NoiseEstimator.estimate(mosaic, region: whole, maxBlocks: 64 * 48).planes == all.planes)
        // In its file (16-row strips): only the bands' strips are decoded, to the same blocks.
        let bytes = try DNGWriter.data(for: DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre Estimate Test"), compression: .none)
        guard case .storedMosaic(let stored) = try DNGReader.open(bytes: bytes).rawData else {
            throw Judge.Failure(description: "the DNG's mosaic was decoded on opening, not left in the file")
        }
        let fromFile = try #require(try NoiseEstimator.estimate(stored, region: whole, limits: .default, maxBlocks: 1536))
        #expect(fromFile.planes == sampled.planes)
        #expect(try NoiseEstimator.estimate(stored, region: whole, limits: .default) == nil, "within the bound: read whole")
    }

    @Test(
        "On a synthetic Poisson–Gaussian X-Trans mosaic the estimate (one model for the three colours, from the 2×2 squares of adjacent greens in every 3×3 block) is within 15 % of the true σ at levels 0.05, 0.18 and 0.5; a noise-free one gives a negligible profile"
    )
    func xTransEstimate() throws {
        // Every X-Trans layout (from any origin) has its squares of greens: each sample green.
        for shift in 0..<36 {
            let pattern = XTransPattern.standard.shifted(x: shift % 6, y: shift / 6)
            let squares = try #require(NoiseEstimator.Lattice(xTransGreenSquares: pattern))
            #expect(squares.period == 3 && squares.pairs)
            for k in 0..<8 {
                for j in 0..<8 {
                    #expect(pattern.color(x: squares.phaseX + squares.offset(k), y: squares.phaseY + squares.offset(j)) == 1)
                }
            }
        }
        let (w, h) = (1536, 1152)
        let whole = IntRect(x: 0, y: 0, width: w, height: h)
        for electrons in [1667.0, 833.0] {
            let (mosaic, truth) = try NoiseScenes.mosaic(width: w, height: h, electrons: electrons, seed: 7, xTrans: true) { x, y, c in
                NoiseScenes.smooth(x, y, c, width: w, height: h)
            }
            let estimate = NoiseEstimator.estimate(xTrans: mosaic, pattern: .standard, region: whole)
            #expect(estimate.planes[1] == estimate.planes[3], "planes R, G, B, G")
            for (color, model) in estimate.planes.prefix(3).enumerated() {
                for level in [0.05, 0.18, 0.5] {
                    let ratio = model.sigma(at: level) / truth.sigma(at: level)
                    #expect(
                        abs(ratio - 1) < 0.15,
                        "\(electrons) e⁻, colour \(color), level \(level): σ estimated \(model.sigma(at: level)), true \(truth.sigma(at: level))"
                    )
                }
            }
        }
        let (clean, _) = try NoiseScenes.mosaic(width: w, height: h, electrons: 0, xTrans: true) { x, y, c in
            NoiseScenes.smooth(x, y, c, width: w, height: h)
        }
        let estimate = NoiseEstimator.estimate(xTrans: clean, pattern: .standard, region: whole)
        #expect(estimate.isNegligible(), "noise-free mosaic: \(estimate.planes)")
    }
}
