import DaguerreCore

/// Draws a mesh of line segments (CIMeshGenerator; SPEC I4). The mesh is a list of segments,
/// four numbers each (x₀, y₀, x₁, y₁); every segment is a line `width` pixels wide with round
/// ends, and a pixel is `color` times its coverage clamp(width/2 + ½ − d, 0, 1), d the distance
/// from its centre to the nearest segment (one pixel of antialiasing), premultiplied in the
/// working space. Core Image takes an array of CIVectors; by name this is the flat list of their
/// numbers; by default a triangle in the square (0, 0)–(300, 300). Extent: the segments' bounding
/// box grown by half the width and a pixel (empty for no segments). Core Image publishes no
/// formula; this is the definition used.
///
/// ```swift
/// let triangle = try MeshGenerator(mesh: [10, 10, 90, 10, 90, 10, 50, 80, 50, 80, 10, 10], width: 2).outputImage()
/// ```
public struct MeshGenerator: Filter {
    public var width: Double = 1.5
    public var color: Color = .white
    public var mesh: [Double] = [20, 20, 280, 20, 280, 20, 150, 280, 150, 280, 20, 20]

    public init() {}
    public init(mesh: [Double] = Self.defaults.mesh, width: Double = Self.defaults.width, color: Color = Self.defaults.color) {
        self.mesh = mesh
        self.width = width
        self.color = color
    }

    /// The most segments a mesh may have (each pixel measures its distance to every segment
    /// whose box it is near).
    static let maximumSegments = 100_000

    public static let declaration = FilterDeclaration<Self>(
        name: "MeshGenerator", displayName: "Mesh Generator", categories: [.generator, .stillImage, .builtIn],
        description: "Draws line segments of a given width and colour.",
        parameters: [
            .scalar(\.width, "inputWidth", "The lines' width in pixels.", min: 0, max: 1e4, sliderMax: 20),
            .color(\.color, "inputColor", "The lines' colour."),
            .vector(\.mesh, "inputMesh", "The segments: x₀, y₀, x₁, y₁ for each.", count: nil, min: -1e7, max: 1e7),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        guard mesh.count % 4 == 0, mesh.count / 4 <= Self.maximumSegments else {
            throw Self.invalid(\.mesh, "\(mesh.count) numbers are not up to \(Self.maximumSegments) segments of 4 (x₀, y₀, x₁, y₁)")
        }
        let segments = stride(from: 0, to: mesh.count, by: 4).map { SIMD4(mesh[$0], mesh[$0 + 1], mesh[$0 + 2], mesh[$0 + 3]) }
        let half = width / 2
        let reach = half + 1
        var box = Rect.null
        for s in segments {
            box = box.union(Rect(minX: min(s.x, s.z), minY: min(s.y, s.w), maxX: max(s.x, s.z), maxY: max(s.y, s.w)))
        }
        let extent = segments.isEmpty ? Rect.null : box.insetBy(dx: -reach, dy: -reach)
        let color = self.color
        return Image(
            GeneratorNode(
                name: "mesh", extent: extent, parameters: "\(segments.count) segments, width \(width)",
                digest: { d in
                    d.add(mesh)
                    d.add(width)
                    FilterValue.color(color).addDigest(&d)
                }
            ) { working in
                let c = color.premultiplied(in: working)
                return { span in
                    let py = Double(span.y) + 0.5
                    // Only the segments whose box, grown by the reach, meets this row.
                    let near = segments.filter { min($0.y, $0.w) - reach <= py && max($0.y, $0.w) + reach >= py }
                    for i in 0..<span.count {
                        let px = Double(span.x + i) + 0.5
                        var d = Double.infinity
                        for s in near { d = min(d, Self.distance(px, py, s)) }
                        span.pixels[i] = c * Float(min(max(half + 0.5 - d, 0), 1))
                    }
                }
            })
    }

    /// The distance from (x, y) to the segment s = (x₀, y₀, x₁, y₁).
    @inline(__always) static func distance(_ x: Double, _ y: Double, _ s: SIMD4<Double>) -> Double {
        let (dx, dy) = (s.z - s.x, s.w - s.y)
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? ((x - s.x) * dx + (y - s.y) * dy) / length2 : 0
        t = min(max(t, 0), 1)
        let (ex, ey) = (x - (s.x + t * dx), y - (s.y + t * dy))
        return (ex * ex + ey * ey).squareRoot()
    }
}
