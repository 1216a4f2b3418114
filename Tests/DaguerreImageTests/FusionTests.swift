import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Point-wise kernels in a chain are concatenated into one pass with no intermediate (I3), and
/// the fused result equals the plain unfused reference (each filter rendered to a float buffer
/// before the next), libvips-style.
@Suite struct FusionTests {
    static func eightFilters(_ i: Image) throws -> Image {
        try i.applying(ExposureAdjust(ev: 0.3))
            .applying(ColorMatrix(r: [0.9, 0.1, 0, 0], g: [0.05, 0.9, 0.05, 0], b: [0, 0.1, 0.9, 0]))
            .applying(ColorControls(saturation: 1.1, brightness: 0.02, contrast: 1.05))
            .applying(Vibrance(amount: 0.2))
            .applying(GammaAdjust(power: 0.95))
            .applying(TemperatureAndTint(neutral: [6000, 5], targetNeutral: [6500, 0]))
            .applying(ToneCurve(points: [[0, 0], [0.25, 0.22], [0.5, 0.5], [0.75, 0.78], [1, 1]]))
            .applying(ColorClamp())
    }

    @Test func eightPointwiseFiltersRenderAsOnePass() throws {
        let image = try Kodak.image(4)
        let context = try Context()
        _ = try context.createBuffer(try Self.eightFilters(image), format: .rgb8, colorSpace: .sRGB)
        let report = try #require(context.lastRenderReport)
        #expect(report.passes.count == 1, "\(report)")
        #expect(report.intermediates.isEmpty, "\(report)")
        #expect(report.passes[0].nodes.count == 9, "8 filters + the source: \(report)")
    }

    @Test func fusedEqualsUnfusedReference() throws {
        let image = try Kodak.image(4)
        let context = try Contexts.float()
        let fused = try context.createBuffer(try Self.eightFilters(image), format: .rgbaf, colorSpace: .extendedLinearSRGB)
        // The reference: every filter's output materialized in linear float before the next.
        var step = Image(
            buffer: try context.createBuffer(image, format: .rgbaf, colorSpace: .extendedLinearSRGB), colorSpace: .extendedLinearSRGB)
        let filters: [any Filter] = [
            ExposureAdjust(ev: 0.3), ColorMatrix(r: [0.9, 0.1, 0, 0], g: [0.05, 0.9, 0.05, 0], b: [0, 0.1, 0.9, 0]),
            ColorControls(saturation: 1.1, brightness: 0.02, contrast: 1.05), Vibrance(amount: 0.2), GammaAdjust(power: 0.95),
            TemperatureAndTint(neutral: [6000, 5], targetNeutral: [6500, 0]),
            ToneCurve(points: [[0, 0], [0.25, 0.22], [0.5, 0.5], [0.75, 0.78], [1, 1]]), ColorClamp(),
        ]
        for f in filters {
            step = try step.applying(f)
            step = Image(
                buffer: try context.createBuffer(step, format: .rgbaf, colorSpace: .extendedLinearSRGB), colorSpace: .extendedLinearSRGB)
        }
        let reference = try context.createBuffer(step, format: .rgbaf, colorSpace: .extendedLinearSRGB)
        var maxDiff: Float = 0
        for y in stride(from: 0, to: fused.height, by: 7) {
            for x in 0..<fused.width { maxDiff = max(maxDiff, maxAbs(pixelF(fused, x, y) - pixelF(reference, x, y))) }
        }
        #expect(maxDiff < 1e-5, "fused vs unfused: max difference \(maxDiff)")
    }

    /// A blur is a pass boundary with a per-tile intermediate, never a full-size one.
    @Test func blurIntermediateIsPerTile() throws {
        let image = try Kodak.image(1)
        let context = try Context(options: .init(tileWidth: 128, tileHeight: 32))
        _ = try context.createBuffer(
            try image.applying(GaussianBlur(radius: 2)).applying(ExposureAdjust(ev: 0.1)), format: .rgb8, colorSpace: .sRGB)
        let report = try #require(context.lastRenderReport)
        #expect(report.passes.count == 2, "\(report)")
        let inter = try #require(report.intermediates.first)
        #expect(inter.width <= 128 && inter.height <= 32 + 2 * 12, "\(report)")
        #expect(report.tiles > 1)
    }

    /// A kernel that declares a one-channel output format stores one channel (K3).
    @Test func singleChannelKernelOutputTakesOneChannel() throws {
        let image = try Kodak.image(2)
        let luma = ColorKernel(name: "luma", outputFormat: .rh) { ctx in
            let p = ctx.pixel(at: 0)
            return SIMD4(repeating: 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z)
        }.apply(extent: image.extent, arguments: [.image(image)])
        // A blur after it stores the one-channel kernel output as a per-tile tile: half precision, 1 channel.
        let shift = try GeneralKernel(name: "shift", outputFormat: nil) { ctx in ctx.sampler(at: 0).sample(ctx.destCoord + SIMD2(1, 0)) }
            .apply(extent: image.extent, roiCallback: { _, r in r.insetBy(dx: -2, dy: -2) }, arguments: [.image(luma)])
        let context = try Context()
        let out = try context.createBuffer(shift, format: .rgbaf, colorSpace: nil)
        let report = try #require(context.lastRenderReport)
        let stored = try #require(report.intermediates.first { $0.node.hasPrefix("luma") })
        #expect(stored.format == .rh)
        #expect(stored.bytes == stored.width * stored.height * 2)
        // And reads back as (r, 0, 0, 1).
        let p = pixelF(out, 100, 100)
        #expect(p.y == 0 && p.z == 0 && p.w == 1 && p.x > 0)
    }
}
