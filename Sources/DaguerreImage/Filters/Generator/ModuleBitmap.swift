import DaguerreCore

/// A code symbol as modules (I4): what a code generator (QRCodeGenerator) gets from its
/// encoder, drawn as Core
/// Image draws codes: one pixel per module, dark modules black and light ones white, with a
/// white quiet zone around, on a finite extent whose top-left is (0, 0).
///
/// ```swift
/// let bits = ModuleBitmap(width: 2, height: 1, dark: [true, false], quietX: 1, quietY: 1)
/// let image = bits.image(name: "example")   // 4×3: white, black, white, white in the middle row
/// ```
struct ModuleBitmap: Sendable {
    /// The symbol's size in modules, without the quiet zone.
    let width: Int
    let height: Int
    /// Row-major, top row first: true for a dark module.
    let dark: [Bool]
    /// White modules added left and right, and above and below.
    let quietX: Int
    let quietY: Int

    /// The image, one pixel per module; `name` labels the node and enters the digest.
    func image(name: String) -> Image {
        let (w, h, qx, qy, dark) = (width, height, quietX, quietY, dark)
        let extent = Rect(x: 0, y: 0, width: Double(w + 2 * qx), height: Double(h + 2 * qy))
        return Image(
            GeneratorNode(
                name: name, extent: extent, parameters: "\(w)×\(h) modules, quiet zone \(qx)×\(qy)",
                digest: { d in
                    d.add(w)
                    d.add(h)
                    d.add(qx)
                    d.add(qy)
                    let packed = dark.map { $0 ? UInt8(1) : 0 }
                    packed.withUnsafeBytes { d.add(bytes: $0) }
                }
            ) { _ in
                let black = SIMD4<Float>(0, 0, 0, 1)
                let white = SIMD4<Float>(1, 1, 1, 1)
                return { span in
                    let row = span.y - qy
                    for i in 0..<span.count {
                        let col = span.x + i - qx
                        var isDark = false
                        if row >= 0, row < h, col >= 0, col < w { isDark = dark[row * w + col] }
                        span.pixels[i] = isDark ? black : white
                    }
                }
            })
    }
}
