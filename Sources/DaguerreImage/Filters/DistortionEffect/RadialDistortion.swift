import DaguerreCore
import Foundation

/// What the radial distortions share (SPEC I4; Core Image's DistortionEffect filters with a
/// centre and a radius): their centre and radius parameters, declared once, and the warp of a
/// point given by its offset d from the centre and its distance r = |d|. The region of interest
/// of an output rectangle is the rectangle itself, plus the square of half-side `reach` about the
/// centre when the rectangle meets the disc of `radius` (the filter's promise: points inside the
/// disc read within `reach` of the centre; points outside read themselves).
///
/// ```swift
/// let out = RadialDistortion.image(photo, name: "shrink", center: SIMD2(150, 150), radius: 100, reach: 100,
///                                  extent: photo.extent, parameters: []) { d, r in r < 100 ? d * 2 : d }
/// ```
enum RadialDistortion {
    static func center<F: Filter>(_ property: WritableKeyPath<F, [Double]> & Sendable) -> FilterDeclaration<F>.Parameter {
        .position(property, "inputCenter", "The centre of the effect.", min: -1e7, max: 1e7)
    }

    static func radius<F: Filter>(_ property: WritableKeyPath<F, Double> & Sendable, min: Double = 0) -> FilterDeclaration<F>.Parameter {
        .scalar(property, "inputRadius", "The radius of the affected disc.", min: min, max: 1e6, sliderMin: min, sliderMax: 1000)
    }

    /// `input` warped by `map(d, r)` → the source's offset from the centre (nil: transparent).
    static func image(
        _ input: Image, name: String, center c: SIMD2<Double>, radius: Double, reach: Double, extent: Rect, parameters: [Double],
        roi: (@Sendable (Rect) -> Rect?)? = nil,
        map: @escaping @Sendable (_ d: SIMD2<Double>, _ r: Double) -> SIMD2<Double>?
    ) -> Image {
        let standard: @Sendable (Rect) -> Rect? = { r in Warp.meets(r, c, radius) ? r.union(Warp.disc(c, reach)) : r }
        return Warp.image(
            input, name: name, extent: extent, parameters: [c.x, c.y, radius] + parameters, roi: roi ?? standard
        ) { p in
            let d = p - c
            guard let s = map(d, (d * d).sum().squareRoot()) else { return nil }
            return c + s
        }
    }

    /// The input's extent grown to hold the disc (content can be moved into it).
    static func extent(_ input: Image, center c: SIMD2<Double>, radius: Double) -> Rect {
        input.extent.isEmpty ? .null : input.extent.union(Warp.disc(c, radius))
    }

    /// The offset `d` turned by `angle` radians (clockwise on screen, y down).
    @inline(__always) static func rotate(_ d: SIMD2<Double>, _ angle: Double) -> SIMD2<Double> {
        let cs = cos(angle)
        let sn = sin(angle)
        return SIMD2(cs * d.x - sn * d.y, sn * d.x + cs * d.y)
    }
}
