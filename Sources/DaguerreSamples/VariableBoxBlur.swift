import DaguerreCore
import DaguerreImage
import Synchronization

/// The seed's worked example (K2, session 505): a per-pixel variable box blur.
///
/// 1. An ``ImageProcessor`` computes the integral image of the input (each output pixel is the
///    sum of every input pixel above and to the left, itself included): a scan no data-parallel
///    kernel can express.
/// 2. A ``GeneralKernel`` reads four corners of the integral image to get any box sum in four
///    reads, with a radius per pixel from a mask.
/// 3. The mask is a ``RadialGradient``. While it moves, the integral image's digest does not
///    change, so the context's cache hands back the same buffer: ``processorCalls`` proves it.
///
/// ```swift
/// let sample = VariableBoxBlur()
/// let blurred = try sample.apply(to: image, maskCenter: [300, 200], radius: 15)
/// try context.writeJPEGRepresentation(of: blurred, to: url, colorSpace: .sRGB)
/// ```
public final class VariableBoxBlur: Sendable {
    /// How many times the integral image's processor block has run.
    public let processorCalls = Atomic<Int>(0)

    public init() {}

    /// The integral image of `image`, in RGBAf (as in the seed: sums need float precision).
    public func integralImage(_ image: Image) -> Image {
        let extent = image.extent
        return image.withExtent(
            extent, processorDescription: "integralImage", argumentDigest: 0x1D,
            inputFormat: .rgbaf, outputFormat: .rgbaf,
            roiCallback: { rect in
                // Everything above and to the left of the output rectangle.
                Rect(minX: extent.minX, minY: extent.minY, maxX: rect.maxX, maxY: rect.maxY)
            }
        ) { input, output in
            self.processorCalls.add(1, ordering: .relaxed)
            let ox = Int(output.region.minX - input.region.minX)
            let oy = Int(output.region.minY - input.region.minY)
            let w = Int(output.region.width)
            let h = Int(output.region.height)
            let inW = Int(input.region.width)
            var running = [SIMD4<Float>](repeating: .zero, count: inW)  // column sums so far
            // Rows above the output region still feed the column sums.
            for y in 0..<(oy + h) {
                let src = (input.baseAddress + y * input.bytesPerRow).assumingMemoryBound(to: SIMD4<Float>.self)
                var rowSum = SIMD4<Float>()
                for x in 0..<inW {
                    rowSum += src[x]
                    running[x] += rowSum
                }
                guard y >= oy else { continue }
                let dst = (output.baseAddress + (y - oy) * output.bytesPerRow).assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<w { dst[x] = running[x + ox] }
            }
        }
    }

    /// The radius mask: 1 inside `radius0` of `center`, falling to 0 at `radius1` (RadialGradient).
    public func mask(center: [Double], radius0: Double = 0, radius1: Double = 200) throws(DaguerreError) -> Image {
        try RadialGradient(center: center, radius0: radius0, radius1: radius1, color0: .white, color1: .black).outputImage()
    }

    /// The box blur whose radius at each pixel is `maxRadius × mask.red`, from four reads of the
    /// integral image.
    public func variableBlur(integral: Image, mask: Image, maxRadius: Float) throws(DaguerreError) -> Image {
        let e = integral.extent
        let kernel = GeneralKernel(name: "variableBoxBlur") { ctx in
            let integral = ctx.sampler(at: 0)
            let mask = ctx.sampler(at: 1)
            let r = max(0, (ctx.float(at: 2) * mask.read(x: Int(ctx.destCoord.x), y: Int(ctx.destCoord.y)).x).rounded())
            let ext = integral.extent
            // Corners of the box, clamped to the image: the sum over (x0, x1] × (y0, y1].
            let x = ctx.destCoord.x - 0.5
            let y = ctx.destCoord.y - 0.5
            let x0 = Int(max(Float(ext.minX) - 1, x - r - 1))
            let x1 = Int(min(Float(ext.maxX) - 1, x + r))
            let y0 = Int(max(Float(ext.minY) - 1, y - r - 1))
            let y1 = Int(min(Float(ext.maxY) - 1, y + r))
            let area = Float((x1 - x0) * (y1 - y0))
            guard area > 0 else { return .zero }
            let sum = integral.read(x: x1, y: y1) - integral.read(x: x0, y: y1) - integral.read(x: x1, y: y0) + integral.read(x: x0, y: y0)
            return sum / area
        }
        return try kernel.apply(
            extent: e, roiCallback: { index, rect in index == 0 ? e : rect },
            arguments: [.image(integral), .image(mask), .float(maxRadius)])
    }

    /// The whole example: blur `image` with radius up to `radius`, strongest at `maskCenter`.
    public func apply(to image: Image, maskCenter: [Double], radius: Float = 15) throws(DaguerreError) -> Image {
        try variableBlur(integral: integralImage(image), mask: mask(center: maskCenter), maxRadius: radius)
    }
}
