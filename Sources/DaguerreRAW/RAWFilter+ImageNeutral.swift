// White balance guessed from the image, only when asked (SPEC X1, X6): the grey-world guess
// dcraw and LibRaw make for `-a`: the mean camera response over the crop, per colour, leaving
// out every 8×8 block that holds a photosite near clipping, taken as the neutral.
import DaguerreCore
import DaguerreFormats
import DaguerreImage

extension RAWFilter {
    /// Sets ``neutralTemperature`` and ``neutralTint`` from a neutral guessed from the whole
    /// image (grey world over 8×8 blocks with nothing near clipping, as LibRaw's automatic white
    /// balance). A develop never does this by itself: a file without an as-shot white develops
    /// with the camera's daylight multipliers (``provenance``).
    ///
    /// ```swift
    /// var raw = try RAWFilter(url: URL(fileURLWithPath: "IMG_0001.CRW"))
    /// try raw.setNeutralFromImage()
    /// ```
    public mutating func setNeutralFromImage() throws(DaguerreError) {
        let neutral = try imageNeutral()
        let white = colorModel.whiteXY(forNeutral: [neutral.x, neutral.y, neutral.z])
        (neutralTemperature, neutralTint) = ColorTemperature.temperatureAndTint(of: white)
        provenance.white = .image
    }

    /// The mean linearized response per colour over unclipped 8×8 blocks of the crop.
    func imageNeutral() throws(DaguerreError) -> SIMD3<Double> {
        let c = crop
        var sum = SIMD3<Double>.zero
        var count = SIMD3<Double>.zero
        if let m = try wholeMosaic() {
            let lin = Linearization(layout: m.layout)
            var block = SIMD3<Double>.zero
            var blockCount = SIMD3<Double>.zero
            for by in stride(from: c.y, to: c.y + c.height - 7, by: 8) {
                for bx in stride(from: c.x, to: c.x + c.width - 7, by: 8) {
                    block = .zero
                    blockCount = .zero
                    var clipped = false
                    for y in by..<by + 8 {
                        for x in bx..<bx + 8 {
                            let v = lin.value(Double(m.samples[y * m.width + x]), at: (y & 1) * 2 + (x & 1))
                            if v >= 0.98 { clipped = true }
                            let colour = m.pattern.color(x: x, y: y)
                            block[colour] += max(v, 0)
                            blockCount[colour] += 1
                        }
                    }
                    if !clipped {
                        sum += block
                        count += blockCount
                    }
                }
            }
        } else if let l = header.linearRaw {
            let lin = Linearization(linearRaw: l)
            for y in c.y..<c.y + c.height {
                for x in c.x..<c.x + c.width {
                    var pixel = SIMD3<Double>.zero
                    for s in 0..<3 {
                        let plane = min(s, l.samplesPerPixel - 1)
                        pixel[s] = lin.value(Double(l.samples[(y * l.width + x) * l.samplesPerPixel + plane]), at: plane)
                    }
                    if pixel.max() < 0.98 {
                        sum += pointwiseMax(pixel, .zero)
                        count += SIMD3(repeating: 1)
                    }
                }
            }
        }
        let mean = sum / pointwiseMax(count, SIMD3(repeating: 1))
        guard mean.min() > 1e-6, mean.y > 0 else {
            throw .invalidArgument(
                what: "a white balance from the image", problem: "the image has no unclipped area with signal in every colour to judge from"
            )
        }
        return mean / mean.y
    }
}
