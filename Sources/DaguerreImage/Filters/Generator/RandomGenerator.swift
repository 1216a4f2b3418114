import DaguerreCore

/// Noise (CIRandomGenerator, I4): an image of infinite extent whose every pixel holds four
/// independent numbers drawn uniformly from [0, 1), as Core Image's does, written as they are
/// into the working space's (premultiplied) values. Core Image does not publish its generator;
/// the definition here is a counter-based hash, so a pixel's value depends only on its
/// coordinates and every tile, band or thread count gives the same bits: with (x, y) the
/// pixel's whole coordinates as 32-bit two's-complement words, key = x << 32 | y, and
/// h_k = splitmix64's finalizer of key + k·0x9E3779B97F4A7C15 (k = 1, 2),
/// R = h₁ >> 40, G = (h₁ >> 8) & 0xFFFFFF, B = h₂ >> 40, A = (h₂ >> 8) & 0xFFFFFF, each over 2²⁴.
///
/// ```swift
/// let noise = try RandomGenerator().outputImage().cropped(to: Rect(x: 0, y: 0, width: 256, height: 256))
/// ```
public struct RandomGenerator: Filter {
    public init() {}

    public static let declaration = FilterDeclaration<Self>(
        name: "RandomGenerator", displayName: "Random Generator", categories: [.generator, .video, .stillImage, .builtIn],
        description: "Infinite noise: four independent uniform numbers from 0 to 1 per pixel.", parameters: [])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Image(
            GeneratorNode(name: "random", parameters: "splitmix64", digest: { d in d.add("splitmix64 v1") }) { _ in
                { span in
                    let row = UInt64(UInt32(truncatingIfNeeded: span.y))
                    for i in 0..<span.count {
                        span.pixels[i] = Self.value(key: UInt64(UInt32(truncatingIfNeeded: span.x + i)) << 32 | row)
                    }
                }
            })
    }

    /// The four numbers of the pixel whose key is `key` (x in the high word, y in the low).
    @inline(__always) static func value(key: UInt64) -> SIMD4<Float> {
        let golden: UInt64 = 0x9E37_79B9_7F4A_7C15
        let h1 = mix(key &+ golden)
        let h2 = mix(key &+ 2 &* golden)
        let scale: Float = 1 / 16_777_216
        return SIMD4(
            Float(h1 >> 40), Float((h1 >> 8) & 0xFF_FFFF), Float(h2 >> 40), Float((h2 >> 8) & 0xFF_FFFF)) * scale
    }

    /// splitmix64's output function (Steele, Lea and Flood 2014).
    @inline(__always) static func mix(_ z0: UInt64) -> UInt64 {
        var z = z0
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
