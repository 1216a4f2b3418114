import DaguerreCore
import DaguerreFormats
import DaguerreImage
import Foundation
import Testing

@testable import DaguerreRAW

/// Draft mode (SPEC X7): a Bayer DNG's draft develop is cached at display size in
/// camera RGB with its clip mask, and the white balance, highlight stage and matrix run after
/// the resample (`DraftBalance`). These tests hold that design to the full develop it stands
/// in for, and its clip mask to the plain scalar reference.
@Suite struct RAWDraftTests {
    /// Saturated and green-clipped patches on a grey ramp, plus single clipped photosites on a
    /// 29 × 31 grid (speculars), so the highlight inputs have edges and isolated points.
    static func highlightDNG(width w: Int = 160, height h: Int = 120) throws -> DNGImage {
        try RAWStageTests.dng(width: w, height: h) { x, y, c in
            let inside = (16..<72).contains(y)
            if inside, (12..<64).contains(x) { return 1 }
            if inside, (84..<140).contains(x) { return c == 1 ? 1 : 0.8 }
            if x % 29 == 5, y % 31 == 7 { return 1 }
            return [0.62, 1, 0.55][c] * (0.2 + 0.3 * Double(x) / Double(w))
        }
    }

    /// `dng` developed at `scale` in full quality, then in draft mode, both read as 32-bit floats;
    /// the two must have the same size.
    static func fullAndDraft(_ dng: DNGImage, scale: Double) throws -> (full: LinearPixels, draft: LinearPixels) {
        var raw = try RAWFilter(dng: dng)
        raw.scaleFactor = scale
        let context = try LinearPixels.floatContext()
        let full = try LinearPixels(try raw.outputImage(), context: context)
        raw.isDraftModeEnabled = true
        let draft = try LinearPixels(try raw.outputImage(), context: context)
        #expect(draft.width == full.width && draft.height == full.height)
        return (full, draft)
    }

    @Test(
        "At the half-size develop's own scale, the draft equals the full-quality half-size develop, highlights included (no resample between: the mask is 0 or 1)"
    )
    func draftAtHalfSizeEqualsTheHalfSizeDevelop() throws {
        let (full, draft) = try Self.fullAndDraft(try Self.highlightDNG(), scale: 0.5)
        var worst: Float = 0
        for (a, b) in zip(draft.values, full.values) { worst = max(worst, abs(a - b) / max(abs(b), 0.05)) }
        // Only the float order differs: the white balance is a separate matrix after the cache.
        #expect(worst < 1e-4, "largest relative difference \(worst)")
    }

    @Test(
        "A scaled draft (white balance after the Lanczos resample) agrees with the scaled full develop: within 0.5 % away from the edges of clipped areas (isolated clipped photosites included), within 5 % at them, and the saturated patch neutral"
    )
    func scaledDraftAgreesWithTheFullDevelop() throws {
        let (full, draft) = try Self.fullAndDraft(try Self.highlightDNG(width: 320, height: 240), scale: 0.3)
        // Photosites → output pixels: the 8-photosite default crop, then the scale.
        func pixel(_ photosite: Int) -> Double { Double(photosite - 8) * 0.3 }
        let edgesX = [12, 64, 84, 140].map(pixel)
        let edgesY = [16, 72].map(pixel)
        var near = (difference: 0.0, level: 0.0)
        var away = (difference: 0.0, level: 0.0)
        for y in 0..<draft.height {
            for x in 0..<draft.width {
                let a = draft[x: x, y: y]
                let b = full[x: x, y: y]
                let d = abs(a.x - b.x) + abs(a.y - b.y) + abs(a.z - b.z)
                let l = abs(b.x) + abs(b.y) + abs(b.z)
                let cx = Double(x) + 0.5
                let cy = Double(y) + 0.5
                // Within the Lanczos-3 footprint of a patch edge (in the patches' rows or columns).
                let inRows = cy > edgesY[0] - 3 && cy < edgesY[1] + 3
                let inColumns = cx > edgesX[0] - 3 && cx < edgesX[3] + 3
                let isNear = (inRows && edgesX.contains { abs(cx - $0) < 3 }) || (inColumns && edgesY.contains { abs(cy - $0) < 3 })
                if isNear {
                    near.difference += d
                    near.level += l
                } else {
                    away.difference += d
                    away.level += l
                }
            }
        }
        print(
            "scaled draft: mean |draft − full| / level: \(away.difference / away.level) away from the patch edges, \(near.difference / near.level) at them"
        )
        // Away from the edges the residue is the Lanczos lobes past the triangle's reach.
        #expect(away.difference / away.level < 0.005, "away from the patch edges: \(away.difference / away.level)")
        #expect(near.difference / near.level < 0.05, "at the patch edges: \(near.difference / near.level)")
        // Inside the saturated patch (photosites 12…63 × 16…71, less the 8-photosite default
        // crop, at scale 0.3): neutral, as in the full develop.
        let box = draft.mean(x: 6..<12, y: 7..<14)
        let fullBox = full.mean(x: 6..<12, y: 7..<14)
        #expect(RAWStageTests.cast(box) < 1.03, "draft saturated patch \(box)")
        #expect(RAWStageTests.maxDifference(box, fullBox) < 0.01 * fullBox.max(), "\(box) vs \(fullBox)")
    }

    @Test(
        "A white-balance or exposure change re-renders a draft from the cached camera RGB and clip mask, and equals a fresh draft with the new settings (X7)"
    )
    func whiteBalanceChangeReadsTheCache() throws {
        var raw = try RAWFilter(dng: try Self.highlightDNG())
        raw.isDraftModeEnabled = true
        raw.scaleFactor = 0.4
        let context = try LinearPixels.floatContext()
        _ = try LinearPixels(try raw.outputImage(), context: context)
        raw.neutralTemperature += 800
        raw.neutralTint += 10
        let changed = try LinearPixels(try raw.outputImage(), context: context)
        #expect(context.lastRenderReport?.cacheHits == 3, "the camera RGB and the highlight inputs come from the cache")
        raw.exposure = 0.5
        _ = try LinearPixels(try raw.outputImage(), context: context)
        #expect(context.lastRenderReport?.cacheHits == 3)
        raw.exposure = 0
        let fresh = try LinearPixels(try raw.outputImage(), context: try LinearPixels.floatContext())
        #expect(changed.values == fresh.values)
        // And the change did something.
        raw.neutralTemperature -= 800
        let before = try LinearPixels(try raw.outputImage(), context: context)
        #expect(before.values != changed.values)
    }

    @Test(
        "The highlight inputs equal the plain scalar reference (HighlightRecovery.clippedColours at each pixel's photosite, the knee on its camera RGB), half size and full size, with a crop"
    )
    func highlightInputsMatchTheScalarReference() throws {
        var dng = try Self.highlightDNG(width: 90, height: 70)
        dng.defaultCrop = nil
        let mosaic = try #require(dng.mosaic)
        for (demosaic, crop) in [
            (DemosaicMethod.halfSize, IntRect(x: 2, y: 4, width: 84, height: 60)),
            (.bilinear, IntRect(x: 1, y: 3, width: 80, height: 61)),
        ] {
            let settings = DevelopSettings(
                matrix: .identity, neutral: SIMD3(1, 1, 1), crop: crop, workingSpace: .extendedLinearSRGB,
                demosaic: demosaic)
            // Columns 3…: the engine may ask for a column window.
            func read(_ decoder: any DevelopSource, channels: Int) throws -> (rows: [Float], columns: Range<Int>) {
                let columns = try decoder.setColumns(3..<decoder.info.width)
                var rows = [Float](repeating: -1, count: columns.count * channels * decoder.info.height)
                try rows.withUnsafeMutableBytes {
                    try decoder.readRows(y: 0, count: decoder.info.height, into: $0.baseAddress!, bytesPerRow: columns.count * channels * 4)
                }
                return (rows, columns)
            }
            let rows = HighlightRecovery.rowsReachingWhite(mosaic)
            let (flags, columns) = try read(
                try ClipMaskDecoder(mosaic: mosaic, settings: settings, clippedRows: rows, output: .flags), channels: 4)
            let (marked, _) = try read(
                try ClipMaskDecoder(mosaic: mosaic, settings: settings, clippedRows: rows, output: .markedCamera), channels: 4)
            let camera = try read(try RAWDevelopDecoder(mosaic: mosaic, settings: settings), channels: 3).rows
            let step = demosaic == .halfSize ? 2 : 1
            let h = flags.count / columns.count / 4
            let threshold = HighlightRecovery.thresholds(black: mosaic.blackLevel, white: mosaic.whiteLevel)
            var mismatches = 0
            var flaggedOnly = 0
            var markedCount = 0
            mosaic.samples.withUnsafeBufferPointer { samples in
                let whole = MosaicRows(whole: samples.baseAddress!, width: mosaic.width, height: mosaic.height)
                for y in 0..<h {
                    for (i, x) in columns.enumerated() {
                        let clipped = HighlightRecovery.clippedColours(
                            x: crop.x + step * x, y: crop.y + step * y, in: whole,
                            height: mosaic.height, threshold: threshold,
                            colors: BayerPatternColors(mosaic.pattern.cfaPattern))
                        let c = (y * columns.count + i) * 3
                        let o = (y * columns.count + i) * 4
                        let v = SIMD3(camera[c], camera[c + 1], camera[c + 2])
                        let isMarked = clipped.max() > 0 && v.max() > HighlightRecovery.knee
                        let expectedFlags = isMarked ? SIMD4(clipped.x, clipped.y, clipped.z, 1) : .zero
                        let expectedMarked = isMarked ? SIMD4(v.x, v.y, v.z, 1) : .zero
                        if SIMD4(flags[o], flags[o + 1], flags[o + 2], flags[o + 3]) != expectedFlags { mismatches += 1 }
                        if SIMD4(marked[o], marked[o + 1], marked[o + 2], marked[o + 3]) != expectedMarked { mismatches += 1 }
                        if isMarked { markedCount += 1 } else if clipped.max() > 0 { flaggedOnly += 1 }
                    }
                }
            }
            #expect(mismatches == 0, "\(demosaic): \(mismatches) values differ from the reference")
            // The fixture must exercise both sides of the knee.
            #expect(
                markedCount > 100 && flaggedOnly > 100, "\(demosaic): \(markedCount) marked, \(flaggedOnly) near a clip but under the knee")
        }
    }
}
