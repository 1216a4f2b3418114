import DaguerreCore

/// A checkerboard (CICheckerboardGenerator): squares of `width` pixels, color0 in the square
/// whose top-left corner is `center`, alternating with color1; edges anti-aliased and softened
/// by `sharpness` as ``SquareWave`` defines. With the two axes' waves fx and fy the colour is
/// color0 + (color1 − color0)·(1 − fx·fy)/2, premultiplied in the working space. Infinite extent.
///
/// ```swift
/// let board = try CheckerboardGenerator(width: 16).outputImage().cropped(to: Rect(x: 0, y: 0, width: 256, height: 256))
/// ```
public struct CheckerboardGenerator: Filter {
    public var center: [Double] = [150, 150]
    public var color0: Color = .white
    public var color1: Color = .black
    public var width: Double = 80
    public var sharpness: Double = 1

    public init() {}
    public init(
        center: [Double] = Self.defaults.center, color0: Color = Self.defaults.color0, color1: Color = Self.defaults.color1,
        width: Double = Self.defaults.width, sharpness: Double = Self.defaults.sharpness
    ) {
        self.center = center
        self.color0 = color0
        self.color1 = color1
        self.width = width
        self.sharpness = sharpness
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "CheckerboardGenerator", displayName: "Checkerboard", categories: [.generator, .video, .stillImage, .builtIn],
        description: "Alternating squares of two colours.",
        parameters: [
            .position(\.center, "inputCenter", "A corner of a color0 square.", min: -1e9, max: 1e9),
            .color(\.color0, "inputColor0", "The first colour."),
            .color(\.color1, "inputColor1", "The second colour."),
            .scalar(\.width, "inputWidth", "The squares' side in pixels.", min: 0, max: 1e9, sliderMax: 800),
            .scalar(\.sharpness, "inputSharpness", "1: edges one pixel wide; 0: a smooth ramp.", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let c = SIMD2(center[0], center[1])
        let c0 = color0
        let c1 = color1
        let wave = SquareWave(width: width, sharpness: sharpness)
        return Image(
            GeneratorNode(
                name: "checkerboard", parameters: "centre \(c) width \(width) sharpness \(sharpness)",
                digest: { d in
                    d.add([c.x, c.y, wave.width, wave.halfRamp])
                    FilterValue.color(c0).addDigest(&d)
                    FilterValue.color(c1).addDigest(&d)
                }
            ) { working in
                let a0 = c0.premultiplied(in: working)
                let a1 = c1.premultiplied(in: working)
                return { span in
                    let fy = wave.value(at: Double(span.y) + 0.5 - c.y)
                    for i in 0..<span.count {
                        let fx = wave.value(at: Double(span.x + i) + 0.5 - c.x)
                        span.pixels[i] = a0 + (a1 - a0) * ((1 - fx * fy) / 2)
                    }
                }
            })
    }
}
