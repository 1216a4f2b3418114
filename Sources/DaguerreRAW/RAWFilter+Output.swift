// RAWFilter's recipe (SPEC X1–X4, X7): the develop source, then the engine stages in the order a
// RAW pipeline needs them: lens correction and scaling on the linear develop, orientation, the
// linear hook, exposure, then the look. Every stage is lazy; nothing renders until a context asks.
import DaguerreCore
import DaguerreFormats
import DaguerreImage

extension RAWFilter {
    /// The version as a number, once validated.
    var versionNumber: Int { Int(decoderVersion) ?? 0 }

    /// The developed image: linear light in ``workingSpace``, extended range, with the look
    /// stages applied when asked for.
    public func outputImage() throws(DaguerreError) -> Image {
        guard Self.supportedDecoderVersions.contains(decoderVersion) else {
            throw .invalidArgument(what: "decoderVersion \(decoderVersion)", problem: "this build reproduces \(Self.supportedDecoderVersions.joined(separator: ", "))")
        }
        try checkNoiseReductionOptions()
        guard neutralTemperature.isFinite, neutralTemperature > 0, neutralTint.isFinite, exposure.isFinite, baselineExposure.isFinite else {
            throw .invalidArgument(what: "RAW white balance \(neutralTemperature) K / tint \(neutralTint), exposure \(exposure)", problem: "must be finite, temperature positive")
        }
        guard scaleFactor.isFinite, scaleFactor > 0, scaleFactor <= 1 else {
            throw .invalidArgument(what: "RAW scaleFactor \(scaleFactor)", problem: "must be in 0 < s ≤ 1 (develop at full size and transform to enlarge)")
        }
        let amounts = [boostAmount, boostShadowAmount, highlightRecoveryAmount, sharpnessAmount, contrastAmount, localToneMapAmount, vibranceAmount, saturationAmount,
                       colorNoiseReductionAmount]
        guard amounts.allSatisfy(\.isFinite) else {
            throw .invalidArgument(what: "RAW look amounts \(amounts)", problem: "must be finite numbers")
        }
        var image = try ChromaNoiseReduction.apply(to: try developedImage(), amount: colorNoiseReductionAmount)
        if let linearSpaceFilter { image = try linearSpaceFilter.apply(to: image) }
        let ev = exposure + baselineExposure
        if ev != 0 { image = try image.applying(ExposureAdjust(ev: ev)) }
        let look = RAWLook(boost: boostAmount, boostShadows: boostShadowAmount, localToneMap: localToneMapAmount, contrast: contrastAmount,
                           vibrance: vibranceAmount, saturation: saturationAmount, sharpness: sharpnessAmount)
        return try look.apply(to: image)
    }

    /// The linear develop: the streaming source, lens correction, scale and orientation. In
    /// draft mode it is stored in the context's cache, so only the later stages re-render (X7);
    /// for a Bayer mosaic, what is cached stops short of the white balance (camera RGB and the
    /// clip mask, at display size), so a white-balance change re-renders only per-pixel stages
    /// (``DraftBalance``). Draft renders are previews: the highlight stage after the resample
    /// differs from the full develop's near clipped areas, and they are not what the pipeline
    /// versions pin (X5).
    func developedImage() throws(DaguerreError) -> Image {
        let white = ColorTemperature.xy(temperature: neutralTemperature, tint: neutralTint)
        let neutral = colorModel.xyzToCamera(white: white) * Primaries.xyz(white)
        let v3 = versionNumber >= 3
        let halfSize = v3 && header.mosaic != nil && scaleFactor <= 0.5 && crop.width >= 4 && crop.height >= 4
        let demosaic: DemosaicMethod = halfSize ? .halfSize : (decoderVersion == "1" || isDraftModeEnabled ? .bilinear : .lmmseGW)
        let highlight = v3 ? HighlightRecovery(neutral: neutral, amount: highlightRecoveryAmount) : nil
        var settings = DevelopSettings(matrix: colorModel.cameraToWorking(white: white, working: workingSpace), neutral: neutral,
                                       crop: crop, workingSpace: workingSpace, demosaic: demosaic, highlight: highlight, limits: limits)
        // Version 4: the power-2.5 demosaic domain and noise reduction at block stride 2.
        let v4 = versionNumber >= 4
        if v4 { settings.domain = .power25 }
        var key = "raw v\(decoderVersion) \(identity) wb \(neutralTemperature)/\(neutralTint) \(workingSpace.name) \(settings.demosaic.rawValue)"
        if let highlight { key += " highlights \(highlight.amount)" }
        if v3, isLensCorrectionEnabled, header.mosaic != nil {
            settings.gainMaps = header.gainMaps
            settings.activeArea = header.activeArea
            if !settings.gainMaps.isEmpty { key += " gain maps \(settings.gainMaps.count)" }
        }
        var sharpening: NoiseReductionSharpening?
        if v3, demosaic == .lmmseGW, luminanceNoiseReductionAmount > 0, let mosaic = header.mosaic {
            let profile = try noiseProfile()
            if profile.hasNoise {
                let controls = try noiseReductionControls
                settings.noiseReduction = NoiseReductionSettings(profile: profile, amount: Float(2 * luminanceNoiseReductionAmount), controls: controls,
                                                                 blockStep: v4 ? .alternate : .every)
                key += " nr \(luminanceNoiseReductionAmount) \(profile.planes.map { "\($0.scale),\($0.offset)" })" + controls.sourceKey
                if controls.sharpness > 0 {
                    let noise = NoiseReductionSharpening.luminanceNoise(profile: profile, cfaPattern: mosaic.pattern.cfaPattern,
                                                                        matrix: settings.matrix, neutral: settings.neutral)
                    sharpening = NoiseReductionSharpening(amount: controls.sharpness, luminanceNoise: noise)
                }
            }
        }
        // Draft mode (X7): the develop up to the white balance is cached at display size, in
        // camera RGB with the clip mask beside it, and the white balance runs after the resample.
        if isDraftModeEnabled, demosaic != .lmmseGW, let mosaic = try wholeMosaic() {
            var cameraSettings = settings
            cameraSettings.matrix = .identity
            cameraSettings.highlight = nil
            let camera = cameraSettings
            var cameraKey = "raw v\(decoderVersion) \(identity) camera \(crop) \(workingSpace.name) \(settings.demosaic.rawValue)"
            if !settings.gainMaps.isEmpty { cameraKey += " gain maps \(settings.gainMaps.count)" }
            let cameraSource = try Image(identity: cameraKey) { () throws(DaguerreError) -> any ImageDecoder in
                try RAWDevelopDecoder(mosaic: mosaic, settings: camera)
            }
            var highlights: (marked: Image, flags: Image)?
            // A mosaic with no photosite at the white level has nothing for the stage to rebuild.
            let clippedRows = highlight == nil ? [] : facts.clippedRows(mosaic)
            if clippedRows.contains(true) {
                func input(_ output: ClipMaskDecoder.Output) throws(DaguerreError) -> Image {
                    let source = try Image(identity: "\(cameraKey) highlight \(output.rawValue)") { () throws(DaguerreError) -> any ImageDecoder in
                        try ClipMaskDecoder(mosaic: mosaic, settings: camera, clippedRows: clippedRows, output: output)
                    }
                    return try placed(source, halfSize: halfSize, interpolation: output == .markedCamera ? .bilinear : .lanczos)
                        .insertingIntermediate(cache: true)
                }
                highlights = (try input(.markedCamera), try input(.flags))
            }
            let base = try placed(cameraSource, halfSize: halfSize).insertingIntermediate(cache: true)
            return try DraftBalance(settings: settings).apply(camera: base, highlights: highlights)
        }
        let dng = header, deferred = deferred, develop = settings
        let source = try Image(identity: key) { () throws(DaguerreError) -> any ImageDecoder in
            switch dng.rawData {
            case let .mosaic(mosaic):
                // A mosaic still in its file: the full develop streams it from the file's
                // chunks, unless something already decoded it whole; other paths decode it.
                guard let deferred else { return try RAWDevelopDecoder(mosaic: mosaic, settings: develop) }
                if develop.demosaic == .lmmseGW, deferred.wholeIfDecoded == nil {
                    return try RAWDevelopDecoder(mosaic: mosaic, settings: develop, chunks: deferred.chunks)
                }
                return try RAWDevelopDecoder(mosaic: try deferred.whole(), settings: develop)
            case let .linear(linear):
                let opcodes = dng.opcodeLists.filter { $0.stage == .linearized }.flatMap(\.opcodes)
                return try LinearRawDevelopDecoder(linear: linear, opcodes: opcodes, activeArea: dng.activeArea, settings: develop)
            }
        }
        // Noise reduction's sharpness on the develop itself, before any resampling: its noise
        // model is the photosites' (X3).
        let image = try placed(try sharpening?.apply(to: source) ?? source, halfSize: halfSize)
        return isDraftModeEnabled ? image.insertingIntermediate(cache: true) : image
    }

    /// A develop put in place: lens correction (the file's WarpRectilinear), the scale still to
    /// do after a half-size develop, and orientation. All of it is geometry, the same for every
    /// channel's meaning, so draft mode runs it on camera RGB and on its clip mask alike.
    ///
    /// The scale is Lanczos-3, or with `interpolation` another kernel on the same geometry: the
    /// draft's marked camera RGB takes the triangle (`.bilinear`), whose weights are never
    /// negative, so its unpremultiplied colour is a mean of marked pixels (``DraftBalance``).
    private func placed(_ develop: Image, halfSize: Bool, interpolation: Interpolation = .lanczos) throws(DaguerreError) -> Image {
        var image = develop
        if versionNumber >= 3, isLensCorrectionEnabled, let warp = header.lensWarp {
            let size = header.rawSize
            let active = header.activeArea ?? IntRect(x: 0, y: 0, width: size.width, height: size.height)
            let frame = OpcodeFrame(originX: Double(crop.x - active.x), originY: Double(crop.y - active.y),
                                    width: Double(active.width), height: Double(active.height), pixelScale: halfSize ? 2 : 1)
            image = try LensWarp(warp, frame: frame).apply(to: image)
        }
        let remaining = halfSize ? scaleFactor * Double(crop.width) / Double(crop.width / 2) : scaleFactor
        if remaining < 0.999_999 || remaining > 1.000_001 {
            image = interpolation == .lanczos ? try image.applying(LanczosScaleTransform(scale: remaining))
                : image.transformed(by: AffineTransform2D(scaleX: remaining, y: remaining), interpolation: interpolation)
        }
        return try image.oriented(orientation)
    }

    /// Core Image's fine noise-reduction controls, validated (each finite, 0…1).
    var noiseReductionControls: NoiseReductionControls {
        get throws(DaguerreError) {
            try NoiseReductionControls(sharpness: noiseReductionSharpnessAmount, contrast: noiseReductionContrastAmount,
                                       detail: noiseReductionDetailAmount)
        }
    }

    /// The noise-reduction amounts must be in range, and pipeline versions 1 and 2, which have
    /// no noise reduction, accept only the amounts that leave it out.
    func checkNoiseReductionOptions() throws(DaguerreError) {
        guard luminanceNoiseReductionAmount.isFinite, (0...1).contains(luminanceNoiseReductionAmount) else {
            throw .invalidArgument(what: "RAWFilter.luminanceNoiseReductionAmount \(luminanceNoiseReductionAmount)", problem: "must be between 0 and 1")
        }
        if versionNumber < 3,
           luminanceNoiseReductionAmount != 0, luminanceNoiseReductionAmount != Self.defaultLuminanceNoiseReductionAmount {
            throw .unsupported(feature: "RAWFilter.luminanceNoiseReductionAmount \(luminanceNoiseReductionAmount) in pipeline version \(decoderVersion)",
                               hint: "Versions 1 and 2 have no noise reduction; use decoderVersion \"4\" (the default) or \"3\".")
        }
        guard (0...1).contains(colorNoiseReductionAmount) else {
            throw .invalidArgument(what: "RAWFilter.colorNoiseReductionAmount \(colorNoiseReductionAmount)", problem: "must be between 0 and 1")
        }
        let controls = try noiseReductionControls
        if versionNumber < 3, !controls.isNeutral {
            throw .unsupported(feature: "RAWFilter's noise-reduction sharpness, contrast and detail in pipeline version \(decoderVersion)",
                               hint: "Versions 1 and 2 have no noise reduction; leave them at 0 or use decoderVersion \"4\" (the default) or \"3\".")
        }
    }
}
