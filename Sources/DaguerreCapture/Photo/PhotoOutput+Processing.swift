// The processing stage (SPEC P8, P11, P13, R2–R4, V1–V4, W5): each image's stills are read out,
// a stabilization burst is fused, and the processed photo, the RAW photo and their previews are
// made and delivered, processed before RAW for each image, images in order, then didFinish.
// A failure still delivers every expected photo callback, carrying the error. Runs on the
// pipeline's processing queue.
import DaguerreCore
import DaguerreFormats
import DaguerreRAW
import Foundation

extension PhotoOutput {
    func process(_ job: PhotoCaptureJob, _ captured: Result<[PhotoImageStills], DaguerreError>) {
        let delegate = job.delegate
        let resolved = job.resolved
        let brackets: [BracketedStillImageSettings?] = job.bracketSettings ?? [nil]
        var images: [PhotoImageStills] = []
        var failure: DaguerreError?
        var firstPhoto: (photo: SampleBuffer?, preview: SampleBuffer?)?
        switch captured {
        case .success(let made) where made.count == brackets.count: images = made
        case .success(let made):
            failure = .processorFailed(
                name: "PhotoOutput", reason: "the capture made \(made.count) images for a request of \(brackets.count)")
        case .failure(let error): failure = error
        }
        for (index, bracket) in brackets.enumerated() {
            var photo: SampleBuffer?
            var raw: SampleBuffer?
            var photoPreview: SampleBuffer?
            var rawPreview: SampleBuffer?
            var error = failure
            if failure == nil {
                do throws(DaguerreError) {
                    let made = try makeImage(images[index], job: job)
                    (photo, photoPreview, raw, rawPreview) = (made.photo, made.photoPreview, made.raw, made.rawPreview)
                    if firstPhoto == nil { firstPhoto = (photo, photoPreview) }
                } catch let e {
                    error = e
                    failure = failure ?? e
                }
            }
            if job.wantsProcessed {
                pipeline.deliver { [photo, photoPreview, error] in
                    delegate.didFinishProcessingPhoto(
                        self, photo: photo, preview: photoPreview, resolved: resolved, bracket: bracket, error: photo == nil ? error : nil)
                }
            }
            if job.wantsRAW {
                pipeline.deliver { [raw, rawPreview, error] in
                    delegate.didFinishProcessingRawPhoto(
                        self, raw: raw, preview: rawPreview, resolved: resolved, bracket: bracket, error: raw == nil ? error : nil)
                }
            }
        }
        let finalError = failure
        if let live = job.livePhoto {
            // The movie's callbacks, then didFinishCapture, follow when the movie is written.
            live.completion.photosDelivered(error: finalError, photo: firstPhoto?.photo, preview: firstPhoto?.preview)
        } else {
            pipeline.deliver { delegate.didFinishCapture(self, resolved, error: finalError) }
        }
    }

    private struct MadeImage {
        var photo: SampleBuffer?
        var photoPreview: SampleBuffer?
        var raw: SampleBuffer?
        var rawPreview: SampleBuffer?
    }

    private func makeImage(_ image: PhotoImageStills, job: PhotoCaptureJob) throws(DaguerreError) -> MadeImage {
        var stills: [SampleBuffer] = []
        for still in image.stills { stills.append(try still.read()) }
        guard var sensor = stills.first else {
            throw .processorFailed(name: "PhotoOutput", reason: "the capture stage made no still for an image")
        }
        if stills.count > 1 { sensor = try StillFusion.fuse(stills) }
        sensor.photoMetadata = photoMetadata(sensor.photoMetadata, job: job, bracket: image.bracket)
        let resolved = job.resolved
        let developer = try developer()
        var made = MadeImage()
        if job.wantsRAW {
            made.raw = sensor
        }
        if let format = job.settings.processedFormat {
            var metadata = sensor.photoMetadata
            metadata.writesAppleMakerNote = true
            metadata.livePhotoContentIdentifier = job.livePhoto?.contentIdentifier
            switch format {
            case .codec: made.photo = try developer.jpeg(sensor, colorSpace: job.colorSpace, metadata: metadata)
            case .pixelFormat(let pixel):
                made.photo = try developer.pixels(sensor, as: pixel, colorSpace: job.colorSpace, metadata: metadata)
            }
        }
        // One preview serves the processed and the RAW photo.
        if let previewFormat = job.settings.previewPhotoFormat, resolved.previewPhotoDimensions.width > 0 {
            let preview = try developer.pixels(
                sensor, as: previewFormat.pixelFormatType, colorSpace: job.colorSpace, draftSize: resolved.previewPhotoDimensions)
            if job.wantsProcessed { made.photoPreview = preview }
            if job.wantsRAW { made.rawPreview = preview }
        }
        return made
    }

    /// The capture facts a photo carries: the request's date, the flash, and the frame's own
    /// exposure (the virtual camera's still already has the camera's make, lens and exposure).
    private func photoMetadata(_ base: PhotoMetadata, job: PhotoCaptureJob, bracket: BracketedStillImageSettings?) -> PhotoMetadata {
        var m = base
        m.dateTimeOriginal = job.requestDate
        m.timeZoneOffset = TimeZone.current.secondsFromGMT(for: job.requestDate)
        switch (job.settings.flashMode, job.resolved.isFlashEnabled) {
        case (.auto, true): m.flash = PhotoMetadata.FlashValue.autoFired
        case (.auto, false): m.flash = PhotoMetadata.FlashValue.autoDidNotFire
        case (_, true): m.flash = PhotoMetadata.FlashValue.fired
        case (_, false): m.flash = PhotoMetadata.FlashValue.didNotFire
        }
        if case .autoExposure(let bias)? = bracket { m.exposureBias = bias }
        return m
    }
}
