import DaguerreCore
import Foundation

/// Fits the image to a new size by cropping and stretching (CIStretchCrop; SPEC I4). The
/// output is `size` (its extent (0, 0, width, height)). `cropAmount` c picks the part of the
/// input used: the whole input at 0, the largest centred rectangle of the target's aspect at 1,
/// in between linearly in each side. That part is stretched to the size; along the axis that
/// is stretched more than the other by e = (its stretch ÷ the other's) > 1, the normalized
/// output coordinate u ∈ [−1, 1] (from the middle) reads u·(a + (1 − a)·|u|), where
/// a = min(2, e ÷ (1 + k·(e − 1))) and k is `centerStretchAmount`: at k = 1 the stretch is even,
/// at k = 0 the middle keeps the other axis's scale and the sides take the extra stretch. Core
/// Image does not publish its formula; this is Daguerre's definition. Samples off the input
/// clamp to its edge.
///
/// ```swift
/// let wide = try photo.applying(StretchCrop(size: [1920, 1080], cropAmount: 0.5, centerStretchAmount: 0.5))
/// ```
public struct StretchCrop: Filter {
    public var inputImage: Image?
    public var size: [Double] = [1280, 720]
    public var cropAmount: Double = 0.25
    public var centerStretchAmount: Double = 0.25

    public init() {}
    public init(
        inputImage: Image? = nil, size: [Double] = Self.defaults.size, cropAmount: Double = Self.defaults.cropAmount,
        centerStretchAmount: Double = Self.defaults.centerStretchAmount
    ) {
        self.inputImage = inputImage
        self.size = size
        self.cropAmount = cropAmount
        self.centerStretchAmount = centerStretchAmount
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "StretchCrop", displayName: "Stretch Crop", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Fits the image to a size by cropping and stretching.",
        parameters: [
            .image(\.inputImage),
            .position(\.size, "inputSize", "The output's width and height in pixels.", min: 0, max: 1e6),
            .scalar(\.cropAmount, "inputCropAmount", "0 stretches the whole image, 1 crops to the size's aspect.", min: 0, max: 1),
            .scalar(
                \.centerStretchAmount, "inputCenterStretchAmount", "0 leaves the middle unstretched, 1 stretches evenly.", min: 0,
                max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let e = input.extent
        guard !e.isEmpty, e.width.isFinite, e.height.isFinite else {
            throw .invalidArgument(what: "StretchCrop", problem: "the input needs a finite, non-empty extent (crop it first)")
        }
        let (w, h) = (size[0].rounded(), size[1].rounded())
        guard w >= 1, h >= 1 else { return Image.empty }
        // The part of the input used: between the whole and the largest centred rectangle of the target's aspect.
        let cw = e.width + cropAmount * (min(e.width, e.height * w / h) - e.width)
        let ch = e.height + cropAmount * (min(e.height, e.width * h / w) - e.height)
        let part = Rect(minX: e.midX - cw / 2, minY: e.midY - ch / 2, maxX: e.midX + cw / 2, maxY: e.midY + ch / 2)
        let (sx, sy) = (w / cw, h / ch)
        let extra = max(sx, sy) / min(sx, sy)
        let a = min(2, extra / (1 + centerStretchAmount * (extra - 1)))
        let alongX = sx > sy
        @Sendable func bend(_ u: Double) -> Double { u * (a + (1 - a) * abs(u)) }
        return Warp.image(
            input, name: "stretchCrop", extent: Rect(x: 0, y: 0, width: w, height: h), parameters: [w, h, cropAmount, centerStretchAmount],
            edge: .clamp, roi: { _ in part }
        ) { p in
            var u = (p.x - w / 2) / (w / 2)
            var v = (p.y - h / 2) / (h / 2)
            if alongX { u = bend(u) } else { v = bend(v) }
            return SIMD2(part.midX + u * cw / 2, part.midY + v * ch / 2)
        }
    }
}
