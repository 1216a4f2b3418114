import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Every built-in filter: attributes are complete and consistent, it renders with its defaults,
/// and the typed API gives the same recipe as the by-name one (I1, I4).
@Suite struct FilterCatalogTests {
    static let required = [
        "ExposureAdjust", "TemperatureAndTint", "ColorMatrix", "ColorControls", "GammaAdjust", "ToneCurve",
        "HighlightShadowAdjust", "Vibrance", "ColorClamp", "GaussianBlur", "BoxBlur", "UnsharpMask",
        "SharpenLuminance", "LanczosScaleTransform", "AffineTransform", "Crop", "SourceOverCompositing",
        "ConstantColorGenerator", "LinearGradient", "RadialGradient", "HueSaturationValueGradient", "NinePartStretched",
        "NinePartTiled", "EdgePreserveUpsampleFilter", "AreaAverage",
    ]

    @Test func catalogHasTheIssuesFilters() {
        #expect(Set(FilterRegistry.names).isSuperset(of: Self.required))
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func attributesAreComplete(name: String) throws {
        let d = try FilterRegistry.descriptor(named: name)
        #expect(!d.description.isEmpty && !d.categories.isEmpty)
        for p in d.parameters {
            #expect(!p.description.isEmpty, "\(name).\(p.key) has no description")
            if ![.image, .data, .barcodeDescriptor].contains(p.kind) && !p.isOptional {
                #expect(p.defaultValue != nil, "\(name).\(p.key) has no default")
            }
            if let lo = p.min, let hi = p.max { #expect(lo <= hi) }
        }
    }

    @Test(arguments: FilterRegistry.all.map(\.name))
    func rendersWithDefaults(name: String) throws {
        let d = try FilterRegistry.descriptor(named: name)
        let base = try Kodak.image(5).cropped(to: Rect(x: 0, y: 0, width: 200, height: 160))
        var params: [String: FilterValue] = [:]
        if d.parameters.contains(where: { $0.key == "inputBackgroundImage" }) { params["inputBackgroundImage"] = .image(base) }
        if d.parameters.contains(where: { $0.key == "inputMaskImage" }) { params["inputMaskImage"] = .image(base) }
        if d.parameters.contains(where: { $0.key == "inputGradientImage" }) { params["inputGradientImage"] = .image(base) }
        for key in ["inputPaletteImage", "inputMeans"] where d.parameters.contains(where: { $0.key == key }) {
            params[key] = .image(base.cropped(to: Rect(x: 0, y: 0, width: 16, height: 1)))
        }
        if d.parameters.contains(where: { $0.key == "inputSmallImage" }) {
            params["inputSmallImage"] = .image(try base.applying(LanczosScaleTransform(scale: 0.05)))
        }
        // Any other image (a mask, a shading image): the same picture.
        for p in d.parameters where p.kind == .image && p.key != FilterParameter.inputImageKey && params[p.key] == nil {
            params[p.key] = .image(base)
        }
        if name == "AreaAverage" { params["inputExtent"] = .rect(Rect(x: 0, y: 0, width: 100, height: 100)) }
        for p in d.parameters where p.kind == .data { params[p.key] = .data(Array("Daguerre".utf8)) }
        for p in d.parameters where p.kind == .barcodeDescriptor { params[p.key] = .barcodeDescriptor(.example) }
        var out = try base.applyingFilter(name, parameters: params)
        if out.extent.isInfinite { out = out.cropped(to: Rect(x: 0, y: 0, width: 64, height: 64)) }
        let buf = try Context().createBuffer(out, format: .rgba8, colorSpace: .sRGB)
        #expect(buf.width > 0 && buf.height > 0)
    }

    @Test func typedAndByNameAgree() throws {
        let image = try Kodak.image(6)
        let typed = try image.applying(GaussianBlur(radius: 3)).applying(ColorControls(saturation: 0.5))
        let named = try image.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": 3]).applyingFilter(
            "ColorControls", parameters: ["inputSaturation": 0.5])
        #expect(typed.digest == named.digest)
    }

    @Test func areaAverageMatchesMean() throws {
        var buf = try PixelBuffer(width: 64, height: 48, format: .rgbaf)
        var expected = SIMD4<Double>()
        let bpr = buf.bytesPerRow
        buf.withUnsafeMutableBytes { raw in
            for y in 0..<48 {
                for x in 0..<64 {
                    let v = SIMD4<Float>(Float(x) / 64, Float(y) / 48, 0.25, 1)
                    raw.storeBytes(of: v, toByteOffset: y * bpr + x * 16, as: SIMD4<Float>.self)
                    expected += SIMD4<Double>(v)
                }
            }
        }
        expected /= Double(64 * 48)
        let mean = try Image(buffer: buf, colorSpace: .extendedLinearSRGB).applying(
            AreaAverage(extent: Rect(x: 0, y: 0, width: 64, height: 48)))
        let px = try Contexts.float().createBuffer(mean, format: .rgbaf, colorSpace: .extendedLinearSRGB)
        #expect(maxAbs(SIMD4<Double>(pixelF(px, 0, 0)) - expected) < 1e-5)
    }

    /// GammaAdjust's vectorised pow agrees with libm's powf (relative error under 5e-5, twenty
    /// times finer than half floats; values from 1e-6 to 60, and negative values mirrored).
    @Test(arguments: [0.45, 0.95, 2.2])
    func gammaMatchesPowf(power: Double) throws {
        let n = 4096
        var buf = try PixelBuffer(width: n, height: 1, format: .rgbaf)
        var xs: [Float] = []
        buf.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: SIMD4<Float>.self)
            for i in 0..<n {
                let x = Float(pow(10, -6 + 7.78 * Double(i) / Double(n - 1)))  // 1e-6 … 60
                xs.append(x)
                p[i] = SIMD4(x, -x, x * 0.5, 1)
            }
        }
        let out = try Contexts.float().createBuffer(
            try Image(buffer: buf, colorSpace: .extendedLinearSRGB).applying(GammaAdjust(power: power)),
            format: .rgbaf, colorSpace: .extendedLinearSRGB)
        var worst: Float = 0
        for i in 0..<n {
            let v = pixelF(out, i, 0)
            let g = Float(power)
            let ref = SIMD3(powf(xs[i], g), -powf(xs[i], g), powf(xs[i] * 0.5, g))
            for c in 0..<3 { worst = max(worst, abs(v[c] - ref[c]) / abs(ref[c])) }
        }
        print("measured: GammaAdjust \(power) vs powf: max relative error \(worst)")
        #expect(worst < 5e-5)
    }

    /// Colour kernels act on unpremultiplied colour: on a half-transparent pixel, ColorClamp and
    /// GammaAdjust give exactly the premultiplied result of the straight-colour operation.
    @Test func planarKernelsRespectAlpha() throws {
        let straight = SIMD3<Double>(0.8, 0.4, 0.2)
        let pixel = Image(color: Color(red: straight.x, green: straight.y, blue: straight.z, alpha: 0.5, colorSpace: .extendedLinearSRGB))
            .cropped(to: Rect(x: 0, y: 0, width: 8, height: 2))
        let ctx = try Contexts.float()
        let clamped = pixelF(
            try ctx.createBuffer(
                try pixel.applying(ColorClamp(maxComponents: [0.3, 0.3, 0.3, 1])), format: .rgbaf, colorSpace: .extendedLinearSRGB), 3, 1)
        #expect(maxAbs(clamped - SIMD4(0.15, 0.15, 0.1, 0.5)) < 1e-6, "\(clamped)")
        let g = 2.2
        let gamma = pixelF(
            try ctx.createBuffer(try pixel.applying(GammaAdjust(power: g)), format: .rgbaf, colorSpace: .extendedLinearSRGB), 5, 0)
        let want = SIMD4<Float>(Float(pow(straight.x, g) * 0.5), Float(pow(straight.y, g) * 0.5), Float(pow(straight.z, g) * 0.5), 0.5)
        #expect(maxAbs(gamma - want) < 1e-5, "\(gamma) vs \(want)")
        // A fully transparent pixel stays transparent black.
        let clear = Image(color: .clear).cropped(to: Rect(x: 0, y: 0, width: 4, height: 1))
        let out = pixelF(
            try ctx.createBuffer(
                try clear.applying(Vibrance(amount: 1)).applying(GammaAdjust(power: 0.5)), format: .rgbaf, colorSpace: .extendedLinearSRGB),
            1, 0)
        #expect(out == .zero)
    }

    /// Exposure +1 EV doubles linear light exactly.
    @Test func exposureIsInStops() throws {
        let grey = Image(color: Color(red: 0.1, green: 0.2, blue: 0.3, colorSpace: .extendedLinearSRGB)).cropped(
            to: Rect(x: 0, y: 0, width: 4, height: 4))
        let out = try Contexts.float().createBuffer(
            try grey.applying(ExposureAdjust(ev: 1)), format: .rgbaf, colorSpace: .extendedLinearSRGB)
        #expect(maxAbs(pixelF(out, 1, 1) - SIMD4(0.2, 0.4, 0.6, 1)) < 1e-6)
    }

    /// Warming by TemperatureAndTint raises red against blue; the identity leaves grey alone.
    @Test func temperatureAndTintDirection() throws {
        let grey = Image(color: Color(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: Rect(x: 0, y: 0, width: 2, height: 2))
        let ctx = try Contexts.float()
        let same = try ctx.createBuffer(try grey.applying(TemperatureAndTint()), format: .rgbaf, colorSpace: .sRGB)
        #expect(maxAbs(pixelF(same, 0, 0) - SIMD4(0.5, 0.5, 0.5, 1)) < 1e-5)
        let warm = try ctx.createBuffer(
            try grey.applying(TemperatureAndTint(neutral: [9000, 0], targetNeutral: [6500, 0])), format: .rgbaf, colorSpace: .sRGB)
        let p = pixelF(warm, 0, 0)
        #expect(p.x > p.z + 0.05, "\(p)")
    }
}
