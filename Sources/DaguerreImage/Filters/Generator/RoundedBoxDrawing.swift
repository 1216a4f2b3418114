import DaguerreCore

/// Draws a ``RoundedBox`` (SPEC I4): a generator whose pixels are a colour times a coverage
/// computed from the signed distance at their centres (or, for BlurredRectangleGenerator, from
/// the pixel centre itself), shared by the rectangle generators.
///
/// ```swift
/// let disc = try RoundedBoxDrawing.image(name: "disc", box: RoundedBox(Rect(x: 0, y: 0, width: 20, height: 20), radius: 10),
///                                        color: .white, extent: Rect(x: 0, y: 0, width: 20, height: 20)) { RoundedBox.coverage($0) }
/// ```
enum RoundedBoxDrawing {
    /// `extra` are the numbers `coverage` depends on beyond the box (for the cache key).
    static func image(
        name: String, box: RoundedBox, color: Color, extent: Rect, extra: [Double] = [],
        coverage: @escaping @Sendable (Double) -> Float
    ) throws(DaguerreError) -> Image {
        try image(name: name, box: box, color: color, extent: extent, extra: extra) { x, y in coverage(box.distance(x, y)) }
    }

    /// The same with the coverage computed from the pixel centre (x, y).
    static func image(
        name: String, box: RoundedBox, color: Color, extent: Rect, extra: [Double] = [],
        at coverage: @escaping @Sendable (Double, Double) -> Float
    ) throws(DaguerreError) -> Image {
        guard !extent.isInfinite else {
            throw .invalidParameter(filter: name, key: "inputExtent", problem: "the rectangle must be finite; give its width and height")
        }
        let numbers = [box.cx, box.cy, box.hx, box.hy, box.radius, box.exponent] + extra
        return Image(
            GeneratorNode(
                name: name, extent: extent, parameters: numbers.map { "\($0)" }.joined(separator: " "),
                digest: { d in
                    d.add(numbers)
                    FilterValue.color(color).addDigest(&d)
                }
            ) { working in
                let c = color.premultiplied(in: working)
                return { span in
                    let y = Double(span.y) + 0.5
                    for i in 0..<span.count { span.pixels[i] = c * coverage(Double(span.x + i) + 0.5, y) }
                }
            })
    }
}
