// The WarpRectilinear opcode (DNG 1.4 §7, opcode 1): radial and tangential lens distortion
// correction, per plane, around a normalized optical centre (SPEC R6, X6).
import DaguerreCore

/// A rectilinear warp: for each output pixel, the source position is found with the polynomial
/// model, and sampled bilinearly.
///
/// Positions are normalized by the largest distance from the optical centre to an image corner:
/// with (dx, dy) and r² = dx² + dy², the source is
/// f·dx + 2·kt0·dx·dy + kt1·(r² + 2dx²), f·dy + kt0·(r² + 2dy²) + 2·kt1·dx·dy,
/// where f = kr0 + kr1·r² + kr2·r⁴ + kr3·r⁶.
///
/// ```swift
/// let warp = DNGWarpRectilinear(planes: [.init(radial: [1, -0.02, 0, 0], tangential: [0, 0])])
/// let corrected = warp.apply(to: rgb, width: w, height: h, channels: 3)
/// ```
public struct DNGWarpRectilinear: Sendable, Equatable {
    public struct Coefficients: Sendable, Equatable {
        /// kr0...kr3.
        public var radial: [Double]
        /// kt0, kt1.
        public var tangential: [Double]
        public init(radial: [Double], tangential: [Double]) {
            self.radial = radial
            self.tangential = tangential
        }
    }
    /// One set for all planes, or one per plane.
    public var planes: [Coefficients]
    /// Optical centre as fractions of the width and height.
    public var centerX = 0.5, centerY = 0.5

    public init(planes: [Coefficients], centerX: Double = 0.5, centerY: Double = 0.5) {
        self.planes = planes
        self.centerX = centerX
        self.centerY = centerY
    }

    init(parsing params: [UInt8]) throws(DaguerreError) {
        var r = ByteReader(params, truncated: "DNG WarpRectilinear")
        let n = Int(try r.u32())
        guard (1...4).contains(n), params.count == 4 + n * 48 + 16 else {
            throw .corruptData(format: "DNG WarpRectilinear", detail: "\(n) planes in \(params.count) bytes", path: nil)
        }
        var p: [Coefficients] = []
        for _ in 0..<n {
            let k = [try r.f64(), try r.f64(), try r.f64(), try r.f64(), try r.f64(), try r.f64()]
            guard k.allSatisfy(\.isFinite) else {
                throw .corruptData(format: "DNG WarpRectilinear", detail: "a coefficient is not finite", path: nil)
            }
            p.append(Coefficients(radial: Array(k[0..<4]), tangential: Array(k[4..<6])))
        }
        planes = p
        centerX = try r.f64()
        centerY = try r.f64()
        // The centre is a fraction of the image size (DNG 1.4 §7): anything far outside is damage.
        guard centerX.isFinite, centerY.isFinite, (-1...2).contains(centerX), (-1...2).contains(centerY) else {
            throw .corruptData(
                format: "DNG WarpRectilinear", detail: "the optical centre (\(centerX), \(centerY)) is not a fraction of the image",
                path: nil)
        }
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.u32(UInt32(planes.count))
        for c in planes { (c.radial + c.tangential).forEach { w.f64($0) } }
        w.f64(centerX)
        w.f64(centerY)
        return w.bytes
    }

    /// The corrected image: `pixels` holds `width` × `height` × `channels` interleaved floats.
    public func apply(to pixels: [Float], width: Int, height: Int, channels: Int) -> [Float] {
        guard width > 0, height > 0, channels > 0, pixels.count >= width * height * channels, !planes.isEmpty,
            centerX.isFinite, centerY.isFinite, abs(centerX) <= 1e6, abs(centerY) <= 1e6
        else { return pixels }
        var out = pixels
        let cx = centerX * Double(width - 1)
        let cy = centerY * Double(height - 1)
        let m = max(max(cx, Double(width - 1) - cx).squared + max(cy, Double(height - 1) - cy).squared, 1e-12).squareRoot()
        for c in 0..<channels {
            let k = planes[min(c, planes.count - 1)]
            guard k.radial.count == 4, k.tangential.count == 2 else { continue }
            for y in 0..<height {
                let dy = (Double(y) - cy) / m
                for x in 0..<width {
                    let dx = (Double(x) - cx) / m
                    let r2 = dx * dx + dy * dy
                    let f = k.radial[0] + r2 * (k.radial[1] + r2 * (k.radial[2] + r2 * k.radial[3]))
                    let sx = f * dx + 2 * k.tangential[0] * dx * dy + k.tangential[1] * (r2 + 2 * dx * dx)
                    let sy = f * dy + k.tangential[0] * (r2 + 2 * dy * dy) + 2 * k.tangential[1] * dx * dy
                    let ux = cx + sx * m
                    let uy = cy + sy * m
                    guard ux.isFinite, uy.isFinite else { continue }
                    let px = min(max(ux, 0), Double(width - 1))
                    let py = min(max(uy, 0), Double(height - 1))
                    let x0 = Int(px)
                    let y0 = Int(py)
                    let x1 = min(x0 + 1, width - 1)
                    let y1 = min(y0 + 1, height - 1)
                    let tx = Float(px - Double(x0))
                    let ty = Float(py - Double(y0))
                    func at(_ yy: Int, _ xx: Int) -> Float { pixels[(yy * width + xx) * channels + c] }
                    let a = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * tx
                    let b = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * tx
                    out[(y * width + x) * channels + c] = a + (b - a) * ty
                }
            }
        }
        return out
    }
}

extension Double { fileprivate var squared: Double { self * self } }
