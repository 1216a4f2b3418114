import DaguerreCore
import Foundation

/// The image folds up like an accordion towards its bottom edge while it fades into the target
/// (CIAccordionFoldTransition; SPEC I4). Core Image publishes no formula; this is the definition
/// used. The image's bottom `bottomHeight` rows stay flat; the H rows above them fold into 2N
/// equal panels (N = `numberOfFolds` rounded to a whole number), which at time t stand
/// h = H·(1 − t) high, tilted so each panel's height is its own times (1 − t), resting on the
/// flat part: a row y of that band, counted from its top, shows the image's row y·H/h
/// (bilinear), on every second panel (the ones facing away) darkened to
/// (r, g, b)·(1 − `foldShadowAmount`·sin θ), cos θ = 1 − t, alpha kept. Above the band is
/// nothing. The folded image F lies over the target T, and the whole crossfades to the target:
/// out = T + (1 − t)·(F + T·(1 − F.alpha) − T), on premultiplied values. Time 0 gives the image
/// and time 1 the target exactly; the result covers both images. Bottom and top are the picture's
/// (the bottom row is the last one). The image must be finite.
///
/// ```swift
/// let folding = try before.applying(AccordionFoldTransition(targetImage: after, time: 0.5))
/// ```
public struct AccordionFoldTransition: Filter {
    public var inputImage: Image?
    public var targetImage: Image?
    public var bottomHeight: Double = 0
    public var numberOfFolds: Double = 3
    public var foldShadowAmount: Double = 0.1
    public var time: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, targetImage: Image? = nil, time: Double = Self.defaults.time) {
        self.inputImage = inputImage
        self.targetImage = targetImage
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AccordionFoldTransition", displayName: "Accordion Fold", categories: [.transition, .video, .stillImage, .builtIn],
        description: "Folds the image like an accordion towards its bottom while it fades into the target.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image at time 0."),
            .image(\.targetImage, "inputTargetImage", "The image at time 1."),
            .scalar(\.bottomHeight, "inputBottomHeight", "How many rows at the bottom stay flat.", min: 0, max: 1e7, sliderMax: 500),
            .scalar(\.numberOfFolds, "inputNumberOfFolds", "How many folds (two panels each).", min: 1, max: 50),
            .scalar(\.foldShadowAmount, "inputFoldShadowAmount", "How much the panels facing away are darkened.", min: 0, max: 1),
            TransitionTime.parameter(\.time),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (image, target) = (try required(\.inputImage), try required(\.targetImage))
        if time <= 0 { return image }
        if time >= 1 { return target }
        let e = image.extent
        guard !e.isInfinite else {
            throw Self.invalid(\.inputImage, "the image is infinite; an accordion folds a finite image, so crop it first")
        }
        let geometry = AccordionFold(
            extent: e, bottomHeight: bottomHeight, folds: Int(numberOfFolds.rounded()), shadow: foldShadowAmount, time: time)
        let fade = Float(1 - time)
        let node = SamplingNode(
            name: "accordionFoldTransition", inputs: [image.node, target.node], extent: TransitionTime.extent(image, target),
            parameters: "\(geometry)", outputFormat: nil, digest: { d in d.add(geometry.numbers) },
            roi: { i, rect in
                guard i == 0 else { return rect }
                let (top, bottom) = (geometry.source(rect.minY), geometry.source(rect.maxY))
                return Rect(minX: rect.minX - 2, minY: top - 2, maxX: rect.maxX + 2, maxY: bottom + 2)
            }
        ) { samplers, dest in
            let t = samplers[1].sample(dest)
            var f = SIMD4<Float>.zero
            let y = Double(dest.y)
            if y >= geometry.flatTop {
                f = samplers[0].sample(dest)
            } else if y >= geometry.foldTop {
                f = samplers[0].sample(SIMD2(dest.x, Float(geometry.source(y)))) * geometry.shade(y)
            }
            let over = f + t * (1 - f.w)
            return t + (over - t) * fade
        }
        return Image(node)
    }
}
