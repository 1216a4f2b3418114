import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation

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

/// `frame` of the studio chart (a `width` × `height` mosaic, its colours by `colors`) written as
/// a DNG by `camera` and developed by LibRaw through rawpy (`dng_judge.py develop`): the mean and
/// largest ΔE2000 of the 24 patches against their truth (the chart's XYZ under `illuminant`,
/// adapted to D65), exposure matched on neutral 5's green, and the CFA pattern LibRaw read.
func libRawChartResult(
    camera: VirtualCamera, frame: RawFrame, illuminant: Illuminant, colors: SensorFilterColors, name: String
) throws -> [String: Any] {
    let (w, h) = (frame.mosaic.width, frame.mosaic.height)
    let dir = try TemporaryDirectory()
    let path = dir.path("\(name).dng")
    try DNGWriter.write(camera.dngImage(for: frame), to: path)
    SampleFiles.keep(path)
    let studio = StudioScene()
    let black = frame.mosaic.blackLevel[0]
    let range = Double(frame.mosaic.whiteLevel) - black
    var patches: [[String: Any]] = []
    var greyLevel = 0.0
    for i in 0..<24 {
        let box = studio.chartPatchBox(i)
        let x = Int(box.u.lowerBound * Double(w))
        let y = Int(box.v.lowerBound * Double(h))
        let size = Int((box.u.upperBound - box.u.lowerBound) * Double(w))
        let adapt = Matrix3.bradfordAdaptation(from: illuminant.whiteXYZ, to: Illuminant.d65.whiteXYZ)
        let xyz = adapt * Colorimetry.xyz(ofReflectance: SpectralTables.colorChecker[i], under: illuminant)
        patches.append(["x": x, "y": y, "size": size, "xyz": [xyz.x, xyz.y, xyz.z]])
        if i == 21 {
            var sum = 0.0
            var n = 0.0
            for yy in y + size / 4..<y + 3 * size / 4 {
                for xx in x + size / 4..<x + 3 * size / 4 where colors.color(x: xx, y: yy) == 1 {
                    sum += Double(frame.mosaic.samples[yy * w + xx])
                    n += 1
                }
            }
            greyLevel = (sum / n - black) / range / xyz.y
        }
    }
    // "exposure": the output level of a 100% reflector, from neutral 5's green.
    let spec = dir.path("chart.json")
    try JSONSerialization.data(withJSONObject: ["exposure": greyLevel, "patches": patches]).write(to: URL(fileURLWithPath: spec))
    return try Judge.python("dng_judge.py", ["develop", path, spec])
}
