// The look stages of RAW development (SPEC X3: tone, contrast, saturation/vibrance, sharpening),
// after the linear part of the pipeline (X4) and exposure. Each is an engine stage, and each is
// left out of the recipe at its neutral amount, so the default develop stays colorimetric.
import DaguerreCore
import DaguerreImage

/// The amounts of the look stages, applied in a photographer's order: the boost curve, shadow
/// boost, local tone mapping, contrast, vibrance and saturation, then sharpening last.
///
/// ```swift
/// let look = RAWLook(boost: 1, contrast: 0.3, sharpness: 0.4)
/// let finished = try look.apply(to: linearDevelop)
/// ```
struct RAWLook: Sendable, Hashable {
    var boost = 0.0, boostShadows = 0.0, localToneMap = 0.0, contrast = 0.0
    var vibrance = 0.0, saturation = 0.0, sharpness = 0.0

    static let boostKernel = ColorKernel(name: "rawBoost") { ctx in
        let p = ctx.pixel(at: 0)
        let amount = ctx.values.float(at: 1)
        return p + (BoostCurve.table.applyKeepingHue(p) - p) * amount
    }

    func apply(to input: Image) throws(DaguerreError) -> Image {
        var image = input
        if boost != 0 {
            image = Self.boostKernel.apply(extent: image.extent, arguments: [.image(image), .float(Float(boost))])
        }
        if boostShadows != 0 {
            image = try image.applying(HighlightShadowAdjust(radius: 0, shadowAmount: min(max(boostShadows, -1), 1)))
        }
        image = try LocalToneMap.apply(to: image, amount: localToneMap)
        if contrast != 0 {
            let curve = ContrastCurve.table(amount: contrast)
            // The amount is an argument though the body reads the captured curve: kernels are
            // digested by name and arguments, so it is what tells curves apart in the cache.
            image = ColorKernel(name: "rawContrast") { ctx in curve.applyKeepingHue(ctx.pixel(at: 0)) }
                .apply(extent: image.extent, arguments: [.image(image), .float(Float(contrast))])
        }
        if vibrance != 0 { image = try image.applying(Vibrance(amount: vibrance)) }
        if saturation != 0 { image = try image.applying(ColorControls(saturation: 1 + saturation)) }
        if sharpness != 0 { image = try image.applying(SharpenLuminance(sharpness: sharpness)) }
        return image
    }
}
