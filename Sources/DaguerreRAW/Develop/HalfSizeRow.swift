// One row of the half-size develop (SPEC X2, X7: draft mode and scale factors of ½ or less):
// each 2×2 block of photosites becomes one pixel (red, the mean of the greens, blue),
// linearized per photosite, shaded by the gain maps when the file has them, and multiplied by
// the camera matrix, as a loop LLVM vectorizes. Our own code.

/// The blocks of one row: where their two sensor rows start, their gain-map factors, and what
/// each of a block's four photosites (by offset dy·2 + dx) is.
///
/// `develop` writes every block through the matrix and reports whether one is near clipping;
/// the caller then redoes those blocks through the highlight stage with `block(_:)`, the same
/// arithmetic, so both agree bit for bit.
///
/// ```swift
/// let row = HalfSizeRow(top: line, bottom: line + width, topGain: nil, bottomGain: nil, layout: layout)
/// if !row.develop(blocks: n, matrix: matrix, knee: knee, into: out) { /* highlight stage */ }
/// ```
struct HalfSizeRow {
    /// Black level and scale (1 / (white − black)) of each photosite of a block, and which
    /// photosites are red, the two greens and blue.
    struct Layout: Sendable {
        var black: (Float, Float, Float, Float)
        var scale: (Float, Float, Float, Float)
        var roles: (red: Int, green0: Int, green1: Int, blue: Int)
    }

    /// The first block's top-left photosite, and the one below it.
    let top: UnsafePointer<UInt16>, bottom: UnsafePointer<UInt16>
    /// The gain maps' factors for the same photosites, or nil without maps.
    let topGain: UnsafePointer<Float>?, bottomGain: UnsafePointer<Float>?
    let layout: Layout

    /// Block `j`'s linear camera RGB.
    @inline(__always) func block(_ j: Int) -> (red: Float, green: Float, blue: Float) {
        block(j, shaded: topGain != nil)
    }

    @inline(__always) private func block(_ j: Int, shaded: Bool) -> (red: Float, green: Float, blue: Float) {
        let (b0, b1, b2, b3) = layout.black
        let (s0, s1, s2, s3) = layout.scale
        let x = 2 &* j
        var l0 = Linearization.float(top[x], black: b0, scale: s0)
        var l1 = Linearization.float(top[x &+ 1], black: b1, scale: s1)
        var l2 = Linearization.float(bottom[x], black: b2, scale: s2)
        var l3 = Linearization.float(bottom[x &+ 1], black: b3, scale: s3)
        if shaded, let t = topGain, let u = bottomGain {
            l0 *= t[x]
            l1 *= t[x &+ 1]
            l2 *= u[x]
            l3 *= u[x &+ 1]
        }
        @inline(__always) func pick(_ i: Int) -> Float { i == 0 ? l0 : i == 1 ? l1 : i == 2 ? l2 : l3 }
        let r = layout.roles
        return (pick(r.red), (pick(r.green0) + pick(r.green1)) * 0.5, pick(r.blue))
    }

    /// Writes `blocks` pixels of interleaved RGB through `matrix` into `o`; returns false if a
    /// block has a channel above `knee` (linear camera RGB), which the highlight stage must see.
    func develop(blocks: Int, matrix: DevelopMatrix, knee: SIMD3<Float>, into o: UnsafeMutablePointer<Float>) -> Bool {
        let (kr, kg, kb) = (knee.x, knee.y, knee.z)
        // Two copies of the loop, so that the one without gain maps has no test in it.
        @inline(__always) func run(shaded: Bool) -> Bool {
            var flagged: Int32 = 0
            for j in 0..<blocks {
                let (red, green, blue) = block(j, shaded: shaded)
                flagged |= (red > kr ? 1 : 0) | (green > kg ? 1 : 0) | (blue > kb ? 1 : 0)
                matrix.write(red, green, blue, to: o + 3 &* j)
            }
            return flagged == 0
        }
        return topGain == nil ? run(shaded: false) : run(shaded: true)
    }
}
