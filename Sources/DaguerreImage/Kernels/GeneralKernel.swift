import DaguerreCore

/// A kernel that may read its image arguments anywhere (K3; CIKernel), written as a Swift
/// closure that returns one output pixel. The region-of-interest callback says, for each image
/// argument, which rectangle an output rectangle needs.
///
/// ```swift
/// let blur3 = GeneralKernel(name: "boxBlur3") { ctx in
///     var s = SIMD4<Float>()
///     for dy in -1...1 { for dx in -1...1 { s += ctx.sampler(at: 0).sample(ctx.destCoord + SIMD2(Float(dx), Float(dy))) } }
///     return s / 9
/// }
/// let out = blur3.apply(extent: image.extent, roiCallback: { _, r in r.insetBy(dx: -1, dy: -1) },
///                       arguments: [.image(image)])
/// ```
public struct GeneralKernel: Sendable {
    public struct Context: KernelValueReading {
        public let destCoord: SIMD2<Float>
        let samplers: [Sampler]
        let imageSlot: [Int]
        public let values: KernelValues
        /// The sampler of image argument `i`.
        public func sampler(at i: Int) -> Sampler {
            guard imageSlot.indices.contains(i), imageSlot[i] >= 0 else { return samplers[0] }
            return samplers[imageSlot[i]]
        }
    }

    public let name: String
    public let outputFormat: PixelFormat?
    let body: @Sendable (Context) -> SIMD4<Float>
    let id: Digest

    public init(name: String, outputFormat: PixelFormat? = nil, _ body: @escaping @Sendable (Context) -> SIMD4<Float>) {
        self.name = name
        self.outputFormat = outputFormat
        self.body = body
        id = KernelIdentity.next(name)
    }

    /// The kernel over `extent`. `roiCallback(i, rect)` gives the rectangle of image argument
    /// number `i` (counting images only) needed for output `rect`.
    public func apply(
        extent: Rect, roiCallback: @escaping @Sendable (_ index: Int, _ rect: Rect) -> Rect,
        arguments: [KernelArgument]
    ) throws(DaguerreError) -> Image {
        let values = KernelValues(arguments: arguments)
        guard !values.images.isEmpty else {
            throw .invalidArgument(
                what: "GeneralKernel \(name)", problem: "it needs at least one image argument; use a ColorKernel to generate")
        }
        let body = self.body
        let slots = values.imageSlots
        let node = SamplingNode(
            name: name, inputs: values.images.map(\.node), extent: extent,
            parameters: arguments.map(\.summary).joined(separator: ", "), outputFormat: outputFormat,
            digest: { d in
                d.add(id)
                for a in arguments { a.addDigest(&d) }
            },
            roi: roiCallback
        ) { samplers, dest in
            body(Context(destCoord: dest, samplers: samplers, imageSlot: slots, values: values))
        }
        return Image(node)
    }
}

/// A kernel that says where each output pixel comes from (CIWarpKernel): the closure maps a
/// destination point to a source point, which is sampled bilinearly.
///
/// ```swift
/// let mirror = WarpKernel(name: "mirror") { ctx in SIMD2(Float(ctx.values.float(at: 1)) - ctx.destCoord.x, ctx.destCoord.y) }
/// let out = mirror.apply(extent: image.extent, roiCallback: { _, _ in image.extent }, image: image, arguments: [.float(100)])
/// ```
public struct WarpKernel: Sendable {
    public struct Context: KernelValueReading {
        public let destCoord: SIMD2<Float>
        public let values: KernelValues
    }
    public let name: String
    let body: @Sendable (Context) -> SIMD2<Float>
    let id: Digest

    public init(name: String, _ body: @escaping @Sendable (Context) -> SIMD2<Float>) {
        self.name = name
        self.body = body
        id = KernelIdentity.next(name)
    }

    /// Warps `image`; `arguments` are values the closure reads by position (images are ignored).
    public func apply(
        extent: Rect, roiCallback: @escaping @Sendable (_ index: Int, _ rect: Rect) -> Rect,
        image: Image, arguments: [KernelArgument] = [], interpolation: Interpolation = .bilinear
    ) -> Image {
        let values = KernelValues(arguments: arguments)
        let body = self.body
        let node = SamplingNode(
            name: name, inputs: [image.node], extent: extent,
            parameters: arguments.map(\.summary).joined(separator: ", "), outputFormat: nil,
            digest: { d in
                d.add(id)
                d.add(interpolation.rawValue)
                for a in arguments { a.addDigest(&d) }
            },
            roi: roiCallback
        ) { samplers, dest in
            samplers[0].sample(body(Context(destCoord: dest, values: values)), kernel: interpolation)
        }
        return Image(node)
    }
}
