import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Rendering into buffers, deferred and immediate (I7), and the context options (I6).
@Suite struct OutputTests {
    /// A deferred rendered image renders only the rectangle asked for, and gives the same pixels
    /// as the whole image rendered immediately.
    @Test func deferredRegionEqualsImmediate() throws {
        let image = try Kodak.image(15).applying(GaussianBlur(radius: 1.5))
        let context = try Context()
        let deferred = try context.createRenderedImage(image, format: .rgbah, colorSpace: .extendedLinearSRGB, deferred: true)
        #expect(!deferred.isRendered)
        let region = IntRect(x: 100, y: 60, width: 37, height: 29)
        let part = try deferred.copyPixels(in: region)
        #expect(context.lastRenderReport?.rect.width == 37 && context.lastRenderReport?.rect.height == 29)
        #expect(!deferred.isRendered)
        let immediate = try context.createRenderedImage(image, format: .rgbah, colorSpace: .extendedLinearSRGB, deferred: false)
        #expect(immediate.isRendered)
        let whole = try immediate.buffer()
        for y in 0..<region.height {
            let a = part.rowAddress(y)
            let b = whole.rowAddress(region.y + y) + region.x * 8
            #expect(memcmp(a, b, region.width * 8) == 0, "row \(y) differs")
        }
    }

    /// Rendering into a caller's memory in any format and colour space: BGRA8 in Display P3
    /// equals RGBA8 in Display P3 with the channels swapped.
    @Test func callerBufferInAnyFormat() throws {
        let image = try Kodak.image(21).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48))
        let context = try Context()
        var bgra = [UInt8](repeating: 0, count: 64 * 48 * 4)
        try bgra.withUnsafeMutableBytes {
            try context.render(
                image, toBitmap: $0.baseAddress!, rowBytes: 64 * 4, bounds: image.extent, format: .bgra8, colorSpace: .displayP3)
        }
        let rgba = tight(try context.createBuffer(image, format: .rgba8, colorSpace: .displayP3)).bytes
        var worst = 0
        for i in stride(from: 0, to: rgba.count, by: 4) {
            worst = max(
                worst, abs(Int(bgra[i]) - Int(rgba[i + 2])), abs(Int(bgra[i + 2]) - Int(rgba[i])), abs(Int(bgra[i + 1]) - Int(rgba[i + 1])))
        }
        #expect(worst <= 1, "BGRA vs RGBA: worst channel difference \(worst)")
    }

    /// Low priority changes scheduling, not pixels; the RGBAf working format keeps more precision
    /// than RGBAh but agrees to half precision.
    @Test func contextOptionsKeepThePixels() throws {
        let image = try Kodak.image(11).applying(UnsharpMask(radius: 2, intensity: 0.6))
        let normal = tight(try Context().createBuffer(image, format: .rgba8, colorSpace: .sRGB)).bytes
        let low = tight(
            try Context(options: .init(cacheIntermediates: false, lowPriority: true)).createBuffer(image, format: .rgba8, colorSpace: .sRGB)
        ).bytes
        #expect(normal == low)
        let float = tight(try Context(options: .init(workingFormat: .rgbaf)).createBuffer(image, format: .rgba8, colorSpace: .sRGB)).bytes
        #expect(zip(normal, float).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    /// The working format RGBA8 really quantises intermediates (what Core Image's BGRA8 default did).
    @Test func rgba8WorkingFormatIsAccepted() throws {
        let image = try Kodak.image(11).applying(GaussianBlur(radius: 2))
        let out = try Context(options: .init(workingFormat: .rgba8)).createBuffer(image, format: .rgba8, colorSpace: .sRGB)
        #expect(out.width > 0)
        #expect(throws: DaguerreError.self) { _ = try Context(options: .init(workingFormat: .rgb16)) }
    }

    /// Every file format the engine writes passes `exiftool -validate` with no warning.
    @Test func filesPassExiftoolValidate() throws {
        let dir = try TemporaryDirectory()
        let image = try Kodak.image(7).applying(LanczosScaleTransform(scale: 0.5))
        let context = try Context()
        let jpeg = dir.url.appendingPathComponent("p3.jpg")
        let png = dir.url.appendingPathComponent("a16.png")
        let tif8 = dir.url.appendingPathComponent("rgb8.tif")
        let tifh = dir.url.appendingPathComponent("half.tif")
        try context.writeJPEGRepresentation(of: image, to: jpeg, colorSpace: .displayP3, options: [.quality(0.8)])
        try context.writePNGRepresentation(of: image, to: png, format: .rgba16, colorSpace: .adobeRGB1998)
        try context.writeTIFFRepresentation(of: image, to: tif8, format: .rgb8, colorSpace: .sRGB)
        try context.writeTIFFRepresentation(of: image, to: tifh, format: .rgbah, colorSpace: .extendedLinearSRGB)
        for url in [jpeg, png, tif8, tifh] {
            let out = try Judge.run("exiftool", ["-validate", "-warning", "-error", "-a", url.path])
            #expect(out.contains("Validate") && out.contains(": OK") && !out.contains("Warning"), "\(url.lastPathComponent): \(out)")
        }
    }
}
