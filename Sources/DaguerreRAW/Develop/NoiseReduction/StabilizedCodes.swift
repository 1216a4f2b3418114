// Raw codes straight to the noise reduction's stabilized domain (SPEC X3): per Bayer position, a
// table of every 16-bit code's linearized value (``Linearization``'s Float form) put through
// that position's generalized Anscombe transform. With it DCT4-2S reads the mosaic's codes
// instead of a linearized window: the develop skips its pass that wrote the window only for the
// noise reduction to read it back and overwrite it. Our own code.
import DaguerreCore

/// GeneralizedAnscombe's forward of each code's linearized value, at each of the four positions
/// of the 2×2 Bayer block: bit for bit what linearizing the code and then stabilizing it gives.
///
/// ```swift
/// let codes = StabilizedCodes(layout: mosaic.layout, profile: profile)
/// codes.forward(everyOther: mosaicRow + x, position: 1, count: n, into: planeRow)
/// ```
struct StabilizedCodes: Sendable {
    /// Codes per position: every UInt16, so no code from a file can index past a table.
    static let codesPerPosition = 1 << 16
    /// Position p's table from `p · codesPerPosition`.
    private let values: [Float]
    /// The noise models the tables stabilize with.
    let profile: CFANoiseProfile

    /// The tables of a mosaic's levels and a noise profile's models.
    init(layout: MosaicLayout, profile: CFANoiseProfile) {
        let lin = Linearization(layout: layout)
        let black = lin.floatBlack
        let scale = lin.floatScale
        let n = Self.codesPerPosition
        var values = [Float](repeating: 0, count: 4 * n)
        values.withUnsafeMutableBufferPointer { t in
            for p in 0..<4 {
                let vst = GeneralizedAnscombe(profile.planes[p])
                // The linearized value as the denoise window holds it, then the transform's
                // scalar form, whose operations are its row loop's, lane for lane (its max and
                // the loop's select differ only for NaN, which finite levels and models never give).
                for code in 0..<n { t[p * n + code] = vst.forward(Linearization.float(UInt16(code), black: black[p], scale: scale[p])) }
            }
        }
        self.values = values
        self.profile = profile
    }

    /// `into[i]` = the stabilized value of `codes[2·i]`, all at Bayer position `position`.
    func forward(everyOther codes: UnsafePointer<UInt16>, position: Int, count: Int, into dst: UnsafeMutablePointer<Float>) {
        values.withUnsafeBufferPointer { t in
            let table = t.baseAddress! + position * Self.codesPerPosition
            for i in 0..<count { dst[i] = table[Int(codes[i &* 2])] }
        }
    }
}
