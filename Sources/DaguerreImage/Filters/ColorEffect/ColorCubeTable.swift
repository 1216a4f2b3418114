import DaguerreCore

/// A colour cube as Core Image lays it out (inputCubeData): dimension d, d³ RGBA float entries,
/// red varying fastest, then green, then blue, entries premultiplied. Looked up by trilinear
/// interpolation of an unpremultiplied colour's position in the cube (I4): components are
/// clamped to [0, 1] first, or with `extrapolate` continued linearly from the outer cells; the
/// entry found is scaled by the pixel's alpha (premultiplied output).
struct ColorCubeTable: Sendable {
    let dimension: Int
    let table: FloatTable

    /// Checks the data's size against the dimension; the error names `property` of `F`.
    init<F: Filter>(
        dimension: Int, data: [Float], for _: F.Type, dimensionKey: PartialKeyPath<F>, dataKey: PartialKeyPath<F>
    ) throws(DaguerreError) {
        guard dimension >= 2, dimension <= 128 else { throw F.invalid(dimensionKey, "the dimension must be 2…128, got \(dimension)") }
        let needed = dimension * dimension * dimension * 4
        guard data.count == needed else {
            throw F.invalid(
                dataKey,
                "a cube of dimension \(dimension) needs 4·\(dimension)³ = \(needed) floats (RGBA, red fastest), got \(data.count)")
        }
        guard data.allSatisfy(\.isFinite) else { throw F.invalid(dataKey, "every value must be finite") }
        self.dimension = dimension
        table = FloatTable(data)
    }

    /// The identity cube of dimension `d` (each entry its own position, alpha 1).
    static func identity(_ d: Int) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(d * d * d * 4)
        let s = Float(d - 1)
        for b in 0..<d {
            for g in 0..<d {
                for r in 0..<d { out += [Float(r) / s, Float(g) / s, Float(b) / s, 1] }
            }
        }
        return out
    }

    func apply(to input: Image, extrapolate: Bool, name: String) -> Image {
        let d = dimension
        let table = self.table
        return Image(
            PointwiseNode(
                name: name, inputs: [input.node], extent: input.extent, parameters: "dimension \(d) extrapolate \(extrapolate)",
                digest: { digest in
                    digest.add(d)
                    digest.add(extrapolate)
                    digest.add(bytes: UnsafeRawBufferPointer(start: table.values, count: table.count * 4))
                }
            ) { span in
                let entries = UnsafeRawPointer(table.values).assumingMemoryBound(to: SIMD4<Float>.self)
                let top = Float(d - 1)
                let p = span.pixels
                for i in 0..<span.count {
                    let a = p[i].w
                    guard a > 0 else {
                        p[i] = .zero
                        continue
                    }
                    let c = SpanMath.unpremultiply(p[i])
                    var pos = SIMD3(c.x, c.y, c.z)
                    if !extrapolate { pos = pointwiseMin(pointwiseMax(pos, .zero), SIMD3(repeating: 1)) }
                    pos *= top
                    // The cell: its lower corner clamped inside the cube; f may leave [0, 1] only when extrapolating.
                    let lo = pointwiseMin(pointwiseMax(pos.rounded(.down), .zero), SIMD3(repeating: top - 1))
                    let f = pos - lo
                    let (r, g, b) = (Int(lo.x), Int(lo.y), Int(lo.z))
                    @inline(__always) func at(_ r: Int, _ g: Int, _ b: Int) -> SIMD4<Float> { entries[(b * d + g) * d + r] }
                    let c00 = at(r, g, b) + (at(r + 1, g, b) - at(r, g, b)) * f.x
                    let c10 = at(r, g + 1, b) + (at(r + 1, g + 1, b) - at(r, g + 1, b)) * f.x
                    let c01 = at(r, g, b + 1) + (at(r + 1, g, b + 1) - at(r, g, b + 1)) * f.x
                    let c11 = at(r, g + 1, b + 1) + (at(r + 1, g + 1, b + 1) - at(r, g + 1, b + 1)) * f.x
                    let c0 = c00 + (c10 - c00) * f.y
                    let c1 = c01 + (c11 - c01) * f.y
                    p[i] = (c0 + (c1 - c0) * f.z) * a
                }
            })
    }
}

extension FilterDeclaration.Parameter {
    /// A cube's dimension (Core Image's "count" type: a whole number).
    static func cubeDimension(_ property: WritableKeyPath<F, Int> & Sendable) -> Self {
        Self(
            property, key: "inputCubeDimension", kind: .integer, doc: "The cube's size along each axis.", min: 2, max: 128,
            encode: { .number(Double($0)) },
            decode: { value in if case .number(let v) = value { Int(v) } else { nil } })
    }
    /// A cube's data: 4·d³ floats, RGBA, red fastest (Core Image passes them as bytes).
    static func cubeData(
        _ property: WritableKeyPath<F, [Float]> & Sendable, key: String = "inputCubeData",
        doc: String = "4·d³ floats: premultiplied RGBA entries, red varying fastest, then green, then blue."
    ) -> Self {
        Self(
            property, key: key, kind: .vector, doc: doc,
            encode: { .vector($0.map(Double.init)) },
            decode: { value in if case .vector(let v) = value { v.map(Float.init) } else { nil } })
    }
}
