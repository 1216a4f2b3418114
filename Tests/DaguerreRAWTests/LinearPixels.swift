import DaguerreCore
import DaguerreImage
import Foundation

/// A render in linear, extended-range sRGB floats, read by pixel: what the RAW tests measure
/// (means of boxes, luminance, whole-image float comparisons), rendered and read one way.
///
/// ```swift
/// let pixels = try LinearPixels(try raw.outputImage())
/// let grey = pixels.mean(x: 10..<20, y: 10..<20)
/// ```
struct LinearPixels {
    let width: Int, height: Int
    /// R, G, B, A of each pixel, row by row.
    let values: [Float]

    /// Renders `image` (or `bounds` of it) with `context`, by default one whose working format
    /// is the default (half float).
    init(_ image: Image, context: Context? = nil, bounds: Rect? = nil) throws {
        let context = try context ?? Context()
        let buffer =
            try bounds.map { try context.createBuffer(image, bounds: $0, format: .rgbaf, colorSpace: .extendedLinearSRGB) }
            ?? context.createBuffer(image, format: .rgbaf, colorSpace: .extendedLinearSRGB)
        width = buffer.width
        height = buffer.height
        values = buffer.withUnsafeBytes { raw in
            (0..<buffer.height).flatMap { y in
                Array(
                    UnsafeBufferPointer(
                        start: (raw.baseAddress! + y * buffer.bytesPerRow).assumingMemoryBound(to: Float.self), count: buffer.width * 4))
            }
        }
    }

    /// A context that works in 32-bit floats (no half-float rounding in the measurement).
    static func floatContext() throws -> Context { try Context(options: .init(workingFormat: .rgbaf)) }

    subscript(x x: Int, y y: Int) -> SIMD3<Double> {
        let i = (y * width + x) * 4
        return SIMD3(Double(values[i]), Double(values[i + 1]), Double(values[i + 2]))
    }

    /// Rec. 709 luminance of a pixel.
    func luma(x: Int, y: Int) -> Double {
        let p = self[x: x, y: y]
        return 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z
    }

    /// The mean colour of a box (rows, then columns, as summed).
    func mean(x: Range<Int>, y: Range<Int>) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero
        for yy in y { for xx in x { sum += self[x: xx, y: yy] } }
        return sum / Double(x.count * y.count)
    }

    /// R, G, B of every pixel, row by row (alpha dropped).
    var rgb: [Float] { stride(from: 0, to: values.count, by: 4).flatMap { values[$0..<($0 + 3)] } }

    /// How many floats of `part` (a render of the region at `x`, `y`) differ from this render's.
    func differences(_ part: LinearPixels, atX x: Int, y: Int) -> Int {
        var n = 0
        for r in 0..<part.height {
            for i in 0..<part.width * 4
            where part.values[r * part.width * 4 + i].bitPattern != values[((y + r) * width + x) * 4 + i].bitPattern {
                n += 1
            }
        }
        return n
    }

    /// The mean of R, G and B over the whole render.
    var mean: Double { rgb.reduce(0.0) { $0 + Double($1) } / Double(max(1, width * height * 3)) }

    /// The mean absolute difference of R, G and B from a render of the same size.
    func meanAbsoluteDifference(_ other: LinearPixels) -> Double {
        precondition(other.width == width && other.height == height, "renders of different sizes")
        let a = rgb
        let b = other.rgb
        return zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(1, a.count))
    }
}
