import DaguerreCore
import Testing

@testable import DaguerreRAW

/// The streaming develop's chunking (SPEC X7): however the engine asks for rows, the pixels are
/// those of one develop of the whole image. Read band by band, the decoder develops 256-row
/// chunks ahead on another thread, the LMMSE-GW stripes roll on from chunk to chunk, the noise
/// reduction's windows carry rows over, and the image's last rows come as a short chunk of
/// their own; read in one call, it develops everything as one chunk.
@Suite struct RAWChunkingTests {
    @Test(
        "A develop read in bands (chunks ahead, rolled stripes, carried noise-reduction rows, a short last chunk) equals the same develop in one call, bit for bit",
        arguments: [DCT4PlaneDenoiser.BlockStep.alternate, .every])
    func bandsEqualOneCall(step: DCT4PlaneDenoiser.BlockStep) throws {
        // 1200 rows: chunks at 0, 256, 512 and 768, the last 176 rows split into 112 + 64.
        let (w, h) = (300, 1200)
        let (mosaic, model) = try NoiseScenes.mosaic(width: w, height: h, electrons: 1667) { x, y, c in
            NoiseScenes.smooth(x, y % 400, c, width: w, height: 400)
        }
        var settings = DevelopSettings(
            matrix: Matrix3([1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0, -0.5, 1.5]), neutral: SIMD3(0.5, 1, 0.7),
            crop: IntRect(x: 0, y: 0, width: w, height: h), workingSpace: .extendedLinearSRGB, demosaic: .lmmseGW)
        settings.domain = .power25
        settings.noiseReduction = NoiseReductionSettings(profile: CFANoiseProfile(uniform: model), amount: 1, blockStep: step)
        let bytesPerRow = w * 3 * 4
        var whole = [Float](repeating: .nan, count: w * h * 3)
        var banded = whole
        try whole.withUnsafeMutableBytes {
            try RAWDevelopDecoder(mosaic: mosaic, settings: settings).readRows(
                y: 0, count: h, into: $0.baseAddress!, bytesPerRow: bytesPerRow)
        }
        let decoder = try RAWDevelopDecoder(mosaic: mosaic, settings: settings)
        decoder.willRead(rows: 0..<h)
        try banded.withUnsafeMutableBytes { buffer in
            for y in stride(from: 0, to: h, by: 64) {
                try decoder.readRows(y: y, count: min(64, h - y), into: buffer.baseAddress! + y * bytesPerRow, bytesPerRow: bytesPerRow)
            }
        }
        #expect(whole.allSatisfy { $0.isFinite })
        let differing = zip(whole, banded).filter { $0.bitPattern != $1.bitPattern }.count
        #expect(differing == 0, "\(differing) of \(whole.count) samples differ")
    }
}
