import DaguerreCore
import Foundation

/// The monochrome halftone screens (I4; CIDotScreen, CILineScreen, CIHatchedScreen,
/// CICircularScreen). Core Image describes them as a screen of the given width and angle,
/// centred on `center`, whose edges `sharpness` hardens, and does not publish the formulas;
/// this is the definition used. With (u, v) the pixel centre's offset from `center`, rotated by
/// −angle and divided by `width`, and (fu, fv) their offsets from the nearest whole number
/// (in [−½, ½]), each screen is a threshold s(u, v) in [0, 1]:
/// - dot: s = 1 − 2(fu² + fv²), round black dots at the cell centres;
/// - line: s = 1 − 2|fv|, black lines along the angle;
/// - hatched: the larger of the line screen and the one at right angles to it, a cross hatch;
/// - circular: s = 1 − 2|f(r)|, r the distance from `center` over `width`: black rings.
/// A pixel of luminance L (Rec. 709 weights on the working space's unpremultiplied values,
/// clamped to [0, 1]) becomes the grey clamp(½ + (L − s)/ε, 0, 1) with ε = max(1 − sharpness,
/// 2/width): darker pixels cross more of the screen and turn black; ε is the ramp that
/// anti-aliases the edges (about a pixel wide at sharpness 1). Alpha is kept.
///
/// ```swift
/// let dots = HalftoneScreen(kind: .dot, center: [150, 150], angle: 0.3, width: 6, sharpness: 0.7).image(of: photo)
/// ```
struct HalftoneScreen: Sendable {
    enum Kind: String, Sendable { case dot, line, hatched, circular }

    let kind: Kind
    let center: [Double]
    let angle: Double
    let width: Double
    let sharpness: Double

    func image(of input: Image) -> Image {
        let (kind, cx, cy, w) = (kind, center[0], center[1], width)
        let (cosA, sinA) = (cos(angle), sin(angle))
        let eps = Float(max(1 - sharpness, 2 / width))
        return Image(
            PointwiseNode(
                name: "halftone." + kind.rawValue, inputs: [input.node], extent: input.extent,
                parameters: "centre \(cx),\(cy) angle \(angle) width \(w) sharpness \(sharpness)",
                digest: { d in d.add([cx, cy, angle, w, sharpness]) }
            ) { span in
                let dy = Double(span.y) + 0.5 - cy
                let p = span.pixels
                for i in 0..<span.count {
                    let dx = Double(span.x + i) + 0.5 - cx
                    let s = Float(Self.threshold(kind, dx: dx, dy: dy, cosA: cosA, sinA: sinA, width: w))
                    let v = p[i]
                    let a = v.w
                    guard a > 0 else { continue }
                    let l = min(max((v * SpanMath.luma).sum() / a, 0), 1)
                    let o = min(max(0.5 + (l - s) / eps, 0), 1) * a
                    p[i] = SIMD4(o, o, o, a)
                }
            })
    }

    /// The screen's threshold at an offset (dx, dy) from the centre, in pixels.
    @inline(__always) static func threshold(_ kind: Kind, dx: Double, dy: Double, cosA: Double, sinA: Double, width: Double) -> Double {
        @inline(__always) func frac(_ t: Double) -> Double { t - t.rounded() }
        switch kind {
        case .circular:
            return 1 - 2 * abs(frac((dx * dx + dy * dy).squareRoot() / width))
        case .dot, .line, .hatched:
            let fu = frac((dx * cosA + dy * sinA) / width)
            let fv = frac((-dx * sinA + dy * cosA) / width)
            switch kind {
            case .dot: return 1 - 2 * (fu * fu + fv * fv)
            case .line: return 1 - 2 * abs(fv)
            default: return max(1 - 2 * abs(fv), 1 - 2 * abs(fu))
            }
        }
    }
}
