import Daguerre
import Foundation
import Testing

/// Every registered filter's output extent, for a finite input (EveryFilterTests' 160×160 at the
/// origin) and for the same input made infinite (`clampedToExtent()`), against what Core Image
/// documents and each filter's doc comment states (I3, I4): point-wise and window filters keep
/// the input's extent (infinite stays infinite), blurs grow it by their reach, distortions by
/// their circle, tiles and generators are infinite, reductions give their few pixels, and a
/// filter that needs a finite input refuses an infinite one with a typed error.
@Suite struct FilterExtentTests {
    enum Expected {
        /// The input's extent (finite or infinite); with `finite`, the finite input's extent even
        /// for the infinite input.
        case input(finite: Bool = false)
        static var input: Expected { .input() }
        /// The input's extent grown by dx left and right, dy above and below.
        case grown(Double, Double)
        case rect(Double, Double, Double, Double)
        /// The default of this rectangle parameter.
        case parameter(String)
        case infinite
        /// Finite, non-empty and inside this rectangle (perspective maps, whose exact box is
        /// the judges' business).
        case within(Double, Double, Double, Double)
        /// A typed error: the filter needs a finite input.
        case refused
    }

    /// Where a filter's extent is not its input's: (for the finite input, for the infinite one),
    /// at the catalogue's defaults.
    static let exceptions: [String: (finite: Expected, infinite: Expected)] = [
        // Blurs grow by their reach: ⌈3σ⌉ for σ 10; the radius; the streak of 20 plus the
        // bilinear tap.
        "GaussianBlur": (.grown(30, 30), .infinite),
        "BoxBlur": (.grown(10, 10), .infinite),
        "DiscBlur": (.grown(8, 8), .infinite), "BokehBlur": (.grown(20, 20), .infinite),
        "MotionBlur": (.grown(21, 1), .infinite),
        // Crop keeps the part inside its rectangle, Core Image's default reaching ±8.98e307.
        "Crop": (.input, .parameter("inputRectangle")),
        // The input mapped onto the default corners (118, 484), (646, 507), (548, 140), (155, 153).
        "PerspectiveTransform": (.rect(118, 140, 528, 367), .refused),
        "PerspectiveTransformWithExtent": (.within(118, 140, 528, 367), .infinite),
        "PerspectiveCorrection": (.within(-1e4, -1e4, 2e4, 2e4), .infinite),
        // Tiles and clamps repeat the input everywhere.
        "FourfoldTranslatedTile": (.infinite, .infinite), "ParallelogramTile": (.infinite, .infinite),
        "FourfoldReflectedTile": (.infinite, .infinite), "FourfoldRotatedTile": (.infinite, .infinite),
        "EightfoldReflectedTile": (.infinite, .infinite), "GlideReflectedTile": (.infinite, .infinite),
        "AffineTile": (.infinite, .infinite), "AffineClamp": (.infinite, .infinite), "Clamp": (.infinite, .infinite),
        "Kaleidoscope": (.infinite, .infinite), "OpTile": (.infinite, .infinite), "SixfoldReflectedTile": (.infinite, .infinite),
        "TriangleKaleidoscope": (.infinite, .infinite), "TriangleTile": (.infinite, .infinite),
        "TwelvefoldReflectedTile": (.infinite, .infinite), "SixfoldRotatedTile": (.infinite, .infinite),
        "PerspectiveTile": (.infinite, .refused), "CircleSplashDistortion": (.infinite, .infinite),
        // Distortions reach over their circle, centre (150, 150), radius 300; the hole pushes the
        // input outward by its radius of 150 (plus the bilinear tap and a pixel).
        "TwirlDistortion": (.rect(-150, -150, 600, 600), .infinite), "VortexDistortion": (.rect(-150, -150, 600, 600), .infinite),
        "PinchDistortion": (.rect(-150, -150, 600, 600), .infinite), "BumpDistortion": (.rect(-150, -150, 600, 600), .infinite),
        "HoleDistortion": (.grown(152, 152), .infinite),
        // The linear bump reaches its radius (300) across its line; the wrap's rings (out to the radius plus the 150 rows above the centre), the torus
        // (radius 160 + half its width 80) and the lozenge (its rod between (150, 150) and
        // (350, 150), radius 100) their circles; a displacement or a glass texture moves pixels
        // by at most half their scale (50, 200); each plus the bilinear taps. The light tunnel
        // spirals out to infinity; StretchCrop makes an image of inputSize (1280×720) and needs
        // its input's edges.
        "BumpDistortionLinear": (.grown(302, 302), .infinite), "CircularWrap": (.rect(-152, -152, 604, 604), .infinite),
        "TorusLensDistortion": (.rect(-50, -50, 400, 400), .infinite), "GlassLozenge": (.rect(0, 0, 450, 250), .infinite),
        "DisplacementDistortion": (.grown(26, 26), .infinite), "GlassDistortion": (.grown(101, 101), .infinite),
        "LightTunnel": (.infinite, .infinite), "StretchCrop": (.rect(0, 0, 1280, 720), .refused),
        // Generators: infinite, or the size of what they draw (the HSV wheel of radius 300; a
        // QR code of 21 modules with a one-module margin; one empty line of text).
        "ConstantColorGenerator": (.infinite, .infinite), "LinearGradient": (.infinite, .infinite),
        "RadialGradient": (.infinite, .infinite), "SmoothLinearGradient": (.infinite, .infinite),
        "GaussianGradient": (.infinite, .infinite), "CheckerboardGenerator": (.infinite, .infinite),
        "StripesGenerator": (.infinite, .infinite), "RandomGenerator": (.infinite, .infinite),
        "SunbeamsGenerator": (.infinite, .infinite), "StarShineGenerator": (.infinite, .infinite),
        "LenticularHaloGenerator": (.infinite, .infinite), "DistanceGradientFromRedMask": (.infinite, .infinite),
        "SignedDistanceGradientFromRedMask": (.infinite, .infinite),
        // The rectangle generators draw inputExtent (0, 0, 100, 100): filled; stroked 10 wide
        // (half outside, plus a pixel); blurred with σ 10 (out to 4σ).
        "RoundedRectangleGenerator": (.rect(0, 0, 100, 100), .rect(0, 0, 100, 100)),
        "RoundedRectangleStrokeGenerator": (.rect(-6, -6, 112, 112), .rect(-6, -6, 112, 112)),
        "BlurredRectangleGenerator": (.rect(-40, -40, 180, 180), .rect(-40, -40, 180, 180)),
        // The rounded one (our defaults: the same square, radius 10) through GaussianBlur: ⌈3σ⌉.
        "BlurredRoundedRectangleGenerator": (.rect(-30, -30, 160, 160), .rect(-30, -30, 160, 160)),
        // The default mesh, a triangle from (20, 20) to (280, 280), lines 1.5 wide.
        "MeshGenerator": (.rect(18.25, 18.25, 263.5, 263.5), .rect(18.25, 18.25, 263.5, 263.5)),
        "HueSaturationValueGradient": (.rect(0, 0, 600, 600), .rect(0, 0, 600, 600)),
        "QRCodeGenerator": (.rect(0, 0, 23, 23), .rect(0, 0, 23, 23)),
        // The example descriptor's 21 modules; the rounded code at 10 pixels a module.
        "BarcodeGenerator": (.rect(0, 0, 23, 23), .rect(0, 0, 23, 23)),
        "RoundedQRCodeGenerator": (.rect(0, 0, 230, 230), .rect(0, 0, 230, 230)),
        // The barcodes of "Daguerre 1839": a small Aztec symbol, Code 128's bars 32 high with
        // 10 quiet pixels round them, PDF417's rows 3 high.
        "AztecCodeGenerator": (.within(0, 0, 40, 40), .within(0, 0, 40, 40)),
        "Code128BarcodeGenerator": (.within(0, 0, 300, 52), .within(0, 0, 300, 52)),
        "PDF417BarcodeGenerator": (.within(0, 0, 600, 300), .within(0, 0, 600, 300)),
        "TextImageGenerator": (.within(0, 0, 4, 40), .within(0, 0, 4, 40)),
        "AttributedTextImageGenerator": (.within(0, 0, 200, 80), .within(0, 0, 200, 80)),
        // Nine-part filters grow the input by inputGrowAmount (100, 100) and need its edges.
        "NinePartStretched": (.rect(0, 0, 260, 260), .refused), "NinePartTiled": (.rect(0, 0, 260, 260), .refused),
        "EdgePreserveUpsampleFilter": (.input, .refused), "GuidedFilter": (.input, .input(finite: true)),
        "ColorThresholdOtsu": (.input, .refused),
        // Measured over the whole image: the peak for the tone map, the paper's scale.
        "SystemToneMap": (.input, .refused), "DocumentEnhancer": (.input, .refused),
        // Reductions over inputExtent (0, 0, 640, 80), clipped to the input.
        "AreaAverage": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)), "AreaMaximum": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)),
        "AreaMinimum": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)), "AreaMinMax": (.rect(0, 0, 2, 1), .rect(0, 0, 2, 1)),
        "AreaMinMaxRed": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)), "AreaAverageMaximumRed": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)),
        "PaletteCentroid": (.rect(0, 0, 8, 1), .refused),
        "KMeans": (.rect(0, 0, 8, 1), .rect(0, 0, 8, 1)),
        "AreaBoundsRed": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)),
        "AreaMaximumAlpha": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)),
        "AreaMinimumAlpha": (.rect(0, 0, 1, 1), .rect(0, 0, 1, 1)),
        "RowAverage": (.rect(0, 0, 1, 80), .rect(0, 0, 1, 80)), "ColumnAverage": (.rect(0, 0, 160, 1), .rect(0, 0, 640, 1)),
        "AreaHistogram": (.rect(0, 0, 64, 1), .rect(0, 0, 64, 1)),
        "AreaAlphaWeightedHistogram": (.rect(0, 0, 64, 1), .rect(0, 0, 64, 1)),
        "AreaLogarithmicHistogram": (.rect(0, 0, 64, 1), .rect(0, 0, 64, 1)),
        // Where the source is kept only over the background (W3C source-in and source-atop,
        // multiply's product) or a finite mask chooses between them, the finite background bounds
        // the result.
        "SourceInCompositing": (.input, .input(finite: true)), "SourceAtopCompositing": (.input, .input(finite: true)),
        "MultiplyCompositing": (.input, .input(finite: true)), "BlendWithMask": (.input, .input(finite: true)),
        "BlendWithAlphaMask": (.input, .input(finite: true)), "BlendWithRedMask": (.input, .input(finite: true)),
        "BlendWithBlueMask": (.input, .input(finite: true)),
        // Transitions with an inputExtent play where it meets the images (it is 0, 0, 300, 300
        // by default).
        "FlashTransition": (.input, .parameter("inputExtent")), "CopyMachineTransition": (.input, .parameter("inputExtent")),
        "RippleTransition": (.input, .parameter("inputExtent")),
        "PageCurlTransition": (.input, .parameter("inputExtent")),
        // A histogram's display: its width, inputHeight 100 high; it needs a finite histogram.
        "HistogramDisplayFilter": (.rect(0, 0, 160, 100), .refused),
    ]

    @Test(arguments: EveryFilterTests.names)
    func outputExtentIsRight(name: String) throws {
        let d = try FilterRegistry.descriptor(named: name)
        let finite = try EveryFilterTests.inputs(d)
        var infinite = finite
        if case .image(let i)? = finite["inputImage"] { infinite["inputImage"] = .image(i.clampedToExtent()) }
        let input = Rect(x: 0, y: 0, width: 160, height: 160)
        let expected = Self.exceptions[name] ?? (.input, .infinite)
        for (label, values, want) in [("finite", finite, expected.finite), ("infinite", infinite, expected.infinite)] {
            let what = "\(name), \(label) input"
            let extent: Rect
            do { extent = try d.apply(values).extent } catch {
                if case .refused = want { continue }
                Issue.record("\(what): refused: \(error)")
                continue
            }
            switch want {
            case .input(let finite): #expect(label == "finite" || finite ? extent == input : extent.isInfinite, "\(what): \(extent)")
            case .grown(let dx, let dy): #expect(extent == input.insetBy(dx: -dx, dy: -dy), "\(what): \(extent)")
            case .rect(let x, let y, let w, let h):
                // To a millionth of a pixel: perspective corners go through a matrix.
                let r = Rect(x: x, y: y, width: w, height: h)
                let off = [extent.minX - r.minX, extent.minY - r.minY, extent.maxX - r.maxX, extent.maxY - r.maxY].map(abs).max() ?? 0
                #expect(off <= 1e-6, "\(what): \(extent), not \(r)")
            case .parameter(let key):
                guard case .rect(let r)? = d.parameters.first(where: { $0.key == key })?.defaultValue else {
                    Issue.record("\(what): no rectangle default for \(key)")
                    continue
                }
                #expect(extent == r, "\(what): \(extent), not \(key)'s \(r)")
            case .infinite: #expect(extent.isInfinite, "\(what): \(extent)")
            case .within(let x, let y, let w, let h):
                let box = Rect(x: x, y: y, width: w, height: h)
                #expect(!extent.isInfinite && !extent.isEmpty && box.union(extent) == box, "\(what): \(extent) not inside \(box)")
            case .refused: Issue.record("\(what): accepted with extent \(extent); it needs a finite input")
            }
        }
    }
}
