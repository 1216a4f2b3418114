// Where an edited Live Photo goes (SPEC E7; PhotoKit's PHContentEditingOutput): a still and a
// movie that pair, or one Motion Photo, with the edit's adjustment data. The input's files are
// never written.
import DaguerreCore
import Foundation

/// The destination of ``LivePhotoEditingContext/saveLivePhoto(to:)``.
///
/// ```swift
/// var output = ContentEditingOutput(contentEditingInput: input,
///                                   still: URL(fileURLWithPath: "edited/IMG_0001.JPG"),
///                                   movie: URL(fileURLWithPath: "edited/IMG_0001.MOV"))
/// output.adjustmentData = AdjustmentData(formatIdentifier: "com.example.crop", formatVersion: "1", data: bytes)
/// try await context.saveLivePhoto(to: output)
/// ```
public struct ContentEditingOutput: Sendable, Hashable {
    /// The files the edited Live Photo is written as.
    public enum Destination: Sendable, Hashable {
        /// A still and a movie paired by a new content identifier, in ``pairFormat``.
        case pair(still: URL, movie: URL)
        /// A Google Motion Photo 1.0: the JPEG with the movie as an MP4 after it.
        case motionPhoto(URL)
    }

    public let contentEditingInput: ContentEditingInput
    public var destination: Destination
    /// The edit, written into the still's XMP and into an `.AAE` sidecar beside it, so that it
    /// can be resumed from the original. Without it the saved Live Photo cannot be re-edited.
    public var adjustmentData: AdjustmentData?
    /// Whether the `.AAE` sidecar is written beside the still (the XMP always is).
    public var writesSidecar = true
    /// A pair's formats: JPEG + H.264 or HEIC + HEVC; by default what the still's name says.
    /// (A Motion Photo is always a JPEG with an H.264 MP4.)
    public var pairFormat: LivePhotoPairFormat

    public init(contentEditingInput: ContentEditingInput, still: URL, movie: URL) {
        self.contentEditingInput = contentEditingInput
        destination = .pair(still: still, movie: movie)
        pairFormat = LivePhotoPairFormat(stillURL: still)
    }

    public init(contentEditingInput: ContentEditingInput, motionPhoto: URL) {
        self.contentEditingInput = contentEditingInput
        destination = .motionPhoto(motionPhoto)
        pairFormat = .jpeg
    }

    /// The still's file (the Motion Photo itself for one).
    public var stillURL: URL {
        switch destination {
        case .pair(let still, _): still
        case .motionPhoto(let url): url
        }
    }

    /// Refuses destinations that would overwrite the input, or that are one file twice.
    func check() throws(DaguerreError) {
        var inputs: [URL] = []
        switch contentEditingInput.source {
        case .pair(let still, let movie): inputs = [still, movie]
        case .motionPhoto(let url): inputs = [url]
        }
        var outputs: [URL] = []
        switch destination {
        case .pair(let still, let movie): outputs = [still, movie]
        case .motionPhoto(let url): outputs = [url]
        }
        if writesSidecar, adjustmentData != nil { outputs.append(AdjustmentData.sidecarURL(forStill: stillURL)) }
        let key = { (u: URL) in u.standardizedFileURL.resolvingSymlinksInPath().path }
        for o in outputs where inputs.contains(where: { key($0) == key(o) }) {
            throw .invalidArgument(
                what: "The edited Live Photo's file \(o.path)",
                problem: "is one of the originals, which an edit never changes; save elsewhere")
        }
        if Set(outputs.map(key)).count != outputs.count {
            throw .invalidArgument(
                what: "The edited Live Photo's files", problem: "name one file twice; give the still and the movie their own names")
        }
    }
}
