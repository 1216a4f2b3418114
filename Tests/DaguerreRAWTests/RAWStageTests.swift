import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreRAW
import DaguerreTestSupport
import Foundation
import Testing

/// The stages after the demosaic (SPEC X3, X4, X7): highlights, lens correction,
/// scale and draft, orientation, the linear hook and the look. Each is checked for what it must
/// do to pixels, not only that it runs.
@Suite struct RAWStageTests {
    /// A 14-bit RGGB DNG whose photosite values (0…1 of the range above black) come from `f(x, y, colour)`.
    static func dng(
        width w: Int = 96, height h: Int = 64, neutral: [Double] = [0.62, 1, 0.55],
        _ f: (Int, Int, Int) -> Double
    ) throws -> DNGImage {
        var mosaic = try BayerImage(width: w, height: h, pattern: .rggb, bitsPerSample: 14)
        mosaic.blackLevel = [512, 512, 512, 512]
        mosaic.whiteLevel = 16383
        for y in 0..<h {
            for x in 0..<w {
                let v = min(max(f(x, y, mosaic.pattern.color(x: x, y: y)), 0), 1)
                mosaic.samples[y * w + x] = UInt16(512 + (v * Double(16383 - 512)).rounded())
            }
        }
        var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre Stage Test Camera")
        let base = try RAWDevelopTests.fixedDNG()
        dng.color = base.color
        dng.color.asShotNeutral = neutral
        dng.color.baselineExposure = 0
        return dng
    }

    /// Mean linear RGB (extended sRGB) of a box of a rendered image.
    static func mean(_ image: Image, x: Range<Int>, y: Range<Int>) throws -> SIMD3<Double> {
        try LinearPixels(image).mean(x: x, y: y)
    }
    static func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        max(abs(a.x - b.x), max(abs(a.y - b.y), abs(a.z - b.z)))
    }
    static func cast(_ v: SIMD3<Double>) -> Double { v.max() / max(v.min(), 1e-9) }

    @Test(
        "Clipped highlights: version 2 turns a saturated patch magenta; version 3 makes it neutral, and recovery keeps the brightness the unclipped channels see"
    )
    func highlights() throws {
        // Left: every photosite at the white level. Right: green clipped, red and blue at 0.8
        // (white-balanced 1.29 and 1.45, above green's clip at 1). Around them, mid grey.
        let dng = try Self.dng { x, y, c in
            let inside = (16..<40).contains(y)
            if inside, (12..<36).contains(x) { return 1 }
            if inside, (56..<80).contains(x) { return c == 1 ? 1 : 0.8 }
            return [0.62, 1, 0.55][c] * 0.3
        }
        var raw = try RAWFilter(dng: dng)
        raw.decoderVersion = "2"
        let (box, partialBox, rows) = (14..<34, 58..<78, 18..<38)
        let v2 = try Self.mean(raw.outputImage(), x: box, y: rows)
        raw.decoderVersion = "3"
        let full = try Self.mean(raw.outputImage(), x: box, y: rows)
        let partial = try Self.mean(raw.outputImage(), x: partialBox, y: rows)
        raw.highlightRecoveryAmount = 0
        let clipped = try Self.mean(raw.outputImage(), x: partialBox, y: rows)
        print(
            "highlights: v2 saturated \(v2) cast \(Self.cast(v2)); v3 saturated \(full); partial recovered \(partial) vs clipped \(clipped)"
        )
        #expect(Self.cast(v2) > 1.3, "version 2 keeps its magenta highlights (X5): \(v2)")
        #expect(Self.cast(full) < 1.03, "saturated patch neutral: \(full)")
        #expect(Self.cast(partial) < 1.05 && Self.cast(clipped) < 1.05, "\(partial) \(clipped)")
        #expect(partial.min() > clipped.max() * 1.15, "recovery brings back brightness above the clip: \(partial) vs \(clipped)")
    }

    @Test(
        "Scale ½ develops at half size (one pixel per 2×2 photosites) and agrees with the full develop downscaled; other scales by Lanczos")
    func scale() throws {
        let dng = try Self.dng(width: 128, height: 96) { x, y, c in
            0.2 + 0.5 * Double(x) / 128 * [1, 0.7, 0.4][c] + 0.2 * Double(y) / 96
        }
        var raw = try RAWFilter(dng: dng)
        let full = try raw.outputImage()
        raw.scaleFactor = 0.5
        let half = try raw.outputImage()
        #expect(half.extent.width == full.extent.width / 2 && half.extent.height == full.extent.height / 2)
        raw.scaleFactor = 0.75
        let threeQuarters = try raw.outputImage()
        #expect(abs(threeQuarters.extent.width - full.extent.width * 0.75) <= 1)
        let a = try Self.mean(half, x: 10..<50, y: 10..<30)
        let downscaled = try full.applying(LanczosScaleTransform(scale: 0.5))
        let b = try Self.mean(downscaled, x: 10..<50, y: 10..<30)
        #expect(Self.maxDifference(a, b) < 0.01, "half-size \(a) vs downscaled \(b)")
        raw.scaleFactor = 0
        #expect(throws: DaguerreError.self) { _ = try raw.outputImage() }
    }

    @Test("Draft re-renders after an exposure change read the developed base from the context's cache (X7)")
    func draftCache() throws {
        var raw = try RAWFilter(dng: try RAWDevelopTests.fixedDNG())
        raw.isDraftModeEnabled = true
        raw.scaleFactor = 0.5
        let context = try Context()
        _ = try context.createBuffer(try raw.outputImage(), format: .rgba8)
        raw.exposure = 1
        _ = try context.createBuffer(try raw.outputImage(), format: .rgba8)
        // One cached intermediate, the camera RGB: no photosite of this DNG reaches the white
        // level, so the highlight inputs are left out (RAWDraftTests has the case with them).
        let hits = context.lastRenderReport?.cacheHits
        #expect(hits == 1)
    }

    @Test("Orientation comes from the file and turns the output exactly (no resampling)")
    func orientation() throws {
        var dng = try RAWDevelopTests.fixedDNG()
        dng.metadata.orientation = 6
        var raw = try RAWFilter(dng: dng)
        #expect(raw.orientation == 6)
        // A float working format: the turn stores an intermediate, which half floats would round.
        let context = try Context(options: .init(workingFormat: .rgbaf))
        let turned = try context.createBuffer(try raw.outputImage(), format: .rgba16)
        raw.orientation = 1
        let upright = try context.createBuffer(try raw.outputImage(), format: .rgba16)
        #expect(turned.width == upright.height && turned.height == upright.width)
        // Orientation 6: the stored top-left pixel shows at the top-right.
        let a = tight(upright)
        let b = tight(turned)
        for (ux, uy) in [(0, 0), (5, 3), (upright.width - 1, upright.height - 1)] {
            let (tx, ty) = (turned.width - 1 - uy, ux)
            let pa = Array(a.bytes[(uy * a.width + ux) * 8..<(uy * a.width + ux) * 8 + 8])
            let pb = Array(b.bytes[(ty * b.width + tx) * 8..<(ty * b.width + tx) * 8 + 8])
            #expect(pa == pb, "upright (\(ux), \(uy)) vs turned (\(tx), \(ty))")
        }
    }

    @Test("The linear hook runs on linear light before exposure: doubling there equals +1 EV (X4)")
    func linearHook() throws {
        var raw = try RAWFilter(dng: try RAWDevelopTests.fixedDNG())
        raw.linearSpaceFilter = LinearSpaceFilter(ExposureAdjust(ev: 1))
        let hooked = try Self.mean(raw.outputImage(), x: 20..<60, y: 20..<60)
        raw.linearSpaceFilter = nil
        raw.exposure = 1
        let exposed = try Self.mean(raw.outputImage(), x: 20..<60, y: 20..<60)
        #expect(Self.maxDifference(hooked, exposed) < 2e-3, "\(hooked) vs \(exposed)")
    }

    @Test(
        "Look stages: boost lifts mid grey slightly and rolls highlights under 1, contrast spreads tones, local tone mapping narrows a bright/dark split, sharpening adds acutance"
    )
    func look() throws {
        // Left half dark (0.05), right half bright (0.6), with fine bars for sharpness.
        let dng = try Self.dng(width: 128, height: 64, neutral: [1, 1, 1]) { x, _, _ in
            (x < 64 ? 0.05 : 0.6) * ((x / 3) % 2 == 0 ? 1.1 : 0.9)
        }
        var raw = try RAWFilter(dng: dng)
        let dark = (8..<40)
        let bright = (80..<112)
        let rows = (16..<48)
        let base = (try Self.mean(raw.outputImage(), x: dark, y: rows), try Self.mean(raw.outputImage(), x: bright, y: rows))
        raw.boostAmount = 1
        let boosted = try Self.mean(raw.outputImage(), x: bright, y: rows)
        #expect(boosted.y < base.1.y && boosted.y > base.1.y * 0.7, "a shoulder, not a clip: \(boosted) from \(base.1)")
        raw.exposure = 2.5  // bright half at ~3.4: clipped without the curve
        let over = try Self.mean(raw.outputImage(), x: bright, y: rows)
        #expect(over.max() < 1.0, "the boost curve keeps highlights under 1: \(over)")
        raw.boostAmount = 0
        raw.exposure = 0
        raw.contrastAmount = 0.8
        let contrasty = (try Self.mean(raw.outputImage(), x: dark, y: rows), try Self.mean(raw.outputImage(), x: bright, y: rows))
        #expect(contrasty.1.y / contrasty.0.y > base.1.y / base.0.y * 1.2)
        raw.contrastAmount = 0
        raw.localToneMapAmount = 1
        let mapped = (try Self.mean(raw.outputImage(), x: dark, y: rows), try Self.mean(raw.outputImage(), x: bright, y: rows))
        let before = log2(base.1.y / base.0.y)
        let after = log2(mapped.1.y / mapped.0.y)
        print("local tone map: \(before) → \(after) stops between the halves")
        #expect(after < before * 0.8)
        raw.localToneMapAmount = 0
        raw.sharpnessAmount = 1
        func barContrast(_ r: RAWFilter) throws -> Double {
            let pixels = try LinearPixels(try r.outputImage())
            let values = (84..<108).map { pixels[x: $0, y: 30].y }
            return (values.max() ?? 0) - (values.min() ?? 0)
        }
        let sharp = try barContrast(raw)
        raw.sharpnessAmount = 0
        let soft = try barContrast(raw)
        #expect(sharp > soft * 1.1, "\(sharp) vs \(soft)")
    }

    @Test("A neutral picked on a grey patch sets the white balance that makes it develop neutral")
    func neutralPick() throws {
        // Left half a grey lit by a warm light (camera response 0.5, 0.35, 0.2), right half other colours.
        let dng = try Self.dng(width: 96, height: 64, neutral: [1, 1, 1]) { x, _, c in
            x < 48 ? [0.5, 0.35, 0.2][c] : [0.2, 0.4, 0.3][c]
        }
        var raw = try RAWFilter(dng: dng)
        try raw.setNeutralLocation(x: 20, y: 30)
        let grey = try Self.mean(raw.outputImage(), x: 10..<30, y: 20..<40)
        print("neutral pick: \(Int(raw.neutralTemperature)) K, tint \(raw.neutralTint); patch develops to \(grey)")
        #expect(Self.cast(grey) < 1.01, "\(grey)")
        #expect(throws: DaguerreError.self) { try raw.setNeutralLocation(x: 500, y: 3) }
    }

    @Test("A wide develop is demosaicked in column blocks: columns across a block boundary equal the same columns developed alone")
    func columnBlocks() throws {
        let (w, h) = (2300, 48)
        let dng = try Self.dng(width: w, height: h) { x, y, c in
            0.2 + 0.3 * Double((x * 7 + y * 13) % 17) / 17 * [1, 0.8, 0.6][c] + ((x / 3) % 2 == 0 ? 0.1 : 0)
        }
        let raw = try RAWFilter(dng: dng)
        let context = try LinearPixels.floatContext()
        let full = try LinearPixels(try raw.outputImage(), context: context)
        let band = Rect(x: 1000, y: 0, width: 60, height: Double(h))
        let alone = try LinearPixels(try raw.outputImage().cropped(to: band), context: context, bounds: band)
        #expect(full.differences(alone, atX: 1000, y: 0) == 0)
    }

    @Test("Colour noise reduction smooths chroma and keeps luminance")
    func colourNoise() throws {
        // Grey with photosite noise (no NoiseProfile: luminance NR off, so only the chroma stage acts).
        let dng = try Self.dng(width: 96, height: 96, neutral: [1, 1, 1]) { x, y, _ in
            var z = UInt64(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663) &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return 0.3 + 0.08 * (Double(z >> 11) / Double(1 << 53) - 0.5)
        }
        func stats(_ amount: Double) throws -> (chroma: Double, luma: Double) {
            var raw = try RAWFilter(dng: dng)
            raw.luminanceNoiseReductionAmount = 0
            raw.colorNoiseReductionAmount = amount
            let pixels = try LinearPixels(try raw.outputImage(), context: try LinearPixels.floatContext())
            var c2 = 0.0
            var l = 0.0
            var n = 0.0
            for y in 20..<76 {
                for x in 20..<76 {
                    let p = pixels[x: x, y: y]
                    let (dr, db) = (p.x - p.y, p.z - p.y)
                    c2 += dr * dr + db * db
                    l += pixels.luma(x: x, y: y)
                    n += 1
                }
            }
            return ((c2 / n).squareRoot(), l / n)
        }
        let off = try stats(0)
        let on = try stats(1)
        print("colour noise: chroma rms \(off.chroma) → \(on.chroma); mean luminance \(off.luma) → \(on.luma)")
        #expect(on.chroma < off.chroma / 2)
        #expect(abs(on.luma - off.luma) < 0.002 * off.luma)
    }

    @Test("Lens shading: OpcodeList2's GainMap is applied to the linearized mosaic, so a vignetted flat field develops flat")
    func gainMap() throws {
        let (w, h) = (128, 64)
        // Gains rise from 1 at the left edge to 2 at the right; the mosaic is a flat grey darkened by them.
        let map = DNGGainMap(top: 0, left: 0, bottom: h, right: w, pointsV: 1, pointsH: 2, gains: [1, 2])
        var dng = try Self.dng(width: w, height: h) { x, _, c in
            [0.62, 1, 0.55][c] * 0.4 / (1 + (Double(x) + 0.5) / Double(w))
        }
        dng.opcodeLists = [DNGOpcodeList(stage: .linearized, opcodes: [.gainMap(map)])]
        var raw = try RAWFilter(dng: dng)
        raw.luminanceNoiseReductionAmount = 0
        #expect(raw.isLensCorrectionEnabled)
        let left = try Self.mean(raw.outputImage(), x: 4..<12, y: 20..<40)
        let right = try Self.mean(raw.outputImage(), x: 116..<124, y: 20..<40)
        raw.isLensCorrectionEnabled = false
        let leftOff = try Self.mean(raw.outputImage(), x: 4..<12, y: 20..<40)
        let rightOff = try Self.mean(raw.outputImage(), x: 116..<124, y: 20..<40)
        print("gain map: right/left \(right.y / left.y) corrected, \(rightOff.y / leftOff.y) without")
        #expect(abs(right.y / left.y - 1) < 0.01)
        #expect(rightOff.y / leftOff.y < 0.6)
        // The draft paths apply the map too (X7): bilinear at full size, and the half-size develop.
        raw.isLensCorrectionEnabled = true
        raw.isDraftModeEnabled = true
        let draftLeft = try Self.mean(raw.outputImage(), x: 4..<12, y: 20..<40)
        let draftRight = try Self.mean(raw.outputImage(), x: 116..<124, y: 20..<40)
        raw.isDraftModeEnabled = false
        raw.scaleFactor = 0.5
        let halfLeft = try Self.mean(raw.outputImage(), x: 2..<6, y: 10..<20)
        let halfRight = try Self.mean(raw.outputImage(), x: 58..<62, y: 10..<20)
        print("gain map: right/left \(draftRight.y / draftLeft.y) draft, \(halfRight.y / halfLeft.y) half size")
        #expect(abs(draftRight.y / draftLeft.y - 1) < 0.01)
        #expect(abs(halfRight.y / halfLeft.y - 1) < 0.01)
    }

    @Test("The caller's size limits reach the develop: a develop larger than they allow is refused before it allocates")
    func limits() throws {
        let dng = try Self.dng(width: 96, height: 64) { _, _, c in [0.3, 0.4, 0.2][c] }
        let raw = try RAWFilter(dng: dng, limits: Limits(maxPixels: 1000))
        let e = try #require(throws: DaguerreError.self) { _ = try Context().createBuffer(try raw.outputImage(), format: .rgba8) }
        #expect(e.message.contains("developed RAW image"), "\(e.message)")
        _ = try Context().createBuffer(try RAWFilter(dng: dng).outputImage(), format: .rgba8)
    }

    @Test("Lens correction applies the file's WarpRectilinear as the opcode's own scalar reference does")
    func lensWarp() throws {
        var dng = try Self.dng(width: 128, height: 96) { x, y, c in
            let grid = (x / 8 + y / 8) % 2 == 0 ? 0.6 : 0.15
            return grid * [0.62, 1, 0.55][c]
        }
        dng.defaultCrop = nil
        let warp = DNGWarpRectilinear(planes: [.init(radial: [1, 0.06, 0, 0], tangential: [0, 0])])
        dng.opcodeLists = [DNGOpcodeList(stage: .demosaiced, opcodes: [.warpRectilinear(warp)])]
        var raw = try RAWFilter(dng: dng)
        #expect(raw.isLensCorrectionEnabled)
        let corrected = try LinearPixels(try raw.outputImage())
        raw.isLensCorrectionEnabled = false
        let plain = try LinearPixels(try raw.outputImage())
        let reference = warp.apply(to: plain.rgb, width: plain.width, height: plain.height, channels: 3)
        let ours = corrected.rgb
        let before = plain.rgb
        var worst: Float = 0
        var moved: Float = 0
        for i in ours.indices {
            worst = max(worst, abs(ours[i] - reference[i]))
            moved = max(moved, abs(reference[i] - before[i]))
        }
        print("lens warp: largest difference from the opcode's reference \(worst); largest change the warp makes \(moved)")
        #expect(moved > 0.1, "the warp moves pixels")
        #expect(worst < 0.01)
    }
}
