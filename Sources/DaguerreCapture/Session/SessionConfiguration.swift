// A session's configuration as one value (SPEC C1, C3): beginConfiguration() stages a copy,
// commitConfiguration() validates it whole and applies it, so a failed commit changes nothing.
// Photo-output pipeline options are part of it (C6: they shape the pipeline), so they too
// change only at the commit.

/// A session's topology and settings as a value: what `beginConfiguration()` stages and
/// `commitConfiguration()` validates and applies.
struct SessionConfiguration: Sendable {
    /// Options set on a photo output through the session and not yet committed.
    struct StagedPhotoOptions: Sendable {
        let output: PhotoOutput
        var options: PhotoOutput.PipelineOptions
    }

    var inputs: [CaptureDeviceInput] = []
    var outputs: [CaptureOutput] = []
    var preset: CaptureSession.Preset = .high
    var automaticallyConfiguresWideColor = true
    /// Photo-output options changed in this configuration, applied to their outputs when it is
    /// committed. A committed configuration has none: each output holds its committed options.
    var stagedPhotoOptions: [ObjectIdentifier: StagedPhotoOptions] = [:]

    /// The camera input, if any (the rules allow one).
    var videoInput: CaptureDeviceInput? { inputs.first { $0.device.mediaType == .video } }
    var mediaTypes: Set<CaptureMediaType> { Set(inputs.map(\.device.mediaType)) }

    /// The options `photo` has in this configuration: staged, or else its own.
    func pipelineOptions(of photo: PhotoOutput) -> PhotoOutput.PipelineOptions {
        stagedPhotoOptions[ObjectIdentifier(photo)]?.options ?? photo.pipelineOptions
    }

    /// Changes `photo`'s options in this configuration.
    mutating func stage(_ options: PhotoOutput.PipelineOptions, for photo: PhotoOutput) {
        stagedPhotoOptions[ObjectIdentifier(photo)] = StagedPhotoOptions(output: photo, options: options)
    }
}
