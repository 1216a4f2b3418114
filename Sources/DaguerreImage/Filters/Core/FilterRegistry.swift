import DaguerreCore

/// Every built-in filter, by name (CIFilter.filterNames(inCategory:)). A new filter is one
/// line in ``types``; everything else about it comes from its declaration.
///
/// ```swift
/// let blur = try FilterRegistry.descriptor(named: "CIGaussianBlur")   // the CI prefix is accepted
/// print(FilterRegistry.names.joined(separator: ", "))
/// ```
public enum FilterRegistry {
    /// The filter types, by category.
    public static let types: [any Filter.Type] = [
        // Colour adjustment
        ExposureAdjust.self,
        ToneMapHeadroom.self,
        SystemToneMap.self,
        TemperatureAndTint.self,
        ColorMatrix.self,
        ColorControls.self,
        GammaAdjust.self,
        ToneCurve.self,
        HighlightShadowAdjust.self,
        Vibrance.self,
        ColorClamp.self,
        ColorThreshold.self,
        ColorThresholdOtsu.self,
        ColorAbsoluteDifference.self,
        DepthToDisparity.self,
        DisparityToDepth.self,
        ColorPolynomial.self,
        HueAdjust.self,
        LinearToSRGBToneCurve.self,
        SRGBToneCurveToLinear.self,
        WhitePointAdjust.self,
        // Colour effect
        SepiaTone.self,
        ColorInvert.self,
        ConvertRGBtoLab.self,
        ConvertLabToRGB.self,
        LabDeltaE.self,
        Palettize.self,
        PaletteCentroid.self,
        Dither.self,
        ColorCubesMixedWithMask.self,
        ColorCurves.self,
        ColorMonochrome.self,
        ColorPosterize.self,
        MaximumComponent.self,
        MinimumComponent.self,
        ColorCrossPolynomial.self,
        FalseColor.self,
        MaskToAlpha.self,
        Thermal.self,
        XRay.self,
        Vignette.self,
        VignetteEffect.self,
        ColorCube.self,
        ColorCubeWithColorSpace.self,
        ColorMap.self,
        PhotoEffectChrome.self,
        PhotoEffectFade.self,
        PhotoEffectInstant.self,
        PhotoEffectMono.self,
        PhotoEffectNoir.self,
        DocumentEnhancer.self,
        PhotoEffectProcess.self,
        PhotoEffectTonal.self,
        PhotoEffectTransfer.self,
        // Blur and sharpen
        GaussianBlur.self,
        BoxBlur.self,
        UnsharpMask.self,
        SharpenLuminance.self,
        // Morphology (Core Image files these under Blur)
        MorphologyMaximum.self,
        MorphologyMinimum.self,
        MorphologyGradient.self,
        MorphologyRectangleMaximum.self,
        MorphologyRectangleMinimum.self,
        MedianFilter.self,
        DiscBlur.self,
        BokehBlur.self,
        MotionBlur.self,
        ZoomBlur.self,
        NoiseReduction.self,
        MaskedVariableBlur.self,
        // Geometry
        LanczosScaleTransform.self,
        BicubicScaleTransform.self,
        MaximumScaleTransform.self,
        GuidedFilter.self,
        PerspectiveRotate.self,
        KeystoneCorrectionCombined.self,
        KeystoneCorrectionHorizontal.self,
        KeystoneCorrectionVertical.self,
        AffineTransformFilter.self,
        Crop.self,
        PerspectiveTransform.self,
        PerspectiveTransformWithExtent.self,
        PerspectiveCorrection.self,
        StraightenFilter.self,
        // Tile effect
        FourfoldTranslatedTile.self,
        ParallelogramTile.self,
        FourfoldReflectedTile.self,
        FourfoldRotatedTile.self,
        EightfoldReflectedTile.self,
        GlideReflectedTile.self,
        AffineTile.self,
        AffineClamp.self,
        Clamp.self,
        Kaleidoscope.self,
        PerspectiveTile.self,
        TriangleTile.self,
        TwelvefoldReflectedTile.self,
        SixfoldRotatedTile.self,
        SixfoldReflectedTile.self,
        OpTile.self,
        TriangleKaleidoscope.self,
        // Distortion effect
        TwirlDistortion.self,
        VortexDistortion.self,
        PinchDistortion.self,
        BumpDistortion.self,
        HoleDistortion.self,
        CircleSplashDistortion.self,
        BumpDistortionLinear.self,
        CircularWrap.self,
        DisplacementDistortion.self,
        StretchCrop.self,
        LightTunnel.self,
        TorusLensDistortion.self,
        GlassLozenge.self,
        GlassDistortion.self,
        Droste.self,
        // Composite
        SourceOverCompositing.self,
        AdditionCompositing.self,
        ColorBlendMode.self,
        ColorBurnBlendMode.self,
        ColorDodgeBlendMode.self,
        DarkenBlendMode.self,
        DifferenceBlendMode.self,
        DivideBlendMode.self,
        ExclusionBlendMode.self,
        HardLightBlendMode.self,
        HueBlendMode.self,
        LightenBlendMode.self,
        LinearBurnBlendMode.self,
        LinearDodgeBlendMode.self,
        LinearLightBlendMode.self,
        LuminosityBlendMode.self,
        MaximumCompositing.self,
        MinimumCompositing.self,
        MultiplyBlendMode.self,
        MultiplyCompositing.self,
        OverlayBlendMode.self,
        PinLightBlendMode.self,
        SaturationBlendMode.self,
        ScreenBlendMode.self,
        SoftLightBlendMode.self,
        SourceAtopCompositing.self,
        SourceInCompositing.self,
        SourceOutCompositing.self,
        SubtractBlendMode.self,
        VividLightBlendMode.self,
        // Generators and gradients
        ConstantColor.self,
        LinearGradient.self,
        RadialGradient.self,
        HueSaturationValueGradient.self,
        TextImageGenerator.self,
        AttributedTextImageGenerator.self,
        SmoothLinearGradient.self,
        GaussianGradient.self,
        CheckerboardGenerator.self,
        StripesGenerator.self,
        RandomGenerator.self,
        SunbeamsGenerator.self,
        StarShineGenerator.self,
        LenticularHaloGenerator.self,
        DistanceGradientFromRedMask.self,
        SignedDistanceGradientFromRedMask.self,
        RoundedRectangleGenerator.self,
        RoundedRectangleStrokeGenerator.self,
        BlurredRectangleGenerator.self,
        BlurredRoundedRectangleGenerator.self,
        MeshGenerator.self,
        // Codes
        QRCodeGenerator.self,
        RoundedQRCodeGenerator.self,
        AztecCodeGenerator.self,
        Code128BarcodeGenerator.self,
        BarcodeGenerator.self,
        PDF417BarcodeGenerator.self,
        // Halftone
        DotScreen.self,
        LineScreen.self,
        HatchedScreen.self,
        CircularScreen.self,
        CMYKHalftone.self,
        // Stylize
        SampleNearest.self,
        NinePartStretched.self,
        NinePartTiled.self,
        EdgePreserveUpsample.self,
        BlendWithMask.self,
        BlendWithAlphaMask.self,
        BlendWithRedMask.self,
        BlendWithBlueMask.self,
        Mix.self,
        Convolution3X3.self,
        Convolution5X5.self,
        Convolution7X7.self,
        Convolution9Horizontal.self,
        Convolution9Vertical.self,
        ConvolutionRGB3X3.self,
        ConvolutionRGB5X5.self,
        ConvolutionRGB7X7.self,
        ConvolutionRGB9Horizontal.self,
        ConvolutionRGB9Vertical.self,
        SobelGradients.self,
        GaborGradients.self,
        CannyEdgeDetector.self,
        Pixellate.self,
        HexagonalPixellate.self,
        Crystallize.self,
        Pointillize.self,
        HeightFieldFromMask.self,
        ShadedMaterial.self,
        EdgeWork.self,
        LineOverlay.self,
        DepthOfField.self,
        Edges.self,
        Bloom.self,
        Gloom.self,
        SpotLight.self,
        SpotColor.self,
        ComicEffect.self,
        // Reduction
        AreaAverage.self,
        AreaMaximum.self,
        AreaMinimum.self,
        AreaMinMax.self,
        AreaMinMaxRed.self,
        AreaAverageMaximumRed.self,
        AreaBoundsRed.self,
        KMeans.self,
        AreaMaximumAlpha.self,
        AreaMinimumAlpha.self,
        RowAverage.self,
        ColumnAverage.self,
        AreaHistogram.self,
        AreaAlphaWeightedHistogram.self,
        AreaLogarithmicHistogram.self,
        HistogramDisplayFilter.self,
        // Transition
        DissolveTransition.self,
        SwipeTransition.self,
        BarsSwipeTransition.self,
        FlashTransition.self,
        ModTransition.self,
        CopyMachineTransition.self,
        RippleTransition.self,
        DisintegrateWithMaskTransition.self,
        AccordionFoldTransition.self,
        PageCurlTransition.self,
        PageCurlWithShadowTransition.self,
    ]

    /// Names Daguerre used before it took Core Image's, still accepted.
    static let formerNames = ["ConstantColor": "ConstantColorGenerator", "EdgePreserveUpsample": "EdgePreserveUpsampleFilter"]

    public static let all: [FilterDescriptor] = types.map { $0.descriptor }

    public static var names: [String] { all.map(\.name) }

    /// Looks a filter up by name; Core Image's `CI` prefix is accepted. A Core Image filter
    /// that is not built is an `unsupported` error saying so, or saying what it would need.
    public static func descriptor(named raw: String) throws(DaguerreError) -> FilterDescriptor {
        let bare = raw.hasPrefix("CI") && raw.count > 2 ? String(raw.dropFirst(2)) : raw
        let name = formerNames[bare] ?? bare
        if let d = all.first(where: { $0.name == name }) { return d }
        if let d = all.first(where: { $0.name.lowercased() == name.lowercased() }) { return d }
        if let entry = FilterCatalogue.entry(named: name) { throw notBuilt(entry) }
        var seen = Set<String>()
        let known = (names + FilterCatalogue.entries.map(\.name)).filter { seen.insert($0).inserted }
        let scored = known.map { ($0, editDistance($0.lowercased(), name.lowercased())) }
        let close = scored.filter { $0.1 <= max(2, name.count / 3) || $0.0.lowercased().contains(name.lowercased()) && name.count >= 4 }
            .sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
        throw .unknownFilter(name: raw, suggestions: Array(close))
    }

    /// Why a catalogue filter cannot be used: what it needs, or that it is not built yet.
    public static func notBuilt(_ entry: FilterCatalogue.Entry) -> DaguerreError {
        let what = "Core Image's \(entry.name) filter (\(entry.category.rawValue))"
        if let needs = entry.needs {
            return .unsupported(feature: what, hint: "It needs \(needs).")
        }
        return .unsupported(
            feature: what,
            hint: "It is in Core Image's catalogue but not built yet; `daguerre filters` lists the filters that are built.")
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + [Int](repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}
