// RAWFilter's recipe (SPEC X1–X4, X7): the develop source, then the engine stages in the order a
// RAW pipeline needs them: lens correction and scaling on the linear develop, orientation, the
// linear hook, exposure, then the look. Every stage is lazy; nothing renders until a context asks.
import DaguerreCore
import DaguerreFormats
import DaguerreImage

extension RAWFilter {
    /// The pipeline version ``decoderVersion`` names, or a typed error for one this build lacks.
    var pipelineVersion: PipelineVersion { get throws(DaguerreError) { try PipelineVersion.named(decoderVersion) } }

    /// The developed image: linear light in ``workingSpace``, extended range, with the look
    /// stages applied when asked for.
    public func outputImage() throws(DaguerreError) -> Image {
        let version = try pipelineVersion
        try checkOptions()
        try checkNoiseReductionOptions(version)
        var image = try ChromaNoiseReduction.apply(to: try developedImage(version), amount: colorNoiseReductionAmount)
        if let linearSpaceFilter { image = try linearSpaceFilter.apply(to: image) }
        let ev = exposure + baselineExposure
        if ev != 0 { image = try image.applying(ExposureAdjust(ev: ev)) }
        let look = RAWLook(
            boost: boostAmount, boostShadows: boostShadowAmount, localToneMap: localToneMapAmount, contrast: contrastAmount,
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
    func developedImage(_ version: PipelineVersion) throws(DaguerreError) -> Image {
        let white = ColorTemperature.xy(temperature: neutralTemperature, tint: neutralTint)
        let neutral = colorModel.xyzToCamera(white: white) * Primaries.xyz(white)
        let mosaic = header.mosaicLayout
        let xTrans = mosaic?.xTrans != nil
        if xTrans { try checkXTransOptions(version) }
        let halfSize = version.halfSizeDevelop && mosaic != nil && !xTrans && scaleFactor <= 0.5 && crop.width >= 4 && crop.height >= 4
        let demosaic: DemosaicMethod = halfSize ? .halfSize : (isDraftModeEnabled ? .bilinear : version.demosaic)
        let highlight = version.highlightRecovery ? HighlightRecovery(neutral: neutral, amount: highlightRecoveryAmount) : nil
        var settings = DevelopSettings(
            matrix: colorModel.cameraToWorking(white: white, working: workingSpace), neutral: neutral,
            crop: crop, workingSpace: workingSpace, demosaic: demosaic, highlight: highlight, limits: limits)
        settings.domain = version.domain
        var key =
            "raw v\(decoderVersion) \(identity) wb \(neutralTemperature)/\(neutralTint) \(workingSpace.name) \(settings.demosaic.rawValue)"
        if let highlight { key += " highlights \(highlight.amount)" }
        if version.lensCorrection, isLensCorrectionEnabled, mosaic != nil {
            settings.gainMaps = header.gainMaps
            settings.activeArea = header.activeArea
            if !settings.gainMaps.isEmpty { key += " gain maps \(settings.gainMaps.count)" }
        }
        var sharpening: NoiseReductionSharpening?
        if let blockStep = version.noiseReductionBlockStep, demosaic == .lmmseGW, luminanceNoiseReductionAmount > 0, let mosaic {
            let profile = xTrans ? try xTransNoiseProfile(version) : try noiseProfile(version)
            if profile.hasNoise {
                let controls = try noiseReductionControls
                settings.noiseReduction = NoiseReductionSettings(
                    profile: profile, amount: Float(2 * luminanceNoiseReductionAmount), controls: controls,
                    blockStep: blockStep, pilot: xTrans ? .perPlane : version.noiseReductionPilot)
                key += " nr \(luminanceNoiseReductionAmount) \(profile.planes.map { "\($0.scale),\($0.offset)" })" + controls.sourceKey
                if controls.sharpness > 0 {
                    let noise = NoiseReductionSharpening.luminanceNoise(
                        profile: profile, cfaPattern: xTrans ? CFANoiseProfile.xTransColors : mosaic.pattern.cfaPattern,
                        matrix: settings.matrix, neutral: settings.neutral)
                    sharpening = NoiseReductionSharpening(amount: controls.sharpness, luminanceNoise: noise)
                }
            }
        }
        // Draft mode (X7): the develop up to the white balance is cached at display size, in
        // camera RGB with the clip mask beside it, and the white balance runs after the resample.
        if isDraftModeEnabled, demosaic != .lmmseGW, !xTrans, let whole = try wholeMosaic() {
            var cameraSettings = settings
            cameraSettings.matrix = .identity
            cameraSettings.highlight = nil
            let camera = cameraSettings
            var cameraKey = "raw v\(decoderVersion) \(identity) camera \(crop) \(workingSpace.name) \(settings.demosaic.rawValue)"
            if !settings.gainMaps.isEmpty { cameraKey += " gain maps \(settings.gainMaps.count)" }
            let cameraSource = try Image(identity: cameraKey) { () throws(DaguerreError) -> any RowSource in
                try RAWDevelopDecoder(mosaic: whole, settings: camera)
            }
            var highlights: (marked: Image, flags: Image)?
            // A mosaic with no photosite at the white level has nothing for the stage to rebuild.
            let clippedRows = highlight == nil ? [] : facts.clippedRows(whole)
            if clippedRows.contains(true) {
                func input(_ output: ClipMaskDecoder.Output) throws(DaguerreError) -> Image {
                    let source = try Image(identity: "\(cameraKey) highlight \(output.rawValue)") {
                        () throws(DaguerreError) -> any RowSource in
                        try ClipMaskDecoder(mosaic: whole, settings: camera, clippedRows: clippedRows, output: output)
                    }
                    return try placed(
                        source, version: version, halfSize: halfSize, interpolation: output == .markedCamera ? .bilinear : .lanczos
                    )
                    .insertingIntermediate(cache: true)
                }
                highlights = (try input(.markedCamera), try input(.flags))
            }
            let base = try placed(cameraSource, version: version, halfSize: halfSize).insertingIntermediate(cache: true)
            return try DraftBalance(settings: settings).apply(camera: base, highlights: highlights)
        }
        let dng = header
        let deferred = deferred
        let develop = settings
        let source = try Image(identity: key) { () throws(DaguerreError) -> any RowSource in
            switch dng.rawData {
            case .mosaic(let mosaic):
                return try RAWDevelopDecoder(mosaic: mosaic, settings: develop)
            case .storedMosaic:
                // A mosaic still in its file: the full develop streams it from the file's
                // chunks, unless something already decoded it whole; other paths decode it.
                guard let deferred else {
                    throw .invalidArgument(
                        what: "a DNG whose mosaic is still in its file", problem: "was opened without its chunks (internal error)")
                }
                if develop.demosaic == .lmmseGW || deferred.layout.xTrans != nil, deferred.wholeIfDecoded == nil {
                    return try RAWDevelopDecoder(stored: deferred.stored, settings: develop)
                }
                return try RAWDevelopDecoder(mosaic: try deferred.whole(), settings: develop)
            case .linear(let linear):
                let opcodes = dng.opcodeLists.filter { $0.stage == .linearized }.flatMap(\.opcodes)
                return try LinearRawDevelopDecoder(linear: linear, opcodes: opcodes, activeArea: dng.activeArea, settings: develop)
            }
        }
        // Noise reduction's sharpness on the develop itself, before any resampling: its noise
        // model is the photosites' (X3).
        let image = try placed(try sharpening?.apply(to: source) ?? source, version: version, halfSize: halfSize)
        return isDraftModeEnabled ? image.insertingIntermediate(cache: true) : image
    }

    /// A develop put in place: lens correction (the file's WarpRectilinear), the scale still to
    /// do after a half-size develop, and orientation. All of it is geometry, the same for every
    /// channel's meaning, so draft mode runs it on camera RGB and on its clip mask alike.
    ///
    /// The scale is Lanczos-3, or with `interpolation` another kernel on the same geometry: the
    /// draft's marked camera RGB takes the triangle (`.bilinear`), whose weights are never
    /// negative, so its unpremultiplied colour is a mean of marked pixels (``DraftBalance``).
    private func placed(
        _ develop: Image, version: PipelineVersion, halfSize: Bool,
        interpolation: Interpolation = .lanczos
    ) throws(DaguerreError) -> Image {
        var image = develop
        if version.lensCorrection, isLensCorrectionEnabled, let warp = header.lensWarp {
            let size = header.rawSize
            let active = header.activeArea ?? IntRect(x: 0, y: 0, width: size.width, height: size.height)
            let frame = OpcodeFrame(
                originX: Double(crop.x - active.x), originY: Double(crop.y - active.y),
                width: Double(active.width), height: Double(active.height), pixelScale: halfSize ? 2 : 1)
            image = try LensWarp(warp, frame: frame).apply(to: image)
        }
        let remaining = halfSize ? scaleFactor * Double(crop.width) / Double(crop.width / 2) : scaleFactor
        if remaining < 0.999_999 || remaining > 1.000_001 {
            image =
                interpolation == .lanczos
                ? try image.applying(LanczosScaleTransform(scale: remaining))
                : image.transformed(by: AffineTransform2D(scaleX: remaining, y: remaining), interpolation: interpolation)
        }
        return try image.oriented(orientation)
    }

    /// What an X-Trans develop lacks in pipeline version 4 and before: a noise estimate. Raw
    /// noise reduction runs on X-Trans mosaics (``XTransNoiseReduction``) with the file's
    /// NoiseProfile, and from version 5 with an estimate where the file has none; in the older
    /// versions such a file develops without it at the default amount, and asking for it by any
    /// other amount or control says why it cannot run.
    func checkXTransOptions(_ version: PipelineVersion) throws(DaguerreError) {
        guard !version.estimatesXTransNoise else { return }
        let controls = try noiseReductionControls
        let asked = luminanceNoiseReductionAmount != Self.defaultLuminanceNoiseReductionAmount && luminanceNoiseReductionAmount > 0
        guard asked || !controls.isNeutral, !(statedXTransNoiseProfile()?.hasNoise ?? false) else { return }
        throw .unsupported(
            feature:
                "raw noise reduction (luminanceNoiseReductionAmount \(luminanceNoiseReductionAmount), its sharpness, contrast and detail) on an X-Trans mosaic without a NoiseProfile in pipeline version \(version.name)",
            hint:
                "Version \(version.name) reduces X-Trans noise only with the file's DNG NoiseProfile; decoderVersion \"\(PipelineVersion.default.name)\" (the default) estimates one, or leave the amount at its default (off for such files) and use colorNoiseReductionAmount."
        )
    }

    /// Core Image's fine noise-reduction controls, validated (each finite, 0…1).
    var noiseReductionControls: NoiseReductionControls {
        get throws(DaguerreError) {
            try NoiseReductionControls(
                sharpness: noiseReductionSharpnessAmount, contrast: noiseReductionContrastAmount,
                detail: noiseReductionDetailAmount)
        }
    }

    /// Pipeline versions 1 and 2, which have no noise reduction, accept only the amounts that
    /// leave it out (the ranges are the option table's, ``checkOptions()``).
    func checkNoiseReductionOptions(_ version: PipelineVersion) throws(DaguerreError) {
        if !version.hasNoiseReduction,
            luminanceNoiseReductionAmount != 0, luminanceNoiseReductionAmount != Self.defaultLuminanceNoiseReductionAmount
        {
            throw .unsupported(
                feature: "RAWFilter.luminanceNoiseReductionAmount \(luminanceNoiseReductionAmount) in pipeline version \(decoderVersion)",
                hint:
                    "Versions 1 and 2 have no noise reduction; use decoderVersion \"\(PipelineVersion.default.name)\" (the default) or \"3\"."
            )
        }
        let controls = try noiseReductionControls
        if !version.hasNoiseReduction, !controls.isNeutral {
            throw .unsupported(
                feature: "RAWFilter's noise-reduction sharpness, contrast and detail in pipeline version \(decoderVersion)",
                hint:
                    "Versions 1 and 2 have no noise reduction; leave them at 0 or use decoderVersion \"\(PipelineVersion.default.name)\" (the default) or \"3\"."
            )
        }
    }
}
