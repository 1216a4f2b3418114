import Daguerre
import DaguerreSamples
import DaguerreTestSupport
import Foundation
import Testing

/// The seed's worked example (K1, K2): integral image by an ImageProcessor, variable box blur
/// by a general kernel, radius from a RadialGradient mask.
@Suite struct ProcessorTests {
    /// While the mask moves, the integral image is computed once and reused.
    @Test func integralImageComputedOnceWhileMaskMoves() throws {
        let image = try Kodak.image(3)
        let sample = VariableBoxBlur()
        let integral = sample.integralImage(image)
        let context = try Context()
        for x in [100.0, 250, 400] {
            let out = try sample.variableBlur(integral: integral, mask: sample.mask(center: [x, 250]), maxRadius: 15)
            _ = try context.createBuffer(out, format: .rgba8, colorSpace: .sRGB)
        }
        #expect(sample.processorCalls.load(ordering: .relaxed) == 1)
        #expect(context.lastRenderReport?.cacheHits == 1)
        #expect(context.lastRenderReport?.materialized.first?.contains("integralImage") == true)

        // Without the cache, every render computes it again.
        let uncached = try Context(options: .init(cacheIntermediates: false))
        let sample2 = VariableBoxBlur()
        let integral2 = sample2.integralImage(image)
        for x in [100.0, 250, 400] {
            _ = try uncached.createBuffer(
                try sample2.variableBlur(integral: integral2, mask: sample2.mask(center: [x, 250]), maxRadius: 15), format: .rgba8,
                colorSpace: .sRGB)
        }
        #expect(sample2.processorCalls.load(ordering: .relaxed) == 3)
    }

    /// With a constant mask the variable blur is a box blur: compare with a plain scalar box
    /// average (edges averaged over the part of the box inside the image).
    @Test func variableBlurEqualsScalarBoxAverage() throws {
        let w = 37
        let h = 23
        let r = 3
        var src = try PixelBuffer(width: w, height: h, format: .rgbaf)
        var rng = SeededRandom(seed: 7)
        let bpr = src.bytesPerRow
        src.withUnsafeMutableBytes { raw in
            for y in 0..<h {
                for x in 0..<w {
                    raw.storeBytes(
                        of: SIMD4<Float>(rng.unit(), rng.unit(), rng.unit(), 1), toByteOffset: y * bpr + x * 16, as: SIMD4<Float>.self)
                }
            }
        }
        let image = Image(buffer: src, colorSpace: .extendedLinearSRGB)
        let sample = VariableBoxBlur()
        let mask = Image(color: .white)
        let out = try Contexts.float().createBuffer(
            try sample.variableBlur(integral: sample.integralImage(image), mask: mask, maxRadius: Float(r)),
            format: .rgbaf, colorSpace: .extendedLinearSRGB)
        var maxDiff: Float = 0
        for y in 0..<h {
            for x in 0..<w {
                var sum = SIMD4<Float>()
                var n: Float = 0
                for j in max(0, y - r)...min(h - 1, y + r) {
                    for i in max(0, x - r)...min(w - 1, x + r) {
                        sum += pixelF(src, i, j)
                        n += 1
                    }
                }
                maxDiff = max(maxDiff, maxAbs(pixelF(out, x, y) - sum / n))
            }
        }
        #expect(maxDiff < 1e-4, "max difference from the scalar box average: \(maxDiff)")
    }

    /// A processor's failure is a typed error naming it.
    @Test func processorFailureIsTyped() throws {
        struct Boom: Error {}
        let image = try Kodak.image(1)
        let failing = image.withExtent(image.extent, processorDescription: "boom", argumentDigest: 1, roiCallback: { $0 }) { _, _ in
            throw Boom()
        }
        #expect {
            _ = try Context().createBuffer(failing, format: .rgba8, colorSpace: .sRGB)
        } throws: { ($0 as? DaguerreError).map { if case .processorFailed(name: "boom", _) = $0 { true } else { false } } ?? false }
    }
}
