import DaguerreCore
import Foundation

/// A rectangle with rounded corners as a signed distance (SPEC I4), what RoundedRectangleGenerator
/// and RoundedRectangleStrokeGenerator draw: negative inside, positive outside, in pixels, with
/// the corner radius clamped to half the smaller side. A pixel's coverage of a shape whose edge
/// is at distance 0 is clamp(½ − d, 0, 1) at its centre: one pixel of antialiasing. Corners
/// are circles by default; with an `exponent` n above 2 they are superellipses, the distance
/// beyond the straight part measured in the n-norm, (|qx|ⁿ + |qy|ⁿ)^(1/n) (exact for n = 2, a
/// close approximation near the edge otherwise).
///
/// ```swift
/// let box = RoundedBox(Rect(x: 0, y: 0, width: 100, height: 60), radius: 10)
/// box.distance(50, 30)   // −30: the centre is 30 pixels inside the nearest edge
/// ```
struct RoundedBox: Sendable {
    let cx: Double
    let cy: Double
    /// Half the size of the straight part (the box shrunk by the radius).
    let hx: Double
    let hy: Double
    let radius: Double
    let exponent: Double

    init(_ rect: Rect, radius: Double, exponent: Double = 2) {
        self.exponent = exponent
        let r = min(max(radius, 0), rect.width / 2, rect.height / 2)
        cx = rect.midX
        cy = rect.midY
        hx = rect.width / 2 - r
        hy = rect.height / 2 - r
        self.radius = r
    }

    /// The signed distance from (x, y) to the edge.
    @inline(__always) func distance(_ x: Double, _ y: Double) -> Double {
        let qx = abs(x - cx) - hx
        let qy = abs(y - cy) - hy
        let (ox, oy) = (max(qx, 0), max(qy, 0))
        let outside = exponent == 2 ? (ox * ox + oy * oy).squareRoot() : pow(pow(ox, exponent) + pow(oy, exponent), 1 / exponent)
        return outside + min(max(qx, qy), 0) - radius
    }

    /// The coverage of a pixel whose centre is `d` from an edge (negative inside).
    @inline(__always) static func coverage(_ d: Double) -> Float { Float(min(max(0.5 - d, 0), 1)) }
}
