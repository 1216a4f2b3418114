import DaguerreTestSupport
import Foundation

/// Whether files are whole and valid, as their independent readers see them
/// (`Tests/judges/complete_file.py`: Pillow, tifffile, rawpy, ffprobe and ffmpeg, exiftool):
/// what a file left at its destination by a killed or stopped writer must be.
///
/// ```swift
/// let verdicts = try CompleteFiles.judge([.init(kind: "jpeg", path: out)])
/// #expect(verdicts.allSatisfy(\.complete))
/// ```
enum CompleteFiles {
    /// A file to judge. `kind` is complete_file.py's: jpeg, png, tiff16, dng, mov, motionphoto,
    /// or pair (then `path` is `STILL.jpg,MOVIE.mov`).
    struct Item: Sendable, Hashable {
        let kind: String
        let path: String
    }

    struct Verdict: Sendable {
        let item: Item
        let complete: Bool
        /// What the reader found (a size, a codec), or why the file is not complete.
        let reason: String
    }

    /// The judge's kind for a file Daguerre writes, from its name; nil for other files.
    static func kind(ofFileNamed name: String) -> String? {
        let lower = name.lowercased()
        if lower.hasSuffix(".mp.jpg") { return "motionphoto" }
        switch (lower as NSString).pathExtension {
        case "jpg", "jpeg": return "jpeg"
        case "png": return "png"
        case "tif", "tiff": return "tiff16"
        case "dng": return "dng"
        case "mov", "mp4": return "mov"
        default: return nil
        }
    }

    /// Judges `items` (one Python process, so each reader is loaded once).
    static func judge(_ items: [Item]) throws -> [Verdict] {
        guard !items.isEmpty else { return [] }
        let json = try Judge.python("complete_file.py", items.map { "\($0.kind):\($0.path)" })
        let results = try Judge.need(json["results"] as? [[String: Any]], "complete_file.py's results")
        guard results.count == items.count else {
            throw Judge.Failure(description: "complete_file.py judged \(results.count) of \(items.count) files")
        }
        return zip(items, results).map { item, r in
            Verdict(item: item, complete: r["complete"] as? Bool == true, reason: r["reason"] as? String ?? "no reason given")
        }
    }
}
