// The seeds' photo capture samples (SPEC P1–P14, R3, R5, V1–V4, S1–S4, Q1–Q7), transcribed
// against PhotoOutput: session 501's slides (the high-resolution, flash, BGRA, bracket, preview,
// Live Photo, RAW and RAW + JPEG requests, and the delegate methods that write JPEG and DNG) and
// session 511's scene monitoring and resource preparation. One function per sample; the
// delegate methods are in PhotoSamples+Delegate.swift, session 511's in files of their own.
//
// The names are the seeds' without the AV prefix. Where Swift 6 and this package needed a
// different spelling, the line says so (`// Swift 6 spelling: ...`). The full list:
//
//  1. `var settings = PhotoSettings()` for `let settings = AVCapturePhotoSettings()`:
//     PhotoSettings is a value type, so settings that are changed are `var`.
//  2. `try photoOutput.capturePhoto(...)`: capturePhoto throws a typed error (naming the broken
//     rule) where AVFoundation raised an Objective-C exception; the sample functions are
//     `throws(DaguerreError)`.
//  3. The format dictionaries are typed: `[.pixelFormatType: .bgra]` for
//     `[kCVPixelBufferPixelFormatTypeKey as String: NSNumber(value: kCVPixelFormatType_32BGRA)]`,
//     `[.videoCodec: .codec(processedFormat)]` for `[AVVideoCodecKey: processedFormat]`.
//  4. `availableRawPhotoPixelFormatTypes.first` and `availablePhotoCodecTypes.first` are
//     already typed (no `.uint32Value`), and are unwrapped with `guard let` and a typed error
//     instead of `!`.
//  5. `PreviewPhotoFormat(pixelFormatType:width:height:)` for the preview dictionary with
//     kCVPixelBufferPixelFormatTypeKey, kCVPixelBufferWidthKey and kCVPixelBufferHeightKey.
//  6. `MetadataItem(key: .author, value: "...")` for an AVMutableMetadataItem whose keySpace,
//     key and value are set one by one.
//  7. The delegate's buffers are `SampleBuffer?` for `CMSampleBuffer?`, its errors
//     `DaguerreError?` for `NSError?`; the delegate is a final class that is `Sendable`.
//  8. `if let photoSampleBuffer, let data = ...` (Swift 5.7's shorthand, and `let` in every
//     clause); the data representations throw, so they are called in `do`/`try` where the seeds
//     tested an optional.
//  9. `AtomicFile.write(data, to: path)` for `data.write(to:options: .atomicWrite)`: the data
//     is `[UInt8]`, and files are written atomically through the package's own writer.
// 10. `(path as NSString).appendingPathExtension(".dng")!` becomes `path + ".dng"` (no
//     NSString, no force unwrap).
// 11. `PhotoBracketSettings(rawPixelFormatType: nil, ...)` for `rawPixelFormatType: 0`, and
//     `.manualExposure(duration: seconds, iso:)` for a CMTime duration.
// 12. Scene monitoring (511): `photoOutput.observeSceneMonitoring { scene in ... }` for
//     key-value observers on isFlashScene and isStillImageStabilizationScene (an AsyncStream,
//     `sceneMonitoringUpdates()`, is there too for async code).
// 13. `setPreparedPhotoSettingsArray(_:completionHandler:)`'s completion gets
//     `(Bool, DaguerreError?)` for `(Bool, Error?)`.
import DaguerreCapture
import DaguerreCore
import DaguerreMovie
import Dispatch
import Foundation
import Synchronization

/// The seeds' photo samples: the object that owns `photoOutput` and is the delegate of its
/// requests, as the view controllers of the slides are. Each `take…` function is one sample;
/// ``begin(_:)`` and ``end()`` bracket a sample so that its callbacks, files and errors are
/// collected in a ``PhotoSampleRecord`` (``PhotoSampleRunner`` runs them all).
///
/// ```swift
/// let samples = PhotoSamples(photoOutput: photoOutput, folder: "/tmp/photos")
/// samples.begin("takeFlashPhoto")
/// try samples.takeFlashPhoto()
/// _ = samples.waitForFinish(timeout: 60)
/// print(samples.end().summary)
/// ```
public final class PhotoSamples: PhotoProcessingDelegate, RawPhotoProcessingDelegate, LivePhotoMovieProcessingDelegate, Sendable {
    public let photoOutput: PhotoOutput
    /// Where the delegate writes the photos.
    public let folder: String
    /// The seeds' `_uniqueAppSignature`: the Live Photo movie's file name starts with it.
    let uniqueAppSignature = "daguerre-photo-samples"

    struct Current: Sendable {
        var record: PhotoSampleRecord
        var start: Date
        /// Images delivered per request and kind, for unique file names.
        var counts: [String: Int] = [:]
    }
    let current = Mutex<Current?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let prepared = DispatchSemaphore(value: 0)
    let sceneObserver = Mutex<ValueObservation?>(nil)

    public init(photoOutput: PhotoOutput, folder: String) {
        self.photoOutput = photoOutput
        self.folder = folder
    }

    deinit { sceneObserver.withLock { $0?.invalidate() } }

    // MARK: Session 501: initiating a photo capture

    /// A photo larger than the video stream (run on the front camera: 5 MP from its 1280×960 stream).
    public func takeHighResolutionPhoto() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        var settings = PhotoSettings()  // Swift 6 spelling: var (PhotoSettings is a struct)
        settings.isHighResolutionPhotoEnabled = true

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try (capturePhoto throws a typed error)
    }

    /// A photo whose flash fires when the scene is dark enough.
    public func takeFlashPhoto() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        var settings = PhotoSettings()  // Swift 6 spelling: var (PhotoSettings is a struct)
        settings.flashMode = .auto

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    /// An uncompressed BGRA photo.
    public func takeBGRAPhoto() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        let bgraFormat: [PhotoFormatKey: PhotoFormatValue] = [.pixelFormatType: .bgra]  // Swift 6 spelling: typed keys and values, no kCVPixelBufferPixelFormatTypeKey/NSNumber
        let settings = PhotoSettings(format: bgraFormat)

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    // MARK: Session 501: bracketed capture

    /// An auto-exposure bracket of −2, 0 and +2 EV. The slide gives the bracket settings'
    /// declarations and the photo callback (see the delegate); this request is written from them.
    public func takeAutoExposureBracket() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        let biases: [Double] = [-2, 0, +2]
        var settings = PhotoBracketSettings(  // Swift 6 spelling: var (a struct)
            rawPixelFormatType: nil, processedFormat: [.videoCodec: .jpeg],  // Swift 6 spelling: nil for rawPixelFormatType 0
            bracketedSettings: biases.map { .autoExposure(exposureTargetBias: $0) })
        settings.isLensStabilizationEnabled = photoOutput.isLensStabilizationDuringBracketedCaptureSupported

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    /// A manual bracket: 1/60 s at ISO 100 and at ISO 400, then 1/30 s at ISO 400.
    public func takeManualExposureBracket() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        let exposures: [(duration: Double, iso: Double)] = [(1.0 / 60, 100), (1.0 / 60, 400), (1.0 / 30, 400)]
        let settings = PhotoBracketSettings(
            rawPixelFormatType: nil, processedFormat: [.videoCodec: .jpeg],  // Swift 6 spelling: nil for rawPixelFormatType 0
            bracketedSettings: exposures.map { .manualExposure(duration: $0.duration, iso: $0.iso) })  // Swift 6 spelling: seconds for a CMTime

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    // MARK: Session 501: Live Photos

    /// A Live Photo with an author in the movie's metadata: the still, and a movie from 1.5 s
    /// before it to 1.5 s after, in the temporary directory.
    public func takeLivePhoto() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        var settings = PhotoSettings()  // Swift 6 spelling: var (PhotoSettings is a struct)
        settings.isHighResolutionPhotoEnabled = true

        settings.livePhotoMovieFileURL = URL(
            fileURLWithPath: "\(NSTemporaryDirectory())/\(uniqueAppSignature)_\(settings.uniqueID)")

        // Optional Movie-level Metadata
        var metadataItems = [MetadataItem]()

        let authorMetadataItem = MetadataItem(key: .author, value: "Brad Ford")  // Swift 6 spelling: one initializer for AVMutableMetadataItem's keySpace, key and value
        metadataItems.append(authorMetadataItem)

        settings.livePhotoMovieMetadata = metadataItems

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    // MARK: Session 501: RAW

    /// A RAW photo (back camera, photo preset).
    public func takeRawPhoto() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        guard let rawFormat = photoOutput.availableRawPhotoPixelFormatTypes.first else {  // Swift 6 spelling: guard let and a typed error for first!.uint32Value
            throw Self.unavailable("RAW format", in: "availableRawPhotoPixelFormatTypes")
        }
        let settings = PhotoSettings(rawPixelFormatType: rawFormat)

        // RAW settings come with auto still-image stabilization off, and leave high resolution
        // off: it means nothing for RAW.

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    /// A RAW photo and a JPEG of the same exposure.
    public func takeRAWPlusJPEGPhoto() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        guard let rawFormat = photoOutput.availableRawPhotoPixelFormatTypes.first else {  // Swift 6 spelling: guard let and a typed error for first!.uint32Value
            throw Self.unavailable("RAW format", in: "availableRawPhotoPixelFormatTypes")
        }
        guard let processedFormat = photoOutput.availablePhotoCodecTypes.first else {  // Swift 6 spelling: guard let and a typed error for first!
            throw Self.unavailable("codec", in: "availablePhotoCodecTypes")
        }
        let settings = PhotoSettings(rawPixelFormatType: rawFormat, processedFormat: [.videoCodec: .codec(processedFormat)])  // Swift 6 spelling: typed format dictionary

        // isHighResolutionPhotoEnabled applies only to the processed photo.

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    // MARK: Session 501: preview images

    /// A high-resolution JPEG with a preview fitted into 160×160 (4032×3024 gives 160×120).
    public func takePhotoWithPreviewImage() throws(DaguerreError) {  // Swift 6 spelling: throws(DaguerreError)
        var settings = PhotoSettings()  // Swift 6 spelling: var (PhotoSettings is a struct)
        settings.isHighResolutionPhotoEnabled = true

        guard let previewPixelType = settings.availablePreviewPhotoPixelFormatTypes.first else {  // Swift 6 spelling: guard let and a typed error for first!.uint32Value
            throw Self.unavailable("preview format", in: "availablePreviewPhotoPixelFormatTypes")
        }
        let previewFormat = PreviewPhotoFormat(pixelFormatType: previewPixelType, width: 160, height: 160)  // Swift 6 spelling: a PreviewPhotoFormat for the kCVPixelBuffer… dictionary
        settings.previewPhotoFormat = previewFormat

        try photoOutput.capturePhoto(with: settings, delegate: self)  // Swift 6 spelling: try
    }

    static func unavailable(_ what: String, in list: String) -> DaguerreError {
        .unsupported(
            feature: "a \(what) from the PhotoOutput (\(list) is empty)",
            hint: "Use the back camera with the photo preset, and add the camera before asking.")
    }
}
