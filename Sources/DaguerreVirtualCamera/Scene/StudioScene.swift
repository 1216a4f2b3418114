// The built-in studio scene (SPEC C4): a 24-patch ColorChecker with measured spectra,
// a slanted edge, a stepless grey ramp and a fine resolution target (a chirp and a Siemens
// star) on a mid-grey wall. Every element has a known truth, so colour error, noise, exposure
// and sharpness can be measured on the camera's frames.
import DaguerreCore
import Foundation

/// The studio test scene, laid out in the 4:3 field (u, v in 0...1).
///
/// ```swift
/// let studio = StudioScene()
/// let grey = studio.chartPatchCentre(21)           // neutral 5, an 18%-ish grey
/// let edgeBox = studio.slantedEdgeRegion
/// ```
public struct StudioScene: Scene {
    /// Reflectance of the wall behind the targets.
    public var wallReflectance: Float = 0.18
    /// Distance of the chart and targets, and of the wall, in metres.
    public var targetDistance: Float = 1.2
    public var wallDistance: Float = 3.0

    public init() {}

    public var cacheKey: String { "studio-\(wallReflectance)-\(targetDistance)-\(wallDistance)" }

    // Layout, in units of the field's width: x = u, y = v × 3/4 (so squares are square). Every
    // target lies within y 0.10...0.65, so 16:9 video modes (which crop the 4:3 field to
    // y 0.094...0.656) see all of them.
    /// The field's height in units of its width.
    public static let fieldHeight = 0.75
    /// The chart: 6 × 4 square patches of `patchSize`, with `patchGap` between them.
    public static let chartOrigin = SIMD2<Double>(0.05, 0.11)
    public static let patchSize = 0.06
    public static let patchGap = 0.01
    /// The slanted edge: a dark square tilted by 5° on a white card.
    public static let edgeCard = (x: 0.55...0.95, y: 0.11...0.38)
    public static let edgeAngle = 5.0 * Double.pi / 180
    public static let edgeHalfSize = 0.08
    /// The grey ramp: reflectance from 0.02 at the left to 0.95 at the right.
    public static let ramp = (x: 0.05...0.95, y: 0.40...0.44)
    /// The resolution target: a chirp of bars (left) and a Siemens star (right).
    public static let chirp = (x: 0.05...0.55, y: 0.46...0.635)
    public static let starCentre = SIMD2<Double>(0.76, 0.55)
    public static let starRadius = 0.085

    /// The centre of chart patch `index` (0...23, row by row from dark skin), as (u, v).
    public func chartPatchCentre(_ index: Int) -> SIMD2<Double> {
        let col = Double(index % 6)
        let row = Double(index / 6)
        let step = Self.patchSize + Self.patchGap
        let c = Self.chartOrigin + SIMD2(col * step, row * step) + Self.patchSize / 2
        return SIMD2(c.x, c.y / Self.fieldHeight)
    }

    /// The box of chart patch `index`, as (u, v) ranges.
    public func chartPatchBox(_ index: Int) -> (u: ClosedRange<Double>, v: ClosedRange<Double>) {
        let c = chartPatchCentre(index)
        let h = Self.patchSize / 2
        return (c.x - h...c.x + h, c.y - h / Self.fieldHeight...c.y + h / Self.fieldHeight)
    }

    /// The centre of the slanted-edge square, as (u, v).
    public var edgeCentre: SIMD2<Double> {
        SIMD2(
            (Self.edgeCard.x.lowerBound + Self.edgeCard.x.upperBound) / 2,
            (Self.edgeCard.y.lowerBound + Self.edgeCard.y.upperBound) / 2 / Self.fieldHeight)
    }

    /// The chart's six neutral patches (white 9.5 to black 2).
    public static let neutralPatchIndices = Array(18...23)

    public func sample(u: Double, v: Double, lighting: SceneLighting) -> SceneSample {
        let x = u
        let y = v * Self.fieldHeight
        // Chart (its surround is a 3% neutral card).
        let step = Self.patchSize + Self.patchGap
        let cx = (x - Self.chartOrigin.x) / step
        let cy = (y - Self.chartOrigin.y) / step
        if cx >= -0.2, cx < 6, cy >= -0.2, cy < 4 {
            let col = Int(floor(cx))
            let row = Int(floor(cy))
            if col >= 0, row >= 0, (cx - Double(col)) * step < Self.patchSize, (cy - Double(row)) * step < Self.patchSize {
                return SceneSample(response: lighting.chartResponses[row * 6 + col], distance: targetDistance)
            }
            return SceneSample(response: lighting.neutral(0.03), distance: targetDistance)
        }
        if Self.edgeCard.x.contains(x), Self.edgeCard.y.contains(y) {
            let c = edgeCentre
            let dx = x - c.x
            let dy = y - c.y * Self.fieldHeight
            let rx = dx * cos(Self.edgeAngle) + dy * sin(Self.edgeAngle)
            let ry = -dx * sin(Self.edgeAngle) + dy * cos(Self.edgeAngle)
            let inside = abs(rx) < Self.edgeHalfSize && abs(ry) < Self.edgeHalfSize
            return SceneSample(response: lighting.neutral(inside ? 0.04 : 0.85), distance: targetDistance)
        }
        if Self.ramp.x.contains(x), Self.ramp.y.contains(y) {
            let t = (x - Self.ramp.x.lowerBound) / (Self.ramp.x.upperBound - Self.ramp.x.lowerBound)
            return SceneSample(response: lighting.neutral(Float(0.02 + 0.93 * t)), distance: targetDistance)
        }
        if Self.chirp.x.contains(x), Self.chirp.y.contains(y) {
            // Bars whose frequency rises linearly from 20 to 1000 cycles per field width.
            let t = x - Self.chirp.x.lowerBound
            let f0 = 20.0
            let f1 = 1000.0
            let span = Self.chirp.x.upperBound - Self.chirp.x.lowerBound
            let phase = 2 * Double.pi * (f0 * t + (f1 - f0) * t * t / (2 * span))
            return SceneSample(response: lighting.neutral(Float(0.45 + 0.4 * sin(phase))), distance: targetDistance)
        }
        let d = SIMD2(x, y) - Self.starCentre
        if (d * d).sum() < Self.starRadius * Self.starRadius {
            let on = sin(atan2(d.y, d.x) * 36) > 0
            return SceneSample(response: lighting.neutral(on ? 0.8 : 0.05), distance: targetDistance)
        }
        return SceneSample(response: lighting.neutral(wallReflectance), distance: wallDistance)
    }
}
