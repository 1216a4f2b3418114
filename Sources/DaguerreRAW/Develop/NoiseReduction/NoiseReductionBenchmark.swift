// Timing hooks for raw noise reduction (SPEC X3; Benchmarks/raw-nr): the stages run exactly as the
// develop source runs them, with each stage timed on its own. SPI, not API: for the benchmark
// executable only.
import DaguerreCore
import DaguerreFormats
import Dispatch

@_spi(Benchmarks) public enum NoiseReductionBenchmark {
    /// Seconds spent on one develop-shaped pass over `mosaic` (every photosite): stabilizing
    /// the codes (``StabilizedCodes``) and DCT4-2S (amount 1, the uniform profile S = `scale`, O = `offset`) through the same
    /// ``DenoisedMosaic`` as RAWFilter's develop source, in its chunks
    /// (`DevelopChunks.chunkRows`, with the demosaic's halo) or, with `developChunks`
    /// false, as one full-frame window.
    public static func run(_ mosaic: BayerImage, scale: Double, offset: Double, developChunks: Bool) throws(DaguerreError) -> Double {
        let w = mosaic.width
        let h = mosaic.height
        let step = developChunks ? DevelopChunks.chunkRows : h
        let profile = CFANoiseProfile(uniform: NoiseModel(scale: scale, offset: offset))
        let denoised = DenoisedMosaic(layout: mosaic.layout, settings: NoiseReductionSettings(profile: profile, amount: 1))
        try denoised.reserve(rows: step, columns: w)
        let t0 = DispatchTime.now().uptimeNanoseconds
        try mosaic.samples.withUnsafeBufferPointer { (samples) throws(DaguerreError) in
            let whole = MosaicRows(whole: samples.baseAddress!, width: w, height: h)
            var y = 0
            while y < h {
                _ = try denoised.update(
                    rows: y..<min(h, y + step), columns: 0..<w, halo: developChunks ? LMMSEGWDemosaic.halo : 0, from: whole)
                y += step
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
    }

    /// Seconds spent estimating the noise profile of the whole mosaic (``NoiseEstimator``).
    public static func estimate(_ mosaic: BayerImage) -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = NoiseEstimator.estimate(mosaic, region: IntRect(x: 0, y: 0, width: mosaic.width, height: mosaic.height))
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
    }
}
