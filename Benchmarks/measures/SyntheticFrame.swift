// The benchmarks' synthetic camera picture: detail and noise an encoder meets in real footage.
import DaguerreCore

/// A moving radial-and-linear gradient with vertical stripes and per-pixel noise (σ about 2
/// levels, like a camera at daylight ISO), RGBA8 sRGB. The disc's centre sits at `centre` of
/// the width; stripes are `stripeWidth` pixels, shifted by `stripeShift`; `seed` carries the
/// noise generator from frame to frame.
///
/// ```swift
/// var seed: UInt32 = 0x2545_F491
/// let frame = try syntheticFrame(width: 1440, height: 1080, centre: 0.3, stripeWidth: 24, stripeShift: 0, alpha: .straight, seed: &seed)
/// ```
public func syntheticFrame(
    width: Int, height: Int, centre: Float, stripeWidth: Int, stripeShift: Int, alpha: PixelBuffer.AlphaMode, seed: inout UInt32
) throws -> PixelBuffer {
    var b = try PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: .sRGB, alpha: alpha)
    let rb = b.bytesPerRow
    var state = seed
    b.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let cx = Float(width) * centre
        let cy = Float(height) * 0.5
        let stripe = max(1, stripeWidth)
        for y in 0..<height {
            let row = p + y * rb
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                let noise = Float(Int(state & 7) - 4) * 0.6
                let dx = Float(x) - cx
                let dy = Float(y) - cy
                let d = (dx * dx + dy * dy).squareRoot() / Float(width)
                let stripes = Float((x + stripeShift) / stripe % 2) * 18
                row[4 * x] = UInt8(clamping: Int(200 - 160 * d + stripes + noise))
                row[4 * x + 1] = UInt8(clamping: Int(60 + 120 * Float(y) / Float(height) + noise))
                row[4 * x + 2] = UInt8(clamping: Int(40 + 150 * Float(x) / Float(width) - stripes + noise))
                row[4 * x + 3] = 255
            }
        }
    }
    seed = state
    return b
}
