// What a Live Photo edit starts from (SPEC E1; PhotoKit's PHContentEditingInput): a still and a
// movie that pair, or one Motion Photo file, and the adjustment data of an earlier edit.
import DaguerreCore
import Foundation

/// The files of a Live Photo to edit.
///
/// Nothing is read until a ``LivePhotoEditingContext`` opens it; the context fails when the
/// files are not a Live Photo.
///
/// ```swift
/// let input = ContentEditingInput(still: URL(fileURLWithPath: "IMG_0001.JPG"),
///                                 movie: URL(fileURLWithPath: "IMG_0001.MOV"))
/// let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
/// ```
public struct ContentEditingInput: Sendable, Hashable {
    /// Where the Live Photo is.
    public enum Source: Sendable, Hashable {
        /// A still and a movie paired by one content identifier.
        case pair(still: URL, movie: URL)
        /// A Google Motion Photo: the still with the movie after it, in one file.
        case motionPhoto(URL)
    }

    public var source: Source
    /// The adjustment data of the edit that made these files, for resuming it, or nil
    /// (``AdjustmentData/read(fromStill:)`` finds it in a saved still).
    public var adjustmentData: AdjustmentData?

    public init(still: URL, movie: URL, adjustmentData: AdjustmentData? = nil) {
        source = .pair(still: still, movie: movie)
        self.adjustmentData = adjustmentData
    }

    public init(motionPhoto: URL, adjustmentData: AdjustmentData? = nil) {
        source = .motionPhoto(motionPhoto)
        self.adjustmentData = adjustmentData
    }

    /// The file that holds the still (PhotoKit's fullSizeImageURL).
    public var fullSizeImageURL: URL {
        switch source {
        case .pair(let still, _): still
        case .motionPhoto(let url): url
        }
    }
}
