// The streaming image signal processor (SPEC C4, W1–W3): turns a raw frame into the Y'CbCr
// 4:2:0 buffers a video output receives, fast enough for 1920×1080 at 30 fps on two cores.
// Bilinear demosaic, white balance and the camera-to-output matrix in one 3×3, the sRGB
// transfer curve through a table, BT.709 Y'CbCr in full (420f) or video (420v) range. Our own
// code: the photo pipeline (RAWFilter) is the quality path; this is the preview/video path.
import DaguerreCore
import DaguerreFormats
import Dispatch
import Foundation

/// Renders raw frames to 8-bit Y'CbCr 4:2:0 in sRGB or Display P3.
///
/// ```swift
/// let isp = VideoISP(outputPrimaries: .displayP3)
/// let yuv = try isp.process(frame.mosaic, whiteBalance: frame.metadata.whiteBalanceGains, fullRange: true)
/// ```
public struct VideoISP: Sendable {
    /// Camera RGB (white balanced) → linear output RGB.
    let matrix: Matrix3
    public let outputPrimaries: Primaries
    /// The sRGB curve (also Display P3's) sampled at 4096 linear steps.
    let curve: [UInt8]

    public init(outputPrimaries: Primaries = .srgb) {
        self.outputPrimaries = outputPrimaries
        let xyzToOut = outputPrimaries.rgbToXYZ.inverse ?? .identity
        matrix = xyzToOut * Colorimetry.cameraToXYZ(under: .d65)
        curve = (0..<4096).map { i in UInt8((TransferFunction.sRGB.encode(Double(i) / 4095) * 255).rounded()) }
    }

    /// Demosaics and converts `m` (even width and height). `exposureScale` maps the raw range
    /// above black to output white (the AE target grey lands near 18% at the default).
    public func process(
        _ m: BayerImage, whiteBalance: SIMD3<Double>, fullRange: Bool = true,
        exposureScale: Double = 1.3
    ) throws(DaguerreError) -> PlanarYCbCr420Buffer {
        guard m.xTrans == nil else {
            throw .unsupported(
                feature: "The video ISP on an X-Trans mosaic (its bilinear demosaic is for Bayer blocks)",
                hint: "Develop an X-Trans frame with RAWFilter, or stream a binned mode, which reads out as Bayer.")
        }
        let w = m.width
        let h = m.height
        var colour = VideoColorProperties.bt709
        if outputPrimaries == .displayP3 { colour = .displayP3 }
        var frame = try PlanarYCbCr420Buffer(width: w, height: h, colorProperties: colour, fullRange: fullRange)
        let black = Float(m.blackLevel.reduce(0, +) / 4)
        let range = Float(m.whiteLevel) - black
        let k = Matrix3.diagonal(whiteBalance.x, whiteBalance.y, whiteBalance.z)
        let mm = (matrix * k).m.map { Float($0 * exposureScale) / range }
        // What each position of the 2×2 quad is (row-major).
        let sites = (0..<4).map { BilinearSite(pattern: m.pattern, x: $0 & 1, y: $0 >> 1) }
        let yScale: Float = fullRange ? 255 : 219
        let yOffset: Float = fullRange ? 0 : 16
        let cScale: Float = fullRange ? 255 : 224
        let lut = curve
        let bt709 = YCbCrMatrix.bt709
        let wr = Luma.rec709.x
        let wg = Luma.rec709.y
        let wb = Luma.rec709.z
        let cbScale = 1 / Float(bt709.cbDivisor)
        let crScale = 1 / Float(bt709.crDivisor)
        m.samples.withUnsafeBufferPointer { src in
            frame.luma.withUnsafeMutableBufferPointer { yp in
                frame.cb.withUnsafeMutableBufferPointer { cbp in
                    frame.cr.withUnsafeMutableBufferPointer { crp in
                        lut.withUnsafeBufferPointer { lutp in
                            // Safety: workers read the shared mosaic and table and write disjoint row pairs of
                            // the planes, all of which outlive the `WorkerPool.forEach` call.
                            let shared = UnsafeTransfer(
                                (
                                    src: src.baseAddress!, y: yp.baseAddress!, cb: cbp.baseAddress!, cr: crp.baseAddress!,
                                    lut: lutp.baseAddress!
                                ))
                            WorkerPool.forEach(h / 2) { pair in
                                let io = shared.value
                                // Rows y-1 ... y+2 as floats above black, one sample of edge padding each side.
                                let stride = w + 2
                                let rows = UnsafeMutablePointer<Float>.allocate(capacity: 4 * stride)
                                defer { rows.deallocate() }
                                for r in 0..<4 {
                                    // Edge rows mirror to the row of the same CFA colours (1 for -1, h-2 for h).
                                    let wanted = pair * 2 - 1 + r
                                    let sy = wanted < 0 ? min(1, h - 1) : wanted >= h ? max(h - 2, 0) : wanted
                                    let s = io.src + sy * w
                                    let d = rows + r * stride + 1
                                    for x in 0..<w { d[x] = Float(s[x]) - black }
                                    d[-1] = d[1]
                                    d[w] = d[w - 2]  // mirrored: same CFA colour as the edge's neighbour
                                }
                                let m0 = mm[0]
                                let m1 = mm[1]
                                let m2 = mm[2]
                                let m3 = mm[3]
                                let m4 = mm[4]
                                let m5 = mm[5]
                                let m6 = mm[6]
                                let m7 = mm[7]
                                let m8 = mm[8]
                                let chroma = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: w / 2)
                                defer { chroma.deallocate() }
                                chroma.initialize(repeating: .zero, count: w / 2)
                                let rgb = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
                                defer { rgb.deallocate() }
                                let rr = rgb
                                let gg = rgb + w
                                let bb = rgb + 2 * w
                                for dy in 0..<2 {
                                    let y = pair * 2 + dy
                                    let up = rows + dy * stride + 1
                                    let mid = up + stride
                                    let down = mid + stride
                                    // With the virtual sensor's integral black levels the rows hold whole
                                    // numbers, so the demosaic's sums are exact in any order.
                                    BilinearDemosaic.row(
                                        up: up, mid: mid, down: down, count: w, first: sites[dy * 2], second: sites[dy * 2 + 1],
                                        red: rr, green: gg, blue: bb)
                                    let lumaRow = io.y + y * w
                                    // Float → integer through the 1.5·2²³ trick: the value lands in the low
                                    // mantissa bits, rounded to nearest, with no trap checks (values are clamped first).
                                    let magic: Float = 12_582_912
                                    for x in 0..<w {
                                        let r = rr[x]
                                        let g = gg[x]
                                        let b = bb[x]
                                        let lr = min(max(m0 * r + m1 * g + m2 * b, 0), 1)
                                        let lg = min(max(m3 * r + m4 * g + m5 * b, 0), 1)
                                        let lb = min(max(m6 * r + m7 * g + m8 * b, 0), 1)
                                        let er = Float(io.lut[Int((lr * 4095 + magic).bitPattern & 0xFFF)])
                                        let eg = Float(io.lut[Int((lg * 4095 + magic).bitPattern & 0xFFF)])
                                        let eb = Float(io.lut[Int((lb * 4095 + magic).bitPattern & 0xFFF)])
                                        // BT.709 Y'CbCr on 0...255 codes.
                                        let luma = wr * er + wg * eg + wb * eb
                                        lumaRow[x] = UInt8(truncatingIfNeeded: (luma * (yScale / 255) + yOffset + magic).bitPattern)
                                        chroma[x >> 1] += SIMD2((eb - luma) * cbScale, (er - luma) * crScale)
                                    }
                                }
                                let cbRow = io.cb + pair * (w / 2)
                                let crRow = io.cr + pair * (w / 2)
                                let cs = cScale / 255 / 4
                                for i in 0..<w / 2 {
                                    let c = chroma[i] * cs + 128.5
                                    cbRow[i] = UInt8(min(max(c.x, 0), 255))
                                    crRow[i] = UInt8(min(max(c.y, 0), 255))
                                }
                            }
                        }
                    }
                }
            }
        }
        return frame
    }
}
