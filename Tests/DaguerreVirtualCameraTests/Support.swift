import DaguerreCore
import DaguerreFormats

@testable import DaguerreVirtualCamera

/// A uniform neutral wall: the flat field of a photon-transfer measurement.
struct FlatScene: Scene {
    var reflectance: Float = 0.5
    var distance: Float = 2
    var cacheKey: String { "flat-\(reflectance)-\(distance)" }
    func sample(u: Double, v: Double, lighting: SceneLighting) -> SceneSample {
        SceneSample(response: lighting.neutral(reflectance), distance: distance)
    }
}

/// The back camera scaled down (same pixel physics, fewer photosites) so debug-build tests
/// stay quick; one readout mode of the full sensor.
func smallBackProfile(width: Int = 1008, height: Int = 756, vignetting: Double? = nil) -> VirtualCameraProfile {
    var p = VirtualCameraProfile.back
    p.sensor.width = width
    p.sensor.height = height
    p.modes = [SensorReadoutMode(width: width, height: height, maxFrameRate: 30)]
    if let vignetting { p.lens.vignetting = vignetting }
    return p
}

/// Mean and sample variance of the 10-bit values of one CFA colour (0 R, 1 G, 2 B) in a box.
func cfaValues(_ m: BayerImage, color: Int, x: Range<Int>, y: Range<Int>) -> [Double] {
    var v: [Double] = []
    let scale = Double(m.whiteLevel + 16) / 1024
    for yy in y { for xx in x where m.pattern.color(x: xx, y: yy) == color { v.append(Double(m.samples[yy * m.width + xx]) / scale) } }
    return v
}

func meanAndVariance(_ v: [Double]) -> (mean: Double, variance: Double) {
    let mean = v.reduce(0, +) / Double(v.count)
    return (mean, v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count - 1))
}

/// Least-squares line y = a + b·x.
func fitLine(_ x: [Double], _ y: [Double]) -> (intercept: Double, slope: Double) {
    let n = Double(x.count)
    let mx = x.reduce(0, +) / n
    let my = y.reduce(0, +) / n
    let sxy = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
    let sxx = x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
    let b = sxy / sxx
    return (my - b * mx, b)
}
