// The images the burst merge aligns (SPEC P13), as HDR+ does (Hasinoff et al. 2016, §4): each
// 2×2 Bayer block averaged into one grey pixel (a quarter-resolution image in which a one-pixel
// shift is a whole block, so the CFA phase is kept), then box-filtered levels 2, 2 and 4 times
// coarser. Our own code: no Debian or SwiftPM library does HDR+-style raw burst merging.
import DaguerreCore

/// A plane of floats, row-major.
struct GreyPlane: Sendable {
    let width: Int
    let height: Int
    var pixels: [Float]
}

/// A frame's alignment pyramid, finest level first.
///
/// Level 0 holds the mean of each 2×2 block's normalized samples (black subtracted, divided by
/// white − black, per position); level k + 1 is the box mean of `factors[k]`² pixels of level k.
/// Levels stop before one would be smaller than a tile.
///
/// ```swift
/// let pyramid = GreyPyramid(samples: pointer, layout: layout)
/// pyramid.levels.map(\.width)   // [2016, 1008, 504, 126] for 4032-wide frames
/// ```
struct GreyPyramid: Sendable {
    /// Each level's size reduction from the level below it (HDR+ uses 2, 4, 4 above its grey
    /// image; two steps of 2 keep the searches at the two finest levels small).
    static let factors = [2, 2, 4]

    var levels: [GreyPlane]

    /// The factor between level `level` and level `level + 1`.
    static func factor(above level: Int) -> Int { factors[level] }

    /// The pyramid of one frame, from its samples.
    init(samples: UnsafePointer<UInt16>, layout: BurstLayout) {
        var levels = [Self.blockMeans(samples, layout)]
        for f in Self.factors {
            let last = levels[levels.count - 1]
            guard last.width / f >= TileGrid.size, last.height / f >= TileGrid.size else { break }
            levels.append(Self.boxMean(last, factor: f))
        }
        self.levels = levels
    }

    /// Level 0: the mean normalized value of each whole 2×2 block.
    private static func blockMeans(_ samples: UnsafePointer<UInt16>, _ layout: BurstLayout) -> GreyPlane {
        let w = layout.quadWidth
        let h = layout.quadHeight
        let stride = layout.width
        // g = Σ (v − b)·k / 4 = Σ v·(k/4) − Σ b·k/4, per position.
        let k = layout.normalize * 0.25
        let bias = (layout.black * k).sum()
        let (k0, k1, k2, k3) = (k[0], k[1], k[2], k[3])
        let pixels = [Float](unsafeUninitializedCapacity: w * h) { out, count in
            let o = out.baseAddress!
            for qy in 0..<h {
                let r0 = samples + 2 * qy * stride
                let r1 = r0 + stride
                let row = o + qy * w
                for qx in 0..<w {
                    let x = 2 * qx
                    var g = Float(r0[x]) * k0
                    g = g.addingProduct(Float(r0[x + 1]), k1)
                    g = g.addingProduct(Float(r1[x]), k2)
                    g = g.addingProduct(Float(r1[x + 1]), k3)
                    row[qx] = g - bias
                }
            }
            count = w * h
        }
        return GreyPlane(width: w, height: h, pixels: pixels)
    }

    /// The mean of each `factor`×`factor` block (a last partial block is left out).
    private static func boxMean(_ plane: GreyPlane, factor f: Int) -> GreyPlane {
        let w = plane.width / f
        let h = plane.height / f
        let sw = plane.width
        let scale = 1 / Float(f * f)
        let pixels = plane.pixels.withUnsafeBufferPointer { src in
            [Float](unsafeUninitializedCapacity: w * h) { out, count in
                let s = src.baseAddress!
                let o = out.baseAddress!
                for y in 0..<h {
                    let row = o + y * w
                    for x in 0..<w { row[x] = 0 }
                    for dy in 0..<f {
                        let line = s + (y * f + dy) * sw
                        for x in 0..<w {
                            var sum: Float = 0
                            for dx in 0..<f { sum += line[x * f + dx] }
                            row[x] += sum
                        }
                    }
                    for x in 0..<w { row[x] *= scale }
                }
                count = w * h
            }
        }
        return GreyPlane(width: w, height: h, pixels: pixels)
    }
}
