// The seeds' delegate methods (session 501): the photo callback that writes a JPEG through
// jpegPhotoDataRepresentation, the bracket callback that reads which bracket image it got,
// and the RAW callback that writes a DNG through dngPhotoDataRepresentation. Every callback
// also notes itself, with its time, in the running sample's record. The spellings that
// changed are listed in PhotoSamples.swift.
import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import Foundation

extension PhotoSamples {
    /// The seeds' `_uniqueFilePath`: the sample's name and the image's number in its request.
    func uniqueFilePath(kind: String) -> String {
        let (name, n) = current.withLock { c -> (String, Int) in
            guard var running = c else { return ("photo", 1) }
            let n = (running.counts[kind] ?? 0) + 1
            running.counts[kind] = n
            c = running
            return (running.record.name, n)
        }
        return (folder as NSString).appendingPathComponent("\(name)-\(n)")
    }

    // MARK: Processed photos (the Live Photo and bracket slides' photo callback)

    public func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,  // Swift 6 spelling: SampleBuffer? for CMSampleBuffer?
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
        bracketSettings: BracketedStillImageSettings?, error: DaguerreError?  // Swift 6 spelling: DaguerreError? for NSError?
    ) {
        // bracketSettings tells which item of the bracket's bracketedSettings this image is.
        note("didFinishProcessingPhoto", resolvedSettings, bracket: bracketSettings)
        noteImage(photoSampleBuffer, preview: previewPhotoSampleBuffer, isRAW: false, bracket: bracketSettings, error: error)

        // The content check is not on the slides: uncompressed photos (the BGRA sample) have
        // no JPEG representation, and the record keeps their size and format.
        if let photoSampleBuffer, case .jpeg = photoSampleBuffer.content {  // Swift 6 spelling: `if let` shorthand (the seeds' `if let a = a, data = …`)
            do {
                let data = try PhotoOutput.jpegPhotoDataRepresentation(  // Swift 6 spelling: do/try, it throws where the seeds' returned nil
                    forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
                let path = uniqueFilePath(kind: "jpg") + ".jpg"
                try AtomicFile.write(data, to: path)  // Swift 6 spelling: AtomicFile.write for data.write(to:options: .atomicWrite)
                noteFile(path)
            } catch {
                // Handle error
                noteError(error)
            }
        }
    }

    // MARK: RAW (the "Writing RAW to DNG" and "Use preview image as a thumbnail" slides)

    public func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingRawPhotoSampleBuffer rawSampleBuffer: SampleBuffer?,  // Swift 6 spelling: SampleBuffer? for CMSampleBuffer?
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
        bracketSettings: BracketedStillImageSettings?, error: DaguerreError?  // Swift 6 spelling: DaguerreError? for NSError?
    ) {
        note("didFinishProcessingRawPhoto", resolvedSettings, bracket: bracketSettings)
        noteImage(rawSampleBuffer, preview: previewPhotoSampleBuffer, isRAW: true, bracket: bracketSettings, error: error)

        if let rawSampleBuffer {  // Swift 6 spelling: `if let` shorthand
            do {
                let data = try PhotoOutput.dngPhotoDataRepresentation(  // Swift 6 spelling: do/try, it throws where the seeds' returned nil
                    forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
                let filePath = uniqueFilePath(kind: "dng") + ".dng"  // Swift 6 spelling: string concatenation for NSString.appendingPathExtension(_:)!
                try AtomicFile.write(data, to: filePath)  // Swift 6 spelling: AtomicFile.write for data.write(to:options: .atomicWrite)
                noteFile(filePath)
            } catch {
                // Handle error
                noteError(error)
            }
        }
    }

    // MARK: The other callbacks, noted with their times

    public func capture(_ captureOutput: PhotoOutput, willBeginCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        note("willBeginCapture", resolvedSettings)
    }

    public func capture(_ captureOutput: PhotoOutput, willCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        note("willCapturePhoto", resolvedSettings)
    }

    public func capture(_ captureOutput: PhotoOutput, didCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        note("didCapturePhoto", resolvedSettings)
    }

    public func capture(
        _ captureOutput: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: ResolvedPhotoSettings
    ) {
        note("didFinishRecordingLivePhotoMovie", resolvedSettings)
    }

    public func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: Double,
        photoDisplayTime: Double, resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        note("didFinishProcessingLivePhotoToMovieFile", resolvedSettings)
        if let error {
            noteError(error)
            return
        }
        // The seeds' app hands the movie to the photo library, which takes the temporary file
        // away; here it moves beside the sample's photos, so nothing stays in the temporary
        // directory (where a later request with the same uniqueID would find it taken).
        let path = uniqueFilePath(kind: "mov") + ".mov"
        do {
            try FileManager.default.moveItem(atPath: outputFileURL.path, toPath: path)
            noteFile(path)
        } catch {
            noteError(DaguerreError.io(operation: "move the Live Photo movie", path: outputFileURL.path, reason: "\(error)"))
        }
    }

    public func capture(
        _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        note("didFinishCapture", resolvedSettings)
        if let error { noteError(error) }
        finished.signal()
    }

    // MARK: The record

    private func note(_ name: String, _ resolved: ResolvedPhotoSettings, bracket: BracketedStillImageSettings? = nil) {
        current.withLock { c in
            guard var running = c else { return }
            let ms = Date().timeIntervalSince(running.start) * 1000
            if !running.record.resolved.contains(where: { $0.uniqueID == resolved.uniqueID }) { running.record.resolved.append(resolved) }
            let label = bracket.map { "\(name) (\($0))" } ?? name
            running.record.callbacks.append(PhotoSampleRecord.Callback(name: label, milliseconds: ms))
            c = running
        }
    }

    private func noteImage(
        _ buffer: SampleBuffer?, preview: SampleBuffer?, isRAW: Bool, bracket: BracketedStillImageSettings?, error: DaguerreError?
    ) {
        var image = PhotoSampleRecord.Image(isRAW: isRAW, bracket: bracket, error: error)
        if let buffer {
            image.width = buffer.width
            image.height = buffer.height
            if case .jpeg = buffer.content {
                image.format = "jpeg"
            } else {
                image.format = buffer.pixelFormatType?.fourCC
            }
        }
        image.previewWidth = preview?.width
        image.previewHeight = preview?.height
        current.withLock { $0?.record.images.append(image) }
    }

    func noteFile(_ path: String) { current.withLock { $0?.record.files.append(path) } }

    func noteError(_ error: any Error) {
        let typed = (error as? DaguerreError) ?? .io(operation: "write the photo", path: folder, reason: "\(error)")
        current.withLock { $0?.record.errors.append(typed) }
    }

    // MARK: Running one sample

    /// Starts the record of the sample `name`; callback times count from now.
    public func begin(_ name: String) {
        current.withLock { $0 = Current(record: PhotoSampleRecord(name: name), start: Date()) }
    }

    /// Ends the running sample and hands back its record.
    public func end() -> PhotoSampleRecord {
        current.withLock { c in
            defer { c = nil }
            return c?.record ?? PhotoSampleRecord(name: "none")
        }
    }

    /// Notes the error a request was refused with.
    public func noteRequestError(_ error: DaguerreError) { current.withLock { $0?.record.requestError = error } }

    /// Waits (real time) for a request's didFinishCapture; false after `timeout` seconds.
    public func waitForFinish(timeout: Double) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }
}
