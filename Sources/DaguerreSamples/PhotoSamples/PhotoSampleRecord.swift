// What one of the seeds' photo samples did: its requests' resolved settings, the callbacks with
// their times, the images delivered, the files written and the errors met. The sample program
// prints it; the tests check it.
import DaguerreCapture
import DaguerreCore

/// The outcome of one photo sample (``PhotoSamples``), as its delegate saw it.
///
/// ```swift
/// let record = try runner.run("flash") { try $0.takeFlashPhoto() }
/// print(record.resolved.first?.isFlashEnabled ?? false, record.files)
/// ```
public struct PhotoSampleRecord: Sendable {
    /// One delegate callback, with its time in milliseconds since the sample's request.
    public struct Callback: Sendable, Hashable, CustomStringConvertible {
        public var name: String
        public var milliseconds: Double
        public var description: String { "\(String(format: "%8.1f", milliseconds)) ms  \(name)" }
    }

    /// One image a photo callback delivered (or the error it carried instead).
    public struct Image: Sendable {
        public var isRAW: Bool
        /// The image's size and pixel format ('jpeg' for a JPEG), nil when the callback carried an error.
        public var width: Int?
        public var height: Int?
        public var format: String?
        public var previewWidth: Int?
        public var previewHeight: Int?
        public var bracket: BracketedStillImageSettings?
        public var error: DaguerreError?
    }

    /// The sample's name (the function the seeds named, or a short name for the unnamed ones).
    public var name: String
    /// Each request's resolved settings, in the order their first callback came.
    public var resolved: [ResolvedPhotoSettings] = []
    public var callbacks: [Callback] = []
    public var images: [Image] = []
    /// The files the delegate wrote (absolute paths).
    public var files: [String] = []
    /// Errors the delegate met: carried by didFinishCapture, or met writing a file.
    public var errors: [DaguerreError] = []
    /// The error `capturePhoto` threw, when the request was refused.
    public var requestError: DaguerreError?
    /// Scene monitoring's flags as the sample observed them change (session 511's observers).
    public var sceneChanges: [SceneMonitoringState] = []
    /// The resource preparation's completion: whether prepared, and its error (session 511).
    public var preparation: (prepared: Bool, error: DaguerreError?)?

    public init(name: String) { self.name = name }

    /// A few lines for people: the resolved settings, the timeline, the files.
    public var summary: String {
        var lines = ["\(name):"]
        if let requestError { lines.append("  request refused: \(requestError.description)") }
        for r in resolved {
            lines.append(
                "  resolved \(r.uniqueID): photo \(r.photoDimensions), RAW \(r.rawPhotoDimensions), preview \(r.previewPhotoDimensions), "
                    + "flash \(r.isFlashEnabled), SIS \(r.isStillImageStabilizationEnabled), \(r.expectedPhotoCount) photo(s)")
        }
        if let preparation {
            lines.append("  prepared: \(preparation.prepared)\(preparation.error.map { " (\($0.description))" } ?? "")")
        }
        for s in sceneChanges {
            lines.append("  scene: flash \(s.isFlashScene), still-image stabilization \(s.isStillImageStabilizationScene)")
        }
        lines += callbacks.map { "  \($0)" }
        for image in images {
            let kind = image.isRAW ? "RAW" : "photo"
            if let error = image.error {
                lines.append("  \(kind): \(error.description)")
            } else {
                let preview = image.previewWidth.map { ", preview \($0)×\(image.previewHeight ?? 0)" } ?? ""
                let bracket = image.bracket.map { ", \($0)" } ?? ""
                lines.append("  \(kind): \(image.width ?? 0)×\(image.height ?? 0) \(image.format ?? "?")\(preview)\(bracket)")
            }
        }
        lines += files.map { "  wrote \($0)" }
        lines += errors.map { "  error: \($0.description)" }
        return lines.joined(separator: "\n")
    }
}
