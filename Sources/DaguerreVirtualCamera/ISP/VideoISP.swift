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
        curve = (0..<4096).map { i in
            let v = Double(i) / 4095
            let e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8((e * 255).rounded())
        }
    }

    /// Demosaics and converts `m` (even width and height). `exposureScale` maps the raw range
    /// above black to output white (the AE target grey lands near 18% at the default).
    public func process(_ m: BayerImage, whiteBalance: SIMD3<Double>, fullRange: Bool = true,
                        exposureScale: Double = 1.3) throws(DaguerreError) -> PlanarYCbCr420Buffer {
        let w = m.width, h = m.height
        var colour = VideoColorProperties.bt709
        if outputPrimaries == .displayP3 { colour = .displayP3 }
        var frame = try PlanarYCbCr420Buffer(width: w, height: h, colorProperties: colour, fullRange: fullRange)
        let black = Float(m.blackLevel.reduce(0, +) / 4), range = Float(m.whiteLevel) - black
        let k = Matrix3.diagonal(whiteBalance.x, whiteBalance.y, whiteBalance.z)
        let mm = (matrix * k).m.map { Float($0 * exposureScale) / range }
        let cfa = m.pattern.cfaPattern.map(Int.init)
        let yScale: Float = fullRange ? 255 : 219, yOffset: Float = fullRange ? 0 : 16, cScale: Float = fullRange ? 255 : 224
        let lut = curve
        m.samples.withUnsafeBufferPointer { src in
            frame.luma.withUnsafeMutableBufferPointer { yp in
            frame.cb.withUnsafeMutableBufferPointer { cbp in
            frame.cr.withUnsafeMutableBufferPointer { crp in
            lut.withUnsafeBufferPointer { lutp in
                let io = ISPPointers(src: src.baseAddress!, y: yp.baseAddress!, cb: cbp.baseAddress!, cr: crp.baseAddress!, lut: lutp.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: h / 2) { pair in
                    var rowCb = [Float](repeating: 0, count: w / 2), rowCr = rowCb
                    for dy in 0..<2 {
                        let y = pair * 2 + dy
                        let up = io.src + max(y - 1, 0) * w, mid = io.src + y * w, down = io.src + min(y + 1, h - 1) * w
                        for x in 0..<w {
                            let l = max(x - 1, 0), r = min(x + 1, w - 1)
                            let c = cfa[(y & 1) * 2 + (x & 1)]
                            let centre = Float(mid[x]) - black
                            let cross = (Float(up[x]) + Float(down[x]) + Float(mid[l]) + Float(mid[r])) * 0.25 - black
                            let diag = (Float(up[l]) + Float(up[r]) + Float(down[l]) + Float(down[r])) * 0.25 - black
                            let horiz = (Float(mid[l]) + Float(mid[r])) * 0.5 - black
                            let vert = (Float(up[x]) + Float(down[x])) * 0.5 - black
                            var rgb: SIMD3<Float>
                            switch c {
                            case 0: rgb = SIMD3(centre, cross, diag)
                            case 2: rgb = SIMD3(diag, cross, centre)
                            default:
                                // Green: red and blue come from the row or the column, by phase.
                                let redInRow = cfa[(y & 1) * 2 + ((x + 1) & 1)] == 0
                                rgb = redInRow ? SIMD3(horiz, centre, vert) : SIMD3(vert, centre, horiz)
                            }
                            let o = SIMD3<Float>(mm[0] * rgb.x + mm[1] * rgb.y + mm[2] * rgb.z,
                                                 mm[3] * rgb.x + mm[4] * rgb.y + mm[5] * rgb.z,
                                                 mm[6] * rgb.x + mm[7] * rgb.y + mm[8] * rgb.z)
                            let q = simd_clamp(o, .zero, SIMD3(repeating: 1)) * 4095
                            let e = SIMD3<Float>(Float(io.lut[Int(q.x)]), Float(io.lut[Int(q.y)]), Float(io.lut[Int(q.z)])) / 255
                            // BT.709 Y'CbCr.
                            let luma = 0.2126 * e.x + 0.7152 * e.y + 0.0722 * e.z
                            io.y[y * w + x] = UInt8(luma * yScale + yOffset + 0.5)
                            rowCb[x / 2] += (e.z - luma) / 1.8556
                            rowCr[x / 2] += (e.x - luma) / 1.5748
                        }
                    }
                    for i in 0..<w / 2 {
                        io.cb[pair * (w / 2) + i] = UInt8(min(max(rowCb[i] / 4 * cScale + 128.5, 0), 255))
                        io.cr[pair * (w / 2) + i] = UInt8(min(max(rowCr[i] / 4 * cScale + 128.5, 0), 255))
                    }
                }
            }}}}
        }
        return frame
    }
}

@inline(__always)
private func simd_clamp(_ v: SIMD3<Float>, _ lo: SIMD3<Float>, _ hi: SIMD3<Float>) -> SIMD3<Float> {
    v.replacing(with: lo, where: v .< lo).replacing(with: hi, where: v .> hi)
}

/// Safety: workers read the shared mosaic and table and write disjoint row pairs of the planes,
/// all of which outlive the `concurrentPerform` call.
private struct ISPPointers: @unchecked Sendable {
    let src: UnsafePointer<UInt16>
    let y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    let lut: UnsafePointer<UInt8>
}
