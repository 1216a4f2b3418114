import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreRAW

/// The noise estimate that tells fine texture from noise (version 6's, SPEC X3).
@Suite struct TextureSeparatingFitTests {
    /// Bins at levels 0.01…0.9 whose variance is exactly `model` plus `texture`·x².
    static func bins(_ model: NoiseModel, texture: Double) -> [NoiseEstimator.Bin] {
        (0..<14).map { i in
            let x = 0.01 * pow(1.4, Double(i))
            return NoiseEstimator.Bin(level: x, variance: model.scale * x + model.offset + texture * x * x, count: 200)
        }
    }

    /// The whole mosaic's estimate by the two-term fit and by the texture-separating one.
    static func estimates(_ mosaic: BayerImage) -> (twoTerm: CFANoiseProfile, separated: CFANoiseProfile) {
        let whole = IntRect(x: 0, y: 0, width: mosaic.width, height: mosaic.height)
        return (NoiseEstimator.estimate(mosaic, region: whole), NoiseEstimator.estimate(mosaic, region: whole, method: .separatingTexture))
    }

    @Test(
        "From bins of a sensor's noise alone the fit finds S and O and no texture term; from bins with texture whose variance grows with the level's square it finds all three; texture alone leaves no noise; no bins give none"
    )
    func fitsTheTerms() {
        let sensor = NoiseModel(scale: 1.0 / 6000, offset: 2e-7)
        let plain = TextureSeparatingFit(bins: Self.bins(sensor, texture: 0))
        #expect(plain.texture == 0)
        #expect(abs(plain.noise.scale / sensor.scale - 1) < 1e-6 && abs(plain.noise.offset / sensor.offset - 1) < 1e-6, "\(plain)")
        let textured = TextureSeparatingFit(bins: Self.bins(sensor, texture: 9e-4))
        #expect(abs(textured.texture / 9e-4 - 1) < 1e-6, "\(textured)")
        #expect(abs(textured.noise.scale / sensor.scale - 1) < 1e-6 && abs(textured.noise.offset / sensor.offset - 1) < 1e-6)
        // Texture alone: no noise left.
        let textureOnly = TextureSeparatingFit(bins: Self.bins(.zero, texture: 9e-4))
        #expect(textureOnly.noise.scale < 1e-12 && textureOnly.noise.offset < 1e-15, "\(textureOnly)")
        #expect(TextureSeparatingFit(bins: []).noise == .zero)
        let one = TextureSeparatingFit(bins: [NoiseEstimator.Bin(level: 0.2, variance: 1e-5, count: 40)])
        #expect(one.noise.hasNoise && one.texture == 0, "a single bin is read as noise: \(one)")
    }

    @Test(
        "On a smooth Poisson–Gaussian mosaic with white fine texture of 4 % of the level, the same in every colour (the texture term's own case) the estimate is within 20 % of the true σ at 18 % grey in every plane, where the two-term fit counts the texture as noise (over 1.3×); without the texture both are within 15 %, bit for bit the same"
    )
    func separatesTexture() throws {
        let (w, h) = (1024, 768)
        let grain = NoiseScenes.grain(width: w, height: h, seed: 11)
        for texture in [0.0, 0.04] {
            let (mosaic, truth) = try NoiseScenes.mosaic(width: w, height: h, electrons: 6000, seed: 13) { x, y, c in
                NoiseScenes.smooth(x, y, c, width: w, height: h) * (1 + texture * grain[y * w + x])
            }
            let (twoTerm, separated) = Self.estimates(mosaic)
            let t = truth.sigma(at: 0.18)
            for p in 0..<4 {
                let (a, b) = (twoTerm.planes[p].sigma(at: 0.18) / t, separated.planes[p].sigma(at: 0.18) / t)
                #expect(
                    abs(b - 1) < (texture == 0 ? 0.15 : 0.2), "texture \(texture), plane \(p): σ separated \(b)× the truth, two-term \(a)×")
                if texture == 0 {
                    #expect(abs(a - 1) < 0.15 && separated.planes[p] == twoTerm.planes[p], "plane \(p): two-term \(a)×, separated \(b)×")
                } else {
                    #expect(a > 1.3, "plane \(p): \(a)×")
                }
            }
        }
    }

    @Test(
        "Where one plane's texture grows as the square of the level and another's as the level itself (which reads as noise), the planes' separated fits disagree and every plane keeps the two-term fit, bit for bit; without the second plane's texture the first plane's fit is separated"
    )
    func disagreementKeepsTheTwoTermFit() throws {
        let (w, h) = (1024, 768)
        let grain = NoiseScenes.grain(width: w, height: h, seed: 17)
        var separatedGreen: [NoiseModel] = []
        for redTexture in [false, true] {
            let (mosaic, _) = try NoiseScenes.mosaic(width: w, height: h, electrons: 6000, seed: 19) { x, y, c in
                let level = NoiseScenes.smooth(x, y, c, width: w, height: h)
                let g = grain[y * w + x]
                // RGGB: the greens of even rows get texture of 4 % of the level; red, with
                // `redTexture`, texture of variance 3 × the shot noise's (3·x/6000).
                if c == 1, y % 2 == 0 { return level * (1 + 0.04 * g) }
                if c == 0, redTexture { return level + (3 * level / 6000).squareRoot() * g }
                return level
            }
            let (twoTerm, separated) = Self.estimates(mosaic)
            if redTexture {
                #expect(separated.planes == twoTerm.planes, "separated \(separated.planes), two-term \(twoTerm.planes)")
                #expect(separated.planes[1] != separatedGreen[0], "the textured green plane's fit would have been separated")
            } else {
                #expect(separated.planes[1] != twoTerm.planes[1], "the textured green plane: \(separated.planes[1]) \(twoTerm.planes[1])")
                separatedGreen = [separated.planes[1]]
            }
        }
    }

    @Test("Planes agree when their σ are within 1.5× of each other at 5 %, 18 % and 50 % of white, and none is zero")
    func disagreeingPlanesFallBack() {
        let a = NoiseModel(scale: 1e-4, offset: 0)
        #expect(NoiseEstimator.agree([a, a, NoiseModel(scale: 1.4e-4, offset: 0), a]))
        #expect(!NoiseEstimator.agree([a, a, NoiseModel(scale: 2.3e-4, offset: 0), a]))
        #expect(!NoiseEstimator.agree([a, .zero, a, a]))
        // Equal at 18 % grey, 1.52× apart at 5 % of white.
        #expect(!NoiseEstimator.agree([a, NoiseModel(scale: 0.5e-4, offset: 0.09e-4), a, a]))
    }
}
