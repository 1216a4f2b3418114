// The light falling on the sensor (SPEC C4): the scene seen through the lens, before any
// photosite counts it. Rendered once per scene, illuminant, lens and sensor mode and cached,
// because it does not change from frame to frame; each frame then samples it (shifted by
// camera motion) and adds the sensor's noise. Our own code: nothing in the Linux stack
// simulates image formation.
import DaguerreCore
import Dispatch
import Foundation

/// Camera-RGB irradiance per lux of scene light, on the sensor grid of one mode, in three
/// planes, with each point's scene distance.
///
/// ```swift
/// let light = OpticalImage.render(scene: StudioScene(), lighting: SceneLighting(illuminant: .d65),
///                                 lens: .backCamera, width: 1920, height: 1080, fullWidth: 4032, fullHeight: 3024)
/// let green = light.planes[1][y * light.width + x]   // × lux × exposure × e⁻/lux·s = electrons
/// ```
public struct OpticalImage: Sendable {
    public let width: Int
    public let height: Int
    /// Red, green and blue camera response per lux, row-major.
    public let planes: [[Float]]
    /// Scene distance in metres, row-major.
    public let distance: [Float]

    /// Renders `scene` for a `width` × `height` sensor mode that reads out the centre of a
    /// `fullWidth` × `fullHeight` sensor scaled to fit (binned), 2 × 2 supersampled.
    public static func render(
        scene: any Scene, lighting: SceneLighting, lens: LensModel, width: Int, height: Int,
        fullWidth: Int, fullHeight: Int
    ) -> OpticalImage {
        // The mode's field: the sensor's 4:3 field, cropped to the mode's aspect (16:9 crops rows).
        let fieldAspect = Double(fullWidth) / Double(fullHeight)
        let modeAspect = Double(width) / Double(height)
        let uSpan = modeAspect >= fieldAspect ? 1.0 : modeAspect / fieldAspect
        let vSpan = modeAspect >= fieldAspect ? fieldAspect / modeAspect : 1.0
        let count = width * height
        // The result's own arrays are the render target and the blur works in place in them, so
        // a render holds 4 floats per pixel (plus the blur's row and column-band scratch), not a
        // full-size scratch copy besides.
        var red = [Float](repeating: 0, count: count)
        var green = [Float](repeating: 0, count: count)
        var blue = [Float](repeating: 0, count: count)
        var distance = [Float](repeating: 0, count: count)
        // Radii are measured on the full 4:3 field, so a point vignettes and distorts alike in every mode.
        let halfDiagonal =
            ((Double(width) / uSpan) * (Double(width) / uSpan) + (Double(height) / vSpan) * (Double(height) / vSpan)).squareRoot() / 2
        // The lens PSF, scaled from full-resolution pixels to this mode's.
        let sigma = lens.blurSigmaPixels * Double(width) / Double(fullWidth) / uSpan
        red.withUnsafeMutableBufferPointer { rp in
            green.withUnsafeMutableBufferPointer { gp in
                blue.withUnsafeMutableBufferPointer { bp in
                    distance.withUnsafeMutableBufferPointer { dp in
                        guard let r = rp.baseAddress, let g = gp.baseAddress, let b = bp.baseAddress, let d = dp.baseAddress else { return }
                        // Safety: each worker writes only its own row of each plane, and the arrays outlive
                        // the `WorkerPool.forEach` call that uses them.
                        let shared = UnsafeTransfer((r: r, g: g, b: b, d: d))
                        WorkerPool.forEach(height) { y in
                            let rows = shared.value
                            for x in 0..<width {
                                var sum = SIMD3<Float>.zero
                                var dist: Float = 0
                                for sy in 0..<2 {
                                    for sx in 0..<2 {
                                        let px = Double(x) + 0.25 + 0.5 * Double(sx)
                                        let py = Double(y) + 0.25 + 0.5 * Double(sy)
                                        let p = SIMD2((px - Double(width) / 2) / halfDiagonal, (py - Double(height) / 2) / halfDiagonal)
                                        let q = lens.distort(p) * halfDiagonal
                                        let u = 0.5 + (q.x / Double(width) - 0) * uSpan
                                        let v = 0.5 + (q.y / Double(height)) * vSpan
                                        let s = scene.sample(u: u, v: v, lighting: lighting)
                                        sum += s.response
                                        dist += s.distance
                                    }
                                }
                                let p = SIMD2(
                                    (Double(x) + 0.5 - Double(width) / 2) / halfDiagonal,
                                    (Double(y) + 0.5 - Double(height) / 2) / halfDiagonal)
                                let gain = Float(lens.illumination(r2: (p * p).sum())) / 4
                                let i = y * width + x
                                rows.r[i] = sum.x * gain
                                rows.g[i] = sum.y * gain
                                rows.b[i] = sum.z * gain
                                rows.d[i] = dist / 4
                            }
                        }
                        for plane in [r, g, b] { GaussianBlur.apply(plane, width: width, height: height, sigma: sigma) }
                    }
                }
            }
        }
        return OpticalImage(width: width, height: height, planes: [red, green, blue], distance: distance)
    }
}
