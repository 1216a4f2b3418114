// White balance from a neutral point picked in the image (SPEC X1; CIRAWFilter.neutralLocation):
// the camera's mean response around the point is taken as the neutral, and the temperature and
// tint that make it neutral are found through the DNG colour model.
import DaguerreCore
import DaguerreFormats
import DaguerreImage

extension RAWFilter {
    /// Sets ``neutralTemperature`` and ``neutralTint`` so the area around (x, y) develops
    /// neutral. Coordinates are pixels of the full-size develop before orientation (the crop's
    /// top-left is (0, 0)); the mean is taken over 8×8 photosites (or 5×5 LinearRaw pixels).
    ///
    /// ```swift
    /// try raw.setNeutralLocation(x: 1210, y: 644)   // a grey card
    /// ```
    public mutating func setNeutralLocation(x: Double, y: Double) throws(DaguerreError) {
        let c = crop
        guard x.isFinite, y.isFinite, x >= 0, y >= 0, x < Double(c.width), y < Double(c.height) else {
            throw .invalidArgument(what: "neutral location (\(x), \(y))", problem: "must lie inside the \(c.width)×\(c.height) image")
        }
        let px = c.x + Int(x)
        let py = c.y + Int(y)
        var sum = SIMD3<Double>.zero
        var count = SIMD3<Double>.zero
        var clipped = false
        if let m = try wholeMosaic() {
            let lin = Linearization(layout: m.layout)
            for yy in max(0, py - 4)..<min(m.height, py + 4) {
                for xx in max(0, px - 4)..<min(m.width, px + 4) {
                    let p = (yy & 1) * 2 + (xx & 1)
                    let colour = m.layout.color(x: xx, y: yy)
                    let v = lin.value(Double(m.samples[yy * m.width + xx]), at: p)
                    clipped = clipped || v >= 0.99
                    sum[colour] += v
                    count[colour] += 1
                }
            }
        } else if let l = header.linearRaw {
            let lin = Linearization(linearRaw: l)
            for yy in max(0, py - 2)..<min(l.height, py + 3) {
                for xx in max(0, px - 2)..<min(l.width, px + 3) {
                    for s in 0..<3 {
                        let plane = min(s, l.samplesPerPixel - 1)
                        let v = lin.value(Double(l.samples[(yy * l.width + xx) * l.samplesPerPixel + plane]), at: plane)
                        clipped = clipped || v >= 0.99
                        sum[s] += v
                        count[s] += 1
                    }
                }
            }
        }
        let neutral = sum / SIMD3(max(count.x, 1), max(count.y, 1), max(count.z, 1))
        guard !clipped, neutral.min() > 1e-4 else {
            throw .invalidArgument(what: "neutral location (\(x), \(y))", problem: "pick a grey area that is neither black nor clipped")
        }
        let white = colorModel.whiteXY(forNeutral: [neutral.x, neutral.y, neutral.z])
        (neutralTemperature, neutralTint) = ColorTemperature.temperatureAndTint(of: white)
    }
}
