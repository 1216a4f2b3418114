// A playback preview of an edited Live Photo (SPEC E6; what PhotoKit hands a PHLivePhotoView):
// a small still and movie in a temporary folder of their own, removed with the preview.
import DaguerreCore
import DaguerreMovie
import Foundation

/// The preview ``LivePhotoEditingContext/prepareLivePhotoForPlayback(targetSize:)`` renders.
///
/// ```swift
/// let preview = try await context.prepareLivePhotoForPlayback(targetSize: Size(width: 640, height: 640))
/// player.play(still: preview.stillURL, movie: preview.movieURL, photoTime: preview.photoTime)
/// ```
public final class LivePhotoPreview: Sendable {
    public let stillURL: URL
    public let movieURL: URL
    /// The movie's size (the still fits the same target size).
    public let size: Size
    public let photoTime: MediaTime
    private let folder: URL

    init(stillURL: URL, movieURL: URL, size: Size, photoTime: MediaTime, folder: URL) {
        self.stillURL = stillURL
        self.movieURL = movieURL
        self.size = size
        self.photoTime = photoTime
        self.folder = folder
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A new private folder in the temporary directory.
    static func makeFolder() throws(DaguerreError) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("daguerre-live-edit-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        } catch {
            throw .io(operation: "create the folder", path: url.path, reason: error.localizedDescription)
        }
        return url
    }
}
