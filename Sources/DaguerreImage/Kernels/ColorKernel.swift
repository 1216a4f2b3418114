import DaguerreCore
import Synchronization

/// A point-wise kernel written as a Swift closure (K3; CIColorKernel): each output pixel from
/// the same pixel of each image argument. Runs fused with neighbouring point-wise nodes.
///
/// ```swift
/// let invert = ColorKernel(name: "invert") { ctx in
///     let p = ctx.pixel(at: 0)
///     return SIMD4(p.w - p.x, p.w - p.y, p.w - p.z, p.w)
/// }
/// let out = invert.apply(extent: image.extent, arguments: [.image(image)])
/// ```
public struct ColorKernel: Sendable {
    public struct Context: KernelValueReading {
        public let destCoord: SIMD2<Float>
        let pixels: UnsafePointer<UnsafeMutablePointer<SIMD4<Float>>>
        let index: Int
        let imageSlot: [Int]  // argument index → image row index (−1 if not an image)
        public let values: KernelValues
        /// The premultiplied linear pixel of image argument `i`.
        public func pixel(at i: Int) -> SIMD4<Float> {
            guard imageSlot.indices.contains(i), imageSlot[i] >= 0 else { return .zero }
            return pixels[imageSlot[i]][index]
        }
    }

    public let name: String
    /// Single- or two-channel output formats really store one or two channels (K3).
    public let outputFormat: PixelFormat?
    private enum Body: Sendable {
        case pixel(@Sendable (Context) -> SIMD4<Float>)
        case span(SpanFunction)
    }
    private let body: Body
    let id: Digest

    public init(name: String, outputFormat: PixelFormat? = nil, _ body: @escaping @Sendable (Context) -> SIMD4<Float>) {
        self.name = name
        self.outputFormat = outputFormat
        self.body = .pixel(body)
        id = KernelIdentity.next(name)
    }

    /// A kernel written over a row segment instead of a pixel: the engine's own form, for
    /// kernels on the interactive path (a per-pixel closure call costs more than a colour
    /// stage's arithmetic). `span.pixels` holds the first image argument's row on entry and
    /// the output on exit; `span.input(k)` is image argument k's row. Values travel in the
    /// closure's captures, so pass them as arguments too: they make the digest.
    ///
    /// ```swift
    /// let halve = ColorKernel(name: "halve") { span in
    ///     for i in 0..<span.count { span.pixels[i] *= SIMD4(0.5, 0.5, 0.5, 1) }
    /// }
    /// ```
    public init(name: String, outputFormat: PixelFormat? = nil, span: @escaping SpanFunction) {
        self.name = name
        self.outputFormat = outputFormat
        self.body = .span(span)
        id = KernelIdentity.next(name)
    }

    /// The kernel over `extent`, reading `arguments` (images and values, in order).
    public func apply(extent: Rect, arguments: [KernelArgument]) -> Image {
        let values = KernelValues(arguments: arguments)
        let function: SpanFunction
        switch body {
        case .span(let f): function = f
        case .pixel(let body):
            let slots = values.imageSlots
            function = { span in
                for i in 0..<span.count {
                    let ctx = Context(
                        destCoord: SIMD2(Float(span.x + i) + 0.5, Float(span.y) + 0.5), pixels: span.inputs,
                        index: i, imageSlot: slots, values: values)
                    span.pixels[i] = body(ctx)
                }
            }
        }
        let node = PointwiseNode(
            name: name, inputs: values.images.map(\.node), extent: extent,
            parameters: arguments.map(\.summary).joined(separator: ", "), outputFormat: outputFormat,
            digest: { d in
                d.add(id)
                for a in arguments { a.addDigest(&d) }
            }, span: function)
        return Image(node)
    }
}

/// Kernels are closures, which cannot be digested; each kernel gets a digest from its name and
/// a process-wide counter, so two kernels never share cached results.
enum KernelIdentity {
    private static let counter = Atomic<Int>(0)
    static func next(_ name: String) -> Digest {
        var d = DigestBuilder("kernel")
        d.add(name)
        d.add(counter.wrappingAdd(1, ordering: .relaxed).newValue)
        return d.finish()
    }
}
