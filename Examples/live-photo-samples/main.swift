// The seed's Live Photo edits (session 505, in Sources/DaguerreSamples/LivePhotoEditing), run on
// a Live Photo: a square crop, a crop that moves from bottom to top with time, a blur and
// vignette scaled by renderScale, and a logo on the photo only. Each edit is saved as its own
// pair, OUTPUT-FOLDER/<edit>/IMG.JPG and IMG.MOV, with a playback preview at 640 pixels timed.
//
//   swift run -c release live-photo-samples STILL MOVIE OUTPUT-FOLDER [--logo PNG] [--only EDIT]
import Daguerre
import DaguerreSamples
import Foundation

/// The arguments: the still, the movie and the folder, and the --logo and --only options.
func parse(_ arguments: [String]) -> (paths: [String], logo: String?, only: String?) {
    var args = arguments
    func take(_ flag: String) -> String? {
        guard let i = args.firstIndex(of: flag), i + 1 < args.count else { return nil }
        defer { args.removeSubrange(i...(i + 1)) }
        return args[i + 1]
    }
    let logo = take("--logo")
    let only = take("--only")
    return (args, logo, only)
}
let options = parse(Array(CommandLine.arguments.dropFirst()))
guard options.paths.count == 3 else {
    FileHandle.standardError.write(
        Data(
            "usage: live-photo-samples STILL MOVIE OUTPUT-FOLDER [--logo PNG] [--only \(LivePhotoEditingSamples.names.joined(separator: "|"))]\n"
                .utf8))
    exit(2)
}

func run(still: String, movie: String, folder: String, logoPath: String?, only: String?) async throws(DaguerreError) {
    let input = ContentEditingInput(still: URL(fileURLWithPath: still), movie: URL(fileURLWithPath: movie))
    let logo = try logoPath.map { (path) throws(DaguerreError) in try Image(contentsOf: URL(fileURLWithPath: path)) }
    for name in LivePhotoEditingSamples.names where only == nil || only == name {
        let livePhotoContext = try LivePhotoEditingContext(livePhotoEditingInput: input)
        try LivePhotoEditingSamples.apply(name, to: livePhotoContext, logo: logo)
        let start = Date()
        let preview = try await livePhotoContext.prepareLivePhotoForPlayback(targetSize: Size(width: 640, height: 640))
        let previewSeconds = Date().timeIntervalSince(start)
        let dir = URL(fileURLWithPath: folder).appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw .io(operation: "create the folder", path: dir.path, reason: error.localizedDescription)
        }
        var output = ContentEditingOutput(
            contentEditingInput: input, still: dir.appendingPathComponent("IMG.JPG"), movie: dir.appendingPathComponent("IMG.MOV"))
        output.adjustmentData = AdjustmentData(
            formatIdentifier: "photo.daguerre.live-photo-samples", formatVersion: "1", data: Array(name.utf8))
        let saveStart = Date()
        try await livePhotoContext.saveLivePhoto(to: output)
        let stillInfo = try JPEGFileMetadata(path: output.stillURL.path)
        print(
            String(
                format: "%@: still %d×%d, preview %.0f×%.0f in %.2f s, saved in %.2f s to %@", name, stillInfo.width, stillInfo.height,
                preview.size.width, preview.size.height, previewSeconds, Date().timeIntervalSince(saveStart), dir.path))
    }
}

do {
    try await run(
        still: options.paths[0], movie: options.paths[1], folder: options.paths[2], logoPath: options.logo, only: options.only)
} catch {
    FileHandle.standardError.write(Data("live-photo-samples: \(error)\n".utf8))
    exit(1)
}
