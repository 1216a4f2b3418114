// Timing hooks for raw noise reduction (SPEC X3; Benchmarks/raw-nr): the stages run exactly as the
// develop source runs them, with each stage timed on its own. SPI, not API: for the benchmark
// executable only.
import DaguerreCore
import DaguerreFormats
import Dispatch

@_spi(Benchmarks) public enum NoiseReductionBenchmark {
    /// Seconds spent on one develop-shaped pass over `mosaic` (every photosite, in develop
    /// chunks of `chunkRows` rows through the same ``DenoisedMosaic`` as RAWFilter's develop
    /// source, with the demosaic's 20-photosite halo): linearizing and DCT4-2S (amount 1, the
    /// uniform profile S = `scale`, O = `offset`); and the noise estimate of the whole mosaic.
    /// `chunkRows` 0 runs one full-frame window instead.
    public static func run(_ mosaic: BayerImage, scale: Double, offset: Double, chunkRows: Int) throws(DaguerreError)
        -> (noiseReduction: Double, estimate: Double) {
        let w = mosaic.width, h = mosaic.height
        let step = chunkRows > 0 ? chunkRows : h
        let profile = CFANoiseProfile(uniform: NoiseModel(scale: scale, offset: offset))
        let denoised = DenoisedMosaic(mosaic: mosaic, settings: NoiseReductionSettings(profile: profile, amount: 1))
        try denoised.reserve(rows: step, columns: w)
        let t0 = DispatchTime.now().uptimeNanoseconds
        var y = 0
        while y < h {
            _ = try denoised.update(rows: y..<min(h, y + step), columns: 0..<w, halo: chunkRows > 0 ? 20 : 0)
            y += step
        }
        let t1 = DispatchTime.now().uptimeNanoseconds
        _ = NoiseEstimator.estimate(mosaic, region: IntRect(x: 0, y: 0, width: w, height: h))
        let t2 = DispatchTime.now().uptimeNanoseconds
        return (Double(t1 - t0) / 1e9, Double(t2 - t1) / 1e9)
    }
}
