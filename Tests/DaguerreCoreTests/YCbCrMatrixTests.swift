import DaguerreCore
import Testing

/// The Y'CbCr matrices are defined once (Kr, Kb) and everything else is derived: the derived
/// values must be the ones the video code and the engine were pinned with.
@Suite struct YCbCrMatrixTests {
    @Test("BT.709's luminance weights are 0.2126, 0.7152, 0.0722 in Float, and its chroma divisors 1.8556 and 1.5748")
    func bt709Weights() {
        #expect(Luma.rec709 == SIMD4<Float>(0.2126, 0.7152, 0.0722, 0))
        #expect(1 / Float(YCbCrMatrix.bt709.cbDivisor) == Float(1) / Float(1.8556))
        #expect(1 / Float(YCbCrMatrix.bt709.crDivisor) == Float(1) / Float(1.5748))
    }

    @Test("BT.709 at video range in 16-bit fixed point: luma rows sum to 219/255 × 65536, chroma rows to zero, as published")
    func fixedPoint() {
        let f = YCbCrMatrix.bt709.videoRangeFixedPoint()
        #expect(f.luma == (11966, 40254, 4064))
        #expect(f.cb == (-6596, -22188, 28784))
        #expect(f.cr == (28784, -26145, -2639))
        // Grey stays grey: white maps to luma 235 and chroma 128 with the conversion's biases.
        let white = (f.luma.0 + f.luma.1 + f.luma.2) * 255 + (16 << 16) + (1 << 15)
        #expect(white >> 16 == 235)
        #expect(f.cb.0 + f.cb.1 + f.cb.2 == 0 && f.cr.0 + f.cr.1 + f.cr.2 == 0)
    }

    @Test("MatrixCoefficients codes name their matrices: 1 BT.709, 5 and 6 BT.601, 9 and 10 BT.2020, others BT.709")
    func codes() {
        #expect(YCbCrMatrix(code: 1) == .bt709 && YCbCrMatrix(code: 2) == .bt709)
        #expect(YCbCrMatrix(code: 5) == .bt601 && YCbCrMatrix(code: 6) == .bt601)
        #expect(YCbCrMatrix(code: 9) == .bt2020 && YCbCrMatrix(code: 10) == .bt2020)
    }
}
